"""tools/flake_hunt/hunt: its reading of Bazel's build events, the table and the exit status,
on events of the form Bazel 4 writes, and its hogs stopping with it."""
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
loader = importlib.machinery.SourceFileLoader("hunt", os.path.join(HERE, "hunt"))
spec = importlib.util.spec_from_loader("hunt", loader)
hunt = importlib.util.module_from_spec(spec)
loader.exec_module(hunt)


def result(label, run, status, shard=1, attempt=1, log="/tmp/x/test.log"):
    return json.dumps({
        "id": {"testResult": {"label": label, "run": run, "shard": shard, "attempt": attempt,
                              "configuration": {"id": "abc"}}},
        "testResult": {"status": status, "testAttemptDurationMillis": "12",
                       "testActionOutput": [{"name": "test.log", "uri": "file://" + log},
                                            {"name": "test.xml", "uri": "file:///tmp/x.xml"}]}})


OTHER_EVENTS = [
    json.dumps({"id": {"started": {}}, "started": {"uuid": "u"}}),
    json.dumps({"id": {"testSummary": {"label": "//a:one_test"}},
                "testSummary": {"overallStatus": "FLAKY", "totalRunCount": 3}}),
    "",
]


class ReadResultsTest(unittest.TestCase):
    def test_a_run_passes_only_when_every_shard_passed(self):
        lines = OTHER_EVENTS + [
            result("//a:one_test", 1, "PASSED"),
            result("//a:one_test", 2, "FAILED", log="/logs/run_2/test.log"),
            result("//a:one_test", 3, "PASSED"),
            result("//b:sharded_test", 1, "PASSED", shard=1),
            result("//b:sharded_test", 1, "PASSED", shard=2),
            result("//b:sharded_test", 2, "PASSED", shard=1),
            result("//b:sharded_test", 2, "TIMEOUT", shard=2, log="/logs/s2/test.log"),
        ]
        runs, logs = hunt.read_results(lines)
        rows = hunt.tally(["//a:one_test", "//b:sharded_test", "//c:never_ran_test"], runs, 3)
        self.assertEqual(rows, [("//a:one_test", 2, 3), ("//b:sharded_test", 1, 3),
                                ("//c:never_ran_test", 0, 3)])
        self.assertEqual(logs["//a:one_test"], {2: "/logs/run_2/test.log"})
        self.assertEqual(logs["//b:sharded_test"], {2: "/logs/s2/test.log"})

    def test_the_last_attempt_of_a_run_is_its_result(self):
        runs, _ = hunt.read_results([result("//a:t", 1, "PASSED", attempt=2),
                                     result("//a:t", 1, "FAILED", attempt=1)])
        self.assertEqual(hunt.tally(["//a:t"], runs, 1), [("//a:t", 1, 1)])


class TableTest(unittest.TestCase):
    def test_failures_come_first_and_name_their_logs(self):
        rows = hunt.tally(["//a:good_test", "//a:bad_test"],
                          {"//a:good_test": {1: {1: (1, "PASSED")}, 2: {1: (1, "PASSED")}},
                           "//a:bad_test": {1: {1: (1, "PASSED")}, 2: {1: (1, "FAILED")}}}, 2)
        table = hunt.format_table(rows, {"//a:bad_test": {2: "/l/test.log"}}, 2, 2)
        self.assertEqual(table.splitlines(), [
            "flake hunt: 2 test targets, 2 runs each, 2 CPU hogs",
            "target         passed",
            "//a:bad_test   1/2   <- FLAKY",
            "    run 2: /l/test.log",
            "//a:good_test  2/2",
            "1 of 2 targets did not pass every run",
        ])

    def test_all_passing_says_so(self):
        rows = hunt.tally(["//a:t"], {"//a:t": {1: {1: (1, "PASSED")}}}, 1)
        self.assertEqual(hunt.format_table(rows, {}, 1, 0).splitlines()[-1],
                         "every target passed 1 of 1")


class ArgumentsTest(unittest.TestCase):
    def test_bad_counts_are_refused_with_usage(self):
        done = subprocess.run([sys.executable, os.path.join(HERE, "hunt"), "--runs", "0"],
                              capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 2)
        self.assertIn("--runs must be at least 1", done.stderr)

    def test_defaults(self):
        args = hunt.parse_args([])
        self.assertEqual((args.runs, args.patterns), (20, ["//..."]))
        self.assertGreaterEqual(args.hogs, 1)


class HogsTest(unittest.TestCase):
    def test_hogs_run_until_stopped_and_leave_nothing(self):
        hogs = hunt.start_hogs(2, 0.01)  # 36 s at most, should stop_hogs fail
        try:
            for hog in hogs:
                self.assertIsNone(hog.poll())
        finally:
            hunt.stop_hogs(hogs)
        for hog in hogs:
            self.assertIsNotNone(hog.returncode)  # reaped
            self.assertFalse(os.path.exists(f"/proc/{hog.pid}"))

    def test_a_hog_ends_by_itself_at_its_deadline(self):
        hog = hunt.start_hogs(1, 0.5 / 3600)[0]  # half a second
        try:
            self.assertEqual(hog.wait(timeout=30), 0)
        finally:
            hunt.stop_hogs([hog])


if __name__ == "__main__":
    unittest.main()
