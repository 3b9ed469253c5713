#!/usr/bin/env python3
"""cli_upgrade.sh in a made-up tree whose steps are stubs (tools/image/pin, tools/cli_diff, the
three recorders, tools/bazel): bad input, the steps in order, the version file and folders it
changes, the first failing step named with how to go on, and the resumption from the
recordings. No CLI is fetched or run."""
import os
import shutil
import stat
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "cli_upgrade.sh")

VERSION_FILE = ("# The comment stays as it is.\n"
                "current\t1.0.0\n"
                "previous\t0.9.0\n")

# Each stub logs its name and arguments, then exits with $FAIL_<NAME> (0 when unset). A
# recorder first writes the current version's folder, as the real ones do.
STUB = r"""#!/usr/bin/env bash
echo "{name} $*" >>"${{STUB_LOG}}"
{body}
exit "${{FAIL_{var}:-0}}"
"""
RECORDER = r"""current="$(awk -F'\t' '$0 !~ /^#/ && $1 == "current" {{ print $2 }}' tools/image/azmcp-version)"
mkdir -p "fixtures/azmcp-${{current}}-{kind}" && echo recorded >"fixtures/azmcp-${{current}}-{kind}/file"
"""
CLI_DIFF = r"""printf 'cli_diff: report\ndifferential scenarios (2): 1 same, 1 different\n  same       a\n  different  b\nverdict: the versions differ\n'
[[ "$3" == --json ]] && echo '{}' >"$4"
"""
STUBS = {
    "tools/image/pin": ("pin", "PIN", ""),
    "tools/cli_diff": ("cli_diff", "DIFF", CLI_DIFF),
    "tools/fixtures/record_local_cli.sh": ("record_local", "LOCAL", RECORDER.format(kind="local")),
    "tools/fixtures/record_differential.sh": (
        "record_differential", "DIFFERENTIAL", RECORDER.format(kind="differential")),
    "tools/fixtures/record_live_check_dry_run.sh": (
        "record_dry_run", "DRY_RUN", RECORDER.format(kind="dry-run")),
    "tools/bazel": ("bazel", "GATE", "echo 'gate: 3 suites, all passed'"),
}


