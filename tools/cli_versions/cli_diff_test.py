#!/usr/bin/env python3
"""cli_diff's bad inputs and its report, on folders written here: no CLI is fetched or run."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cli_diff.py")


def cli_diff(*args):
    done = subprocess.run([sys.executable, SCRIPT, *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=120)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def collected(root, version, variant):
    """A folder as cli_diff collects one: variant 'b' changes one thing of each kind."""
    d = os.path.join(root, version)
    write(os.path.join(d, "version"), version + "\n")
    diff = os.path.join(d, "differential")
    for slug, name in (("sku", "sku"), ("parse-bogus", "parse: bogus")):
        changed = variant == "b" and slug == "parse-bogus"
        write(os.path.join(diff, slug + ".json"), json.dumps(
            {"name": name, "exit_code": 1 if changed else 0,
             "requests": ["GET /api/retail/prices?$filter=armSkuName%20eq%20%27S%27"]}))
        write(os.path.join(diff, slug + ".stdout"),
              '{"status": %d, "version": "%s+0123456789abcdef"}\n' % (400 if changed else 200, version))
        write(os.path.join(diff, slug + ".stderr"), "")
    run = os.path.join(d, "dry-run")
    queries = []
    for check in ("vm", "cdn"):
        changed = variant == "b" and check == "cdn"
        write(os.path.join(run, "cli", check + ".json"), '{"results": [%d]}\n' % (2 if changed else 1))
        write(os.path.join(run, "upstream", check + "-1.body"), "{}")
        queries.append({"id": check, "argv": ["azmcp", "pricing", "get"], "exit_code": 0,
                        "cli_stdout": "cli/%s.json" % check, "cli_stderr": "",
                        "upstream": [{"target": "/api?x=1", "status": 200,
                                      "body": "upstream/%s-1.body" % check}]})
    write(os.path.join(run, "recording.json"), json.dumps({"queries": queries}))
    help_texts = {"azmcp --help": {"exit_code": 0, "stderr": "",
                                   "stdout": "Azure.Mcp.Server %s\n  %s\n" % (
                                       version, "resiliency" if variant == "b" else "resilience")},
                  "azmcp pricing get --help": {"exit_code": 0, "stderr": "",
                                               "stdout": "Usage: pricing get [options]\n"}}
    write(os.path.join(d, "help", "help.json"), json.dumps(help_texts))
    return d


class BadInput(unittest.TestCase):
    def check(self, args, message):
        status, out, err = cli_diff(*args)
        self.assertEqual((status, out), (64, ""))
        self.assertEqual(err, "cli_diff: %s\n" % message)

    def test_each_is_one_line_and_64(self):
        self.check([], "usage: tools/cli_diff OLD NEW [--pin] [--json FILE] [--keep DIR]")
        self.check(["8.8.8"], "usage: tools/cli_diff OLD NEW [--pin] [--json FILE] [--keep DIR]")
        self.check(["8.8.8", "latest"], "not a version: latest")
        self.check(["8.8.8", "8.8.8"], "OLD and NEW are the same version: 8.8.8")
        self.check(["8.8.8", "9.9.9"], "8.8.8 is not pinned in tools/image/azmcp-pins.tsv: "
                                       "tools/image/pin 8.8.8 (or --pin for NEW)")
        self.check(["--bogus"], "unknown or incomplete argument: --bogus")
        self.check(["--compare", "/nonexistent/a", "/nonexistent/b"], "not a folder: /nonexistent/a")
        for shard in ("2/2", "1", "a/b", "0/0"):
            self.check(["8.8.8", "9.9.9", "--shard", shard],
                       "--shard takes INDEX/COUNT, INDEX < COUNT: %s" % shard)
        self.check(["--compare", "/tmp", "/tmp", "--shard", "0/2"],
                   "--compare takes two folders and no versions, --pin, --keep or --shard")


class Report(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))

    def test_alike_when_only_the_version_strings_differ(self):
        a = collected(self.root, "1.0.0-beta.1", "a")
        b = collected(self.root, "1.0.0-beta.2", "a")
        status, out, _ = cli_diff("--compare", a, b)
        self.assertEqual(status, 0, out)
        self.assertEqual(out.splitlines()[-1], "verdict: the versions behave alike in all 6 comparisons")

    def test_differences_are_named_with_their_diffs_and_exit_1(self):
        a = collected(self.root, "1.0.0-beta.1", "a")
        b = collected(self.root, "1.0.0-beta.2", "b")
        json_file = os.path.join(self.root, "report.json")
        status, out, _ = cli_diff("--compare", a, b, "--json", json_file)
        self.assertEqual(status, 1)
        lines = out.splitlines()
        self.assertEqual(lines[0], "cli_diff: @azure/mcp-linux-x64 1.0.0-beta.1 -> 1.0.0-beta.2 "
                                   "(both versions read <version>, loopback ports PORT)")
        for line in ("differential scenarios (2): 1 same, 1 different",
                     "  different  parse: bogus", "  same       sku",
                     "      exit code:", "        -0", "        +1",
                     "      envelope (stdout):",
                     '        -{"status": 200, "version": "<version>"}',
                     '        +{"status": 400, "version": "<version>"}',
                     "live check dry run (2): 1 same, 1 different", "  different  cdn",
                     "help texts (2): 1 same, 1 different", "  different  azmcp --help",
                     "        -  resilience", "        +  resiliency",
                     "verdict: the versions differ: 3 of 6 comparisons"):
            self.assertIn(line, lines)
        report = json.load(open(json_file))
        self.assertEqual(report["verdict"], "differ")
        self.assertEqual([i["name"] for i in report["differential"] if i["differences"]],
                         ["parse: bogus"])
        self.assertEqual([d["part"] for d in report["differential"][0]["differences"]],
                         ["exit code", "envelope (stdout)"])

    def test_the_known_change_of_4_0_0_beta_4_is_pending(self):
        expectations = json.load(open(os.path.join(os.path.dirname(SCRIPT), "expectations.json")))
        self.assertIn({"fails": True, "output_contains": ["--read-only"]},
                      [e["expect"] for e in expectations["expectations"]
                       if e["version"] == "4.0.0-beta.4" and "--read-only" in e["argv"]])


if __name__ == "__main__":
    unittest.main()
