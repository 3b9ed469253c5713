#!/usr/bin/env python3
"""The gate must pass the variant testee on every REQUIRED check, and must see that it differs.

usage: variant_testee_test.py GATE VARIANT_PY REFERENCE_TESTEE

Runs `GATE --suite kind,properties --testee "python3 VARIANT_PY REFERENCE_TESTEE" --json R` and
requires: the smoke check passed and the cases ran against the reference's implementation; the
gate exited 0 with "gate: PASS"; every REQUIRED record passed (a record's `level`, or, from a
gate that predates levels, its `required`); and at least one RECOMMENDED record (the checks of
the reference's exact wording and layout) failed, so the rewriter really changed something the
gate can see. Prints the failed records grouped by the check that failed.
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

GATE_DEADLINE_SECONDS = 600
IMPLEMENTATION = "maf-sandbox-azure-pricing"


def level(record):
    if "level" in record:
        return str(record["level"]).upper()
    return "REQUIRED" if record.get("required", True) else "RECOMMENDED"


def cause(record):
    """What a failed record's detail complains about: its checks' names, e.g. `argv`."""
    names = set()
    for part in str(record.get("detail", "")).split("; "):
        m = re.match(r"\s*([A-Za-z_ ]+?\d*)\s*[:(\[]", part)
        if m:
            names.add(m.group(1).strip())
    return ", ".join(sorted(names)) or "(no detail)"


def summarize(failed):
    groups = collections.defaultdict(list)
    for r in failed:
        groups[(level(r), cause(r))].append(r["suite"] + "/" + r["id"])
    for (lvl, why), ids in sorted(groups.items(), key=lambda g: (g[0][0], -len(g[1]))):
        print(f"  {lvl:<11} {len(ids):>3}  {why}: {' '.join(sorted(ids))}")


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    gate, variant, reference = (os.path.abspath(p) for p in argv[1:])
    workdir = os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR") or os.environ.get("TEST_TMPDIR") \
        or tempfile.mkdtemp()
    report = os.path.join(workdir, "variant_gate.json")
    testee = f"python3 {variant} {reference}"
    try:
        run = subprocess.run([gate, "--suite", "kind,properties", "--testee", testee,
                              "--json", report], capture_output=True, text=True,
                             timeout=GATE_DEADLINE_SECONDS)
    except subprocess.TimeoutExpired:
        print(f"FAIL: the gate did not finish within {GATE_DEADLINE_SECONDS} s")
        return 1
    print(run.stdout)
    print(run.stderr, file=sys.stderr)
    try:
        with open(report, encoding="utf-8") as f:
            records = json.load(f)["records"]
    except (OSError, ValueError, KeyError) as e:
        print(f"FAIL: gate exit {run.returncode} and no --json report ({e})")
        return 1

    problems = []
    if not re.search(r"^implementation: " + re.escape(IMPLEMENTATION), run.stdout, re.M):
        problems.append("the gate did not judge the reference behind the variant "
                        "(no implementation line naming " + IMPLEMENTATION + ")")
    adapter = [r for r in records if r["suite"] == "gate" and r["id"] == "testee-adapter"]
    if any(r["result"] != "passed" for r in adapter):
        problems.append("the smoke check failed: the relay is broken")
    kind = [r for r in records if r["suite"] == "kind"]
    if len(kind) < 100:
        problems.append(f"only {len(kind)} kind records: the cases did not run")
    failed = [r for r in records if r["result"] not in ("passed", "known")]
    required_failed = [r for r in failed if level(r) == "REQUIRED"]
    recommended_failed = [r for r in failed if level(r) == "RECOMMENDED"]
    if required_failed:
        problems.append(f"{len(required_failed)} REQUIRED records did not pass")
    if run.returncode != 0 or "gate: PASS" not in run.stdout:
        problems.append(f"the gate did not pass the variant (exit {run.returncode})")
    if not recommended_failed:
        problems.append("no RECOMMENDED record failed: the gate saw no difference from the "
                        "reference, so the rewriter changed nothing it judges")

    print(f"records: {len(records)}; failed: {len(required_failed)} REQUIRED, "
          f"{len(recommended_failed)} RECOMMENDED")
    summarize(failed)
    for p in problems:
        print("FAIL: " + p)
    if not problems:
        print("PASS")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
