"""transcript_check.py holds a document to a program's output and fails when the output changes.

Runs the checker as CI does, on documents written here around a small program whose output the
test controls, and its lint on documents with and without held transcripts.
"""
import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "transcript_check.py")

DOC = """# A page

<!-- transcript: hello -->
```
$ tools/bazel run //pkg:hello -- world
hello world at https://127.0.0.1:41323 in 0.3s
took 2.02 s
```
<!-- /transcript -->
"""


class TranscriptCheckTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        self.program = os.path.join(self.dir, "hello")
        self.write_program("hello $1 at https://127.0.0.1:$((RANDOM + 1024)) in 1${RANDOM:0:1}.5s\n"
                           "took 3.1 s")

    def write_program(self, lines):
        """A bash program that prints the lines ($1 and $RANDOM expanded)."""
        with open(self.program, "w") as f:
            f.write("#!/bin/bash\n" + "".join('echo "%s"\n' % line for line in lines.split("\n")))
        os.chmod(self.program, os.stat(self.program).st_mode | stat.S_IEXEC)

    def doc(self, text):
        path = os.path.join(self.dir, "page.md")
        with open(path, "w") as f:
            f.write(text)
        return path

    def run_check(self, *args):
        done = subprocess.run([sys.executable, CHECK] + list(args), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, cwd=self.dir)
        return done.returncode, done.stdout.decode()

    def test_passes_when_only_times_and_ports_differ(self):
        code, out = self.run_check("--doc", self.doc(DOC), "--bin=//pkg:hello=" + self.program)
        self.assertEqual(code, 0, out)
        self.assertIn("PASS: 1 transcripts", out)

    def test_fails_with_a_diff_when_the_output_changes(self):
        self.write_program("goodbye $1 at https://127.0.0.1:80 in 0.3s\ntook 2.02 s")
        code, out = self.run_check("--doc", self.doc(DOC), "--bin=//pkg:hello=" + self.program)
        self.assertEqual(code, 1, out)
        self.assertIn("-hello world at https://127.0.0.1:PORT in N.Ns", out)
        self.assertIn("+goodbye world at https://127.0.0.1:PORT in N.Ns", out)

    def record(self, name, args, stdout, stderr="", status=0):
        """A recorded_run's files: NAME.argv, .stdout, .stderr, .status; the .argv path."""
        stem = os.path.join(self.dir, name)
        for suffix, text in ((".argv", json.dumps(args)), (".stdout", stdout),
                             (".stderr", stderr), (".status", "%d\n" % status)):
            with open(stem + suffix, "w") as f:
                f.write(text)
        return stem + ".argv"

    def test_a_command_with_a_records_arguments_reads_the_record(self):
        # The program itself would say goodbye: only the record says hello.
        self.write_program("goodbye $1")
        other = self.record("other", ["there"], "hello there\n")
        record = self.record("run", ["world"], "hello world at https://127.0.0.1:1 in 0.1s\n",
                             stderr="took 2.5 s\n")
        code, out = self.run_check("--doc", self.doc(DOC), "--bin=//pkg:hello=" + self.program,
                                   "--replay=//pkg:hello=" + other,
                                   "--replay=//pkg:hello=" + record)
        self.assertEqual(code, 0, out)

    def test_other_arguments_run_the_program(self):
        record = self.record("run", ["world", "again"], "hello world at x in 0.3s\ntook 2.02 s\n")
        self.write_program("goodbye $1")
        code, out = self.run_check("--doc", self.doc(DOC), "--bin=//pkg:hello=" + self.program,
                                   "--replay=//pkg:hello=" + record)
        self.assertEqual(code, 1, out)
        self.assertIn("+goodbye world", out)

    def test_a_replay_keeps_the_recorded_exit_status(self):
        record = self.record("run", ["a"], "out\n", stderr="err\n", status=3)
        done = subprocess.run([sys.executable, CHECK, "--replay-shim", record, "--",
                               self.program, "a"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual((done.returncode, done.stdout, done.stderr), (3, b"out\n", b"err\n"))

    def test_a_replay_for_a_program_without_bin_is_refused(self):
        record = self.record("run", ["world"], "hello world\n")
        code, out = self.run_check("--doc", self.doc(DOC), "--replay=//pkg:hello=" + record)
        self.assertNotEqual(code, 0, out)
        self.assertIn("--replay //pkg:hello names no --bin", out)

    def test_fails_on_a_program_the_test_was_not_given(self):
        code, out = self.run_check("--doc", self.doc(DOC))
        self.assertEqual(code, 1, out)
        self.assertIn("runs `//pkg:hello`, which this test cannot run", out)

    def test_fails_on_a_document_without_transcripts(self):
        code, out = self.run_check("--doc", self.doc("# nothing here\n"))
        self.assertEqual(code, 1, out)
        self.assertIn("has no <!-- transcript: NAME --> block", out)

    def test_lint_fails_on_an_unheld_command_block(self):
        page = self.doc("# A page\n\n```\n$ ls\nfile\n```\n")
        code, out = self.run_check("--lint", page)
        self.assertEqual(code, 1, out)
        self.assertIn("a `$ COMMAND` block outside <!-- transcript: NAME --> markers", out)

    def test_lint_fails_on_a_transcript_no_test_holds(self):
        page = self.doc(DOC)
        code, out = self.run_check("--lint", page)
        self.assertEqual(code, 1, out)
        self.assertIn("has transcripts but no test holds them", out)
        code, out = self.run_check("--lint", "--held=" + page, page)
        self.assertEqual(code, 0, out)

    def test_lint_holds_the_front_door_to_its_length_and_links(self):
        os.makedirs(os.path.join(self.dir, "docs"))
        with open(os.path.join(self.dir, "docs", "a.md"), "w") as f:
            f.write("# a\n")
        with open(os.path.join(self.dir, "README.md"), "w") as f:
            f.write("line\n" * 5)
        code, out = self.run_check("--lint", "--front=README.md", "--max-front-lines=4",
                                   "README.md", "docs/a.md")
        self.assertEqual(code, 1, out)
        self.assertIn("README.md has 5 lines; the front door keeps to 4", out)
        self.assertIn("docs/a.md is not linked from README.md", out)


    def test_pinned_azmcp_versions_read_alike_and_recordings_are_the_current_ones(self):
        """Written against 1.0.0-beta.2, checked after the current version moved to beta.3."""
        with open(os.path.join(self.dir, "azmcp-version"), "w") as f:
            f.write("# the current version\ncurrent\t1.0.0-beta.3\nprevious\t1.0.0-beta.2\n")
        with open(os.path.join(self.dir, "pins.tsv"), "w") as f:
            f.write("# pins\n1.0.0-beta.2\tsha\n1.0.0-beta.3\tsha\n1.0.0-beta.4\tsha\n")
        recordings = os.path.join(self.dir, "fixtures", "azmcp-1.0.0-beta.3-local")
        os.makedirs(recordings)
        with open(os.path.join(recordings, "help.txt"), "w") as f:
            f.write("recorded by 1.0.0-beta.3\n")
        self.write_program("modelled on azmcp 1.0.0-beta.3+0123abcd, read from "
                           "fixtures/azmcp-1.0.0-beta.3-local.")
        doc = self.doc(DOC.replace(
            "hello world at https://127.0.0.1:41323 in 0.3s\ntook 2.02 s",
            "modelled on azmcp 1.0.0-beta.2, read from fixtures/azmcp-1.0.0-beta.2-local.") +
            "\n<!-- transcript: recording -->\n```\n"
            "$ cat fixtures/azmcp-1.0.0-beta.2-local/help.txt\nrecorded by 1.0.0-beta.2\n"
            "```\n<!-- /transcript -->\n")
        masks = ["--azmcp-version", os.path.join(self.dir, "azmcp-version"),
                 "--azmcp-pins", os.path.join(self.dir, "pins.tsv")]
        code, out = self.run_check("--doc", doc, "--bin=//pkg:hello=" + self.program, *masks)
        self.assertEqual(code, 0, out)
        # Without the version files the versions are compared as written.
        code, out = self.run_check("--doc", doc, "--bin=//pkg:hello=" + self.program)
        self.assertEqual(code, 1, out)
        self.assertIn("+modelled on azmcp 1.0.0-beta.3+0123abcd", out)
        # A version nothing pins is not masked, nor a longer number that contains one.
        self.write_program("modelled on azmcp 1.0.0-beta.5, read from "
                           "fixtures/azmcp-1.0.0-beta.3-local.")
        code, out = self.run_check("--doc", doc, "--bin=//pkg:hello=" + self.program, *masks)
        self.assertEqual(code, 1, out)
        self.assertIn("+modelled on azmcp 1.0.0-beta.5, read from fixtures/azmcp-<azmcp version>-local.",
                      out)

class MergeTest(unittest.TestCase):
    def setUp(self):
        sys.path.insert(0, os.path.dirname(CHECK))
        import transcript_check
        self.check = transcript_check

    def test_a_refresh_keeps_unchanged_lines_as_written(self):
        old = "x\n\n$ run\n  kind   3.3s\nAZURE_PRICING_AZMCP=/home/me/azmcp)\nold\n"
        new = "x\n$ run\n  kind  19.5s\nAZURE_PRICING_AZMCP=external/azmcp)\nnew\n"
        self.assertEqual(self.check.merged(old, new),
                         "x\n\n$ run\n  kind   3.3s\nAZURE_PRICING_AZMCP=/home/me/azmcp)\nnew\n")

    def test_masks_only_what_varies(self):
        self.assertEqual(
            self.check.masked("after 2.02 s (limit 2 s), 160451 entries walked, 9 host canaries, "
                              "localhost:8443, 0.192 USD"),
            ["after N.N s (limit 2 s), N entries walked, N host canaries, localhost:PORT, "
             "0.192 USD"])


if __name__ == "__main__":
    unittest.main()