class CliUpgrade(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        self.tree = os.path.join(self.tmp, "tree")
        self.write("tools/image/azmcp-version", VERSION_FILE)
        with open(SCRIPT) as f:
            self.write("tools/cli_versions/cli_upgrade.sh", f.read(), executable=True)
        for path, (name, var, body) in STUBS.items():
            self.write(path, STUB.format(name=name, var=var, body=body), executable=True)
        self.log = os.path.join(self.tmp, "log")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, path, text, executable=False):
        full = os.path.join(self.tree, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
        if executable:
            os.chmod(full, os.stat(full).st_mode | stat.S_IXUSR)

    def upgrade(self, *args, **fail):
        env = {"PATH": os.environ["PATH"], "STUB_LOG": self.log, "TMPDIR": self.tmp}
        env.update({"FAIL_" + k: str(v) for k, v in fail.items()})
        done = subprocess.run(["bash", os.path.join(self.tree, "tools/cli_versions/cli_upgrade.sh"),
                               *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                              timeout=60)
        return done.returncode, done.stdout.decode(), done.stderr.decode()

    def steps(self):
        if not os.path.exists(self.log):
            return []
        with open(self.log) as f:
            return [line.split(" ")[0] for line in f.read().splitlines()]

    def version_file(self):
        with open(os.path.join(self.tree, "tools/image/azmcp-version")) as f:
            return f.read()

    def folders(self):
        d = os.path.join(self.tree, "fixtures")
        return sorted(os.listdir(d)) if os.path.isdir(d) else []

    def test_bad_input_is_one_line_and_64(self):
        for args in ([], ["1.1.0", "1.2.0"], ["latest"], ["1.1"], ["--bogus"]):
            status, out, err = self.upgrade(*args)
            self.assertEqual(status, 64, args)
            self.assertEqual(out, "", args)
            self.assertEqual(len(err.splitlines()), 1, (args, err))
            self.assertRegex(err, r"^cli_upgrade: .*\(usage: tools/cli_upgrade NEW\)\n$")
            self.assertEqual(self.steps(), [], args)
            self.assertEqual(self.version_file(), VERSION_FILE)

    def test_every_step_in_order(self):
        status, out, err = self.upgrade("1.1.0")
        self.assertEqual(status, 0, err)
        self.assertEqual(self.steps(), ["pin", "cli_diff", "record_local", "record_differential",
                                        "record_dry_run", "bazel"])
        with open(self.log) as f:
            log = f.read().splitlines()
        self.assertEqual(log[0], "pin 1.1.0")
        self.assertTrue(log[1].startswith("cli_diff 1.0.0 1.1.0 --json "), log[1])
        self.assertEqual(log[-1], "bazel run //conformance:gate")
        self.assertEqual(self.version_file(),
                         VERSION_FILE.replace("1.0.0", "1.1.0").replace("0.9.0", "1.0.0"))
        self.assertEqual(self.folders(), ["azmcp-1.1.0-differential", "azmcp-1.1.0-dry-run",
                                          "azmcp-1.1.0-local"])
        # The report's summary and what differs; the scenarios alike only in the whole report.
        self.assertIn("differential scenarios (2): 1 same, 1 different\n", out)
        self.assertIn("  different  b\n", out)
        self.assertNotIn("  same       a", out)
        self.assertIn("gate: 3 suites, all passed\n", out)
        for n, name in enumerate(("pin", "diff", "switch", "record", "gate"), 1):
            self.assertIn("cli_upgrade: step %d (%s): " % (n, name), err)
        self.assertIn("cli_upgrade: done: 1.1.0 is the current version (previous 1.0.0)", err)

    def test_there_and_back_is_the_identity(self):
        self.assertEqual(self.upgrade("1.1.0")[0], 0)
        self.write("fixtures/azmcp-1.0.0-local/file", "recorded\n")
        self.write("fixtures/azmcp-1.0.0-differential/file", "recorded\n")
        self.write("fixtures/azmcp-1.0.0-dry-run/file", "recorded\n")
        before = self.folders()
        os.remove(self.log)
        status, _, err = self.upgrade("1.0.0")
        self.assertEqual(status, 0, err)
        self.assertEqual(self.version_file(), VERSION_FILE.replace("0.9.0", "1.1.0"))
        self.assertEqual(self.steps(), ["pin", "cli_diff", "bazel"])  # nothing re-recorded
        self.assertEqual(self.folders(), before)
        self.assertEqual(err.count("(recorded before): kept as it is"), 3)

    def test_a_failing_pin_changes_nothing(self):
        status, _, err = self.upgrade("1.1.0", PIN=1)
        self.assertEqual(status, 1)
        self.assertIn("cli_upgrade: step 1 (pin) failed: tools/image/pin 1.1.0\n", err)
        self.assertIn("cli_upgrade: to go on: is 1.1.0 published", err)
        self.assertEqual(self.steps(), ["pin"])
        self.assertEqual(self.version_file(), VERSION_FILE)

    def test_versions_that_differ_go_on_but_a_diff_that_fails_stops(self):
        status, _, err = self.upgrade("1.1.0", DIFF=1)
        self.assertEqual(status, 0, err)
        self.assertIn("the versions differ", err)
        os.remove(self.log)
        shutil.rmtree(os.path.join(self.tree, "fixtures"))
        with open(os.path.join(self.tree, "tools/image/azmcp-version"), "w") as f:
            f.write(VERSION_FILE)
        status, _, err = self.upgrade("1.1.0", DIFF=69)
        self.assertEqual(status, 1)
        self.assertIn("cli_upgrade: step 2 (diff) failed: tools/cli_diff 1.0.0 1.1.0 exited 69", err)
        self.assertIn("cli_upgrade: to go on: fix what it says and run tools/cli_upgrade 1.1.0 again", err)
        self.assertEqual(self.steps(), ["pin", "cli_diff"])
        self.assertEqual(self.version_file(), VERSION_FILE)
        self.assertEqual(self.folders(), [])

    def test_a_failing_recorder_stops_and_a_second_run_goes_on_from_the_recordings(self):
        status, _, err = self.upgrade("1.1.0", DIFFERENTIAL=1)
        self.assertEqual(status, 1)
        self.assertIn("cli_upgrade: step 4 (record) failed: tools/fixtures/record_differential.sh "
                      "(fixtures/azmcp-1.1.0-differential removed)\n", err)
        self.assertIn("cli_upgrade: to go on: the current version is 1.1.0 now: fix the cause and "
                      "run tools/cli_upgrade 1.1.0 again (it goes on from step 4), or go back with "
                      "tools/cli_upgrade 1.0.0.\n", err)
        self.assertEqual(self.steps(), ["pin", "cli_diff", "record_local", "record_differential"])
        self.assertEqual(self.folders(), ["azmcp-1.1.0-local"])
        os.remove(self.log)
        status, _, err = self.upgrade("1.1.0")
        self.assertEqual(status, 0, err)
        self.assertIn("1.1.0 is the current version already (previous 1.0.0)", err)
        self.assertEqual(self.steps(), ["record_differential", "record_dry_run", "bazel"])
        self.assertEqual(self.folders(), ["azmcp-1.1.0-differential", "azmcp-1.1.0-dry-run",
                                          "azmcp-1.1.0-local"])
        self.assertEqual(self.version_file(),
                         VERSION_FILE.replace("1.0.0", "1.1.0").replace("0.9.0", "1.0.0"))

    def test_a_failing_gate_is_named(self):
        status, _, err = self.upgrade("1.1.0", GATE=3)
        self.assertEqual(status, 1)
        self.assertIn("cli_upgrade: step 5 (gate) failed: the gate exited 3 (", err)
        self.assertIn("cli_upgrade: to go on: the current version is 1.1.0 now", err)


if __name__ == "__main__":
    unittest.main()
