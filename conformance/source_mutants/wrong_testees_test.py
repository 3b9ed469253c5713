#!/usr/bin/env python3
"""The gate must reject every wrong testee (the reference testee with one mutant applied).

usage: wrong_testees_test.py GATE MUTANTS_JSON WRONG_TESTEE...

For each wrong testee (bazel-bin/.../wrong_testee_<id with _>), runs
`GATE --suite kind --testee T --json R` and requires the gate to exit nonzero and R to hold a
failed record whose id is one of the mutant's caught_by. Sharded the way Bazel asks.
"""
import json
import os
import subprocess
import sys
import tempfile

GATE_DEADLINE_SECONDS = 240


def mutant_of(path, mutants):
    name = os.path.basename(path)[len("wrong_testee_"):]
    for m in mutants:
        if m["id"].replace("-", "_") == name:
            return m
    return None


def judge(gate, testee, mutant, workdir):
    report = os.path.join(workdir, mutant["id"] + ".json")
    try:
        run = subprocess.run([gate, "--suite", "kind", "--testee", os.path.abspath(testee),
                              "--json", report], capture_output=True, text=True,
                             timeout=GATE_DEADLINE_SECONDS)
    except subprocess.TimeoutExpired:
        return f"the gate did not finish within {GATE_DEADLINE_SECONDS} s"
    if run.returncode == 0:
        return "the gate PASSED the wrong testee"
    try:
        with open(report, encoding="utf-8") as f:
            records = json.load(f)["records"]
    except (OSError, ValueError, KeyError) as e:
        return f"gate exit {run.returncode} but no --json report ({e}): {run.stdout[-2000:]}"
    # Only REQUIRED checks count: a mutant caught by wording alone would pass the gate.
    failed = sorted({r["id"] for r in records
                     if r["result"] == "failed" and r.get("level") == "REQUIRED"})
    expected = set(mutant["caught_by"])
    if not expected & set(failed):
        return (f"the gate failed, but not on an expected case: expected one of "
                f"{sorted(expected)}, failed {failed[:12]}")
    return ""


def main(argv):
    gate, mutants_json, testees = argv[1], argv[2], argv[3:]
    if not testees:
        print("FAIL no wrong testee given: the BUILD rule lists them")
        return 1
    shard_file = os.environ.get("TEST_SHARD_STATUS_FILE")
    if shard_file:
        open(shard_file, "a").close()
    index = int(os.environ.get("TEST_SHARD_INDEX", "0"))
    total = int(os.environ.get("TEST_TOTAL_SHARDS", "1"))
    with open(mutants_json, encoding="utf-8") as f:
        mutants = json.load(f)["mutants"]
    problems = 0
    workdir = os.environ.get("TEST_TMPDIR") or tempfile.mkdtemp()
    for i, testee in enumerate(testees):
        if i % total != index:
            continue
        mutant = mutant_of(testee, mutants)
        if mutant is None:
            print(f"FAIL {testee}: no mutant of that name in {mutants_json}")
            problems += 1
            continue
        why = judge(gate, testee, mutant, workdir)
        print(("FAIL " if why else "ok   ") + mutant["id"] + (": " + why if why else ""))
        problems += bool(why)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
