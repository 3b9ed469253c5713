#!/usr/bin/env python3
"""How much of a Bazel run came from the remote cache, and which actions missed.

Reads the run's console log (Bazel's "N processes: ..." line and a --test_summary=short table)
and its --execution_log_json_file, prints the action hit ratio, the share of tests that came back
cached and every miss grouped by mnemonic and target, and exits 1 when a threshold is missed.
Used by tools/remote_cache/two_clone_check; runs on any log of the same form.
"""
import argparse
import collections
import json
import re
import sys

PROCESSES = re.compile(r"^INFO: ([\d,]+) processes?: (.*)\.$")
TEST_LINE = re.compile(r"^(//\S+)\s+(\(cached\) )?(PASSED|FAILED|FLAKY|TIMEOUT|NO STATUS)\b")


def count(text):
    return int(text.replace(",", ""))


def read_processes(log_lines):
    """Total processes and how many each strategy ran, from Bazel's last summary line."""
    for line in reversed(log_lines):
        m = PROCESSES.match(line)
        if not m:
            continue
        kinds = {}
        for part in m.group(2).split(", "):
            number, _, kind = part.partition(" ")
            kinds[kind] = count(number)
        return count(m.group(1)), kinds
    return None, {}


def read_tests(log_lines):
    tests = {}
    for line in log_lines:
        m = TEST_LINE.match(line)
        if m:
            tests[m.group(1)] = (m.group(2) is not None, m.group(3))
    return tests


def read_exec_log(path):
    """Bazel 4 writes the JSON execution log as a stream of objects, not an array."""
    text = open(path, encoding="utf-8").read()
    decoder = json.JSONDecoder()
    spawns, pos = [], 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return spawns
        spawn, pos = decoder.raw_decode(text, pos)
        spawns.append(spawn)


def percent(part, whole):
    return 100.0 * part / whole if whole else 0.0


def label_of(spawn):
    """Bazel 4's log names no target; its progress message does ("Testing //a:b (shard 1 of 2)")."""
    label = spawn.get("targetLabel")
    if label:
        return label
    words = spawn.get("progressMessage", "").split()
    return next((w for w in words if w.startswith("//") or w.startswith("@")), "?")


def why_missed(spawn):
    args = spawn.get("commandArgs", [])
    if args and args[0].endswith("/generate-xml.sh"):
        # Bazel 4 writes test.xml for a test that wrote none with a second spawn whose arguments
        # hold the test's duration, 0 when the result came from a cache: it can never hit.
        return "test.xml written again for a cached test (Bazel's own; milliseconds)"
    if not (spawn.get("remoteCacheable", True) and spawn.get("cacheable", True)):
        return "not cacheable (its tags say why)"
    return "cacheable, missed"


def print_misses(spawns):
    misses = [s for s in spawns if not s.get("remoteCacheHit", False)]
    by_kind = collections.defaultdict(list)
    for s in misses:
        by_kind[(why_missed(s), s.get("mnemonic", "?"))].append(label_of(s))
    if not misses:
        print("no action missed the cache")
        return
    print(f"{len(misses)} actions ran instead of coming from the cache:")
    for (reason, mnemonic), labels in sorted(by_kind.items()):
        print(f"  {mnemonic}, {reason}: {len(labels)}")
        for label in sorted(set(labels)):
            print(f"    {label}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", required=True)
    parser.add_argument("--exec-log", required=True)
    parser.add_argument("--min-action-hits", type=float, default=95.0)
    parser.add_argument("--min-tests-cached", type=float, default=90.0)
    args = parser.parse_args()

    lines = open(args.log, encoding="utf-8", errors="replace").read().splitlines()
    total, kinds = read_processes(lines)
    if total is None:
        print(f"{args.log} has no 'N processes:' line; did the run finish?", file=sys.stderr)
        return 2
    actions = total - kinds.get("internal", 0)
    hits = kinds.get("remote cache hit", 0)
    tests = read_tests(lines)
    cached = sum(1 for is_cached, _ in tests.values() if is_cached)
    print_misses(read_exec_log(args.exec_log))
    action_share, test_share = percent(hits, actions), percent(cached, len(tests))
    print(f"actions: {hits} of {actions} from the cache ({action_share:.1f}%; "
          f"floor {args.min_action_hits:g}%); {kinds.get('internal', 0)} internal not counted")
    print(f"tests: {cached} of {len(tests)} cached ({test_share:.1f}%; "
          f"floor {args.min_tests_cached:g}%)")
    met = action_share >= args.min_action_hits and test_share >= args.min_tests_cached
    print("verdict: " + ("met" if met else "missed"))
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
