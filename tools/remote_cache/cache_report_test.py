"""cache_report.py on logs of the form Bazel 4 writes: the ratios, the misses, the verdict."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cache_report.py")

LOG = """\
INFO: Analyzed 3 targets (12 packages loaded, 300 targets configured).
//a:one_test                                                    (cached) PASSED in 0.4s
//a:two_test                                                    (cached) PASSED in 1.2s
//b:host_test                                                            PASSED in 9.1s
Executed 1 out of 3 tests: 3 tests pass.
INFO: 120 processes: 97 remote cache hit, 20 internal, 3 linux-sandbox.
INFO: Build completed successfully, 120 total actions
"""


def spawn(mnemonic, label, hit, cacheable=True, args=("x",)):
    # Bazel 4 leaves targetLabel out; the label is in the progress message.
    return {"mnemonic": mnemonic, "progressMessage": f"Testing {label} (shard 1 of 2)",
            "remoteCacheHit": hit, "remoteCacheable": cacheable, "cacheable": True,
            "commandArgs": list(args)}


class CacheReportTest(unittest.TestCase):
    def run_report(self, log, spawns, *flags):
        with tempfile.TemporaryDirectory() as d:
            log_path, exec_path = os.path.join(d, "run.log"), os.path.join(d, "exec.json")
            with open(log_path, "w") as f:
                f.write(log)
            with open(exec_path, "w") as f:  # a stream of objects, as Bazel 4 writes it
                f.write("\n".join(json.dumps(s, indent=2) for s in spawns))
            return subprocess.run([sys.executable, SCRIPT, "--log", log_path,
                                   "--exec-log", exec_path, *flags],
                                  capture_output=True, text=True, timeout=60)

    def test_ratios_exclude_internal_actions(self):
        spawns = [spawn("CppCompile", "//a:one", True)] * 97 + [
            spawn("CppCompile", "//b:lib", False), spawn("CppLink", "//b:host_test", False),
            spawn("TestRunner", "//b:host_test", False, cacheable=False)]
        result = self.run_report(LOG, spawns)
        self.assertIn("actions: 97 of 100 from the cache (97.0%; floor 95%)", result.stdout)
        self.assertIn("tests: 2 of 3 cached (66.7%; floor 90%)", result.stdout)
        self.assertIn("verdict: missed", result.stdout)
        self.assertEqual(result.returncode, 1)

    def test_misses_are_named_and_told_apart(self):
        spawns = [spawn("CppCompile", "//b:lib", False),
                  spawn("TestRunner", "//b:host_test", False, cacheable=False),
                  spawn("TestRunner", "//a:one_test", False,
                        args=("external/bazel_tools/tools/test/generate-xml.sh", "t.log"))]
        out = self.run_report(LOG, spawns).stdout
        self.assertIn("3 actions ran instead of coming from the cache:", out)
        self.assertIn("CppCompile, cacheable, missed: 1\n    //b:lib", out)
        self.assertIn("TestRunner, not cacheable (its tags say why): 1\n    //b:host_test", out)
        self.assertIn("TestRunner, test.xml written again for a cached test (Bazel's own; "
                      "milliseconds): 1\n    //a:one_test", out)

    def test_met_when_both_floors_are_met(self):
        result = self.run_report(LOG, [], "--min-tests-cached", "60")
        self.assertIn("no action missed the cache", result.stdout)
        self.assertIn("verdict: met", result.stdout)
        self.assertEqual(result.returncode, 0)

    def test_an_unfinished_run_is_an_error(self):
        result = self.run_report("INFO: Analyzed 3 targets\n", [])
        self.assertEqual(result.returncode, 2)
        self.assertIn("no 'N processes:' line", result.stderr)


if __name__ == "__main__":
    unittest.main()
