#!/usr/bin/env python3
"""tools/cli_diff on the previous and the current version (tools/image/azmcp-version), both
declared inputs (@azmcp_previous, @azmcp): every scenario, dry-run check and help text is in the
report once, same or different, and the exit status and the JSON say the same. Sharded as Bazel
shards it (cli_diff --shard): each shard compares its share of the scenarios, the last one the
dry run and the help texts too, so the shards cover the whole comparison once."""
import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def versions():
    found = {}
    with open(os.path.join(os.path.dirname(HERE), "image", "azmcp-version")) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if not line.startswith("#") and len(fields) == 2:
                found[fields[0]] = fields[1]
    return found["previous"], found["current"]


class PinnedPair(unittest.TestCase):
    def test_the_report_covers_everything_once(self):
        old, new = versions()
        index = int(os.environ.get("TEST_SHARD_INDEX", "0"))
        count = int(os.environ.get("TEST_TOTAL_SHARDS", "1"))
        if "TEST_SHARD_STATUS_FILE" in os.environ:  # this test knows how to shard
            open(os.environ["TEST_SHARD_STATUS_FILE"], "w").close()
        last = index == count - 1
        out_json = os.path.join(os.environ["TEST_TMPDIR"], "report.json")
        done = subprocess.run(
            [sys.executable, os.path.join(HERE, "cli_diff.py"), old, new, "--json", out_json,
             "--old-azmcp", os.path.abspath(os.environ["OLD_AZMCP"]),
             "--new-azmcp", os.path.abspath(os.environ["NEW_AZMCP"]),
             "--run-scenarios", os.path.join(HERE, "run_scenarios"),
             "--live-check", os.path.join(os.path.dirname(HERE), "live_check"),
             "--shard", "%d/%d" % (index, count)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=3000)
        out = done.stdout.decode()
        self.assertIn(done.returncode, (0, 1), done.stderr.decode())
        report = json.load(open(out_json))
        scenarios = json.load(open(os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                                "fakes", "azmcp", "scenarios.json")))["scenarios"]
        mine = scenarios[index::count]
        self.assertEqual(sorted(i["name"] for i in report["differential"]),
                         sorted(s["name"] for s in mine))
        self.assertEqual(len(report["dry_run"]), 14 if last else 0)
        self.assertEqual(sorted(i["name"] for i in report["help"]),
                         ["azmcp --help", "azmcp pricing get --help"] if last else [])
        differ = any(i["differences"] for k in ("differential", "dry_run", "help") for i in report[k])
        self.assertEqual(done.returncode, 1 if differ else 0)
        self.assertEqual(report["verdict"], "differ" if differ else "alike")
        self.assertIn("differential scenarios (%d): " % len(mine), out)
        self.assertIn("live check dry run (%d): " % (14 if last else 0), out)
        # What is known of the pair (the rehearsal in docs/live-check.md): the scenarios and the
        # dry run alike; the help texts differ only in the top-level help's command list.
        self.assertEqual([i["name"] for k in ("differential", "dry_run") for i in report[k]
                          if i["differences"]], [], out)


if __name__ == "__main__":
    unittest.main()
