"""Gate --json reports with a known mix of results, written by the fast browser test itself.

Three suites, both levels and every result a record can have, values long enough to need
folding or wrapping, and three runs that differ (a result changed, a check absent from one
run) for the compare page. EXPECTED_* are counted by hand from the records below, so the
test's own counting is held to them too.
"""
import json

GATE_VERSION = "0.0.0.dev0"
PROFILE_VERSION = "2026-12-05.1"
SUITES = ("kind", "backend", "properties")

# A filter with no space to break at: a page must fold or wrap it, not widen.
_UNBROKEN = "armRegionName_eq_" + "westeurope_or_" * 24 + "Global"
_LONG_JSON = {"outcome": "completed", "argv": ["/usr/local/bin/azmcp", "pricing", "get",
                                               "--filter", _UNBROKEN],
              "rows": [{"skuName": "D%d v5" % i, "retailPrice": 0.1 * i} for i in range(40)]}


def _record(suite, check_id, level, result, requirements, **extra):
    record = {"suite": suite, "id": check_id, "file": "", "requirements": requirements,
              "level": level, "result": result, "expected": "completed",
              "actual": "completed" if result == "passed" else "refused/invalid_sku",
              "detail": "" if result == "passed" else "outcome differs", "seconds": 0.01}
    record.update(extra)
    return record


def run_a_records():
    return [
        _record("kind", "refuse-service-without-sku", "REQUIRED", "passed", ["ARG-001"],
                file="conformance/cases/arguments.json"),
        _record("kind", "refuse-service-without-sku/wording", "RECOMMENDED", "failed",
                ["ARG-001", "PROFILE-003"], file="conformance/cases/arguments.json",
                expected="the reference's wording: " + "Provide a sku. " * 30,
                actual="Azure pricing tool says: " + "a sku is needed. " * 30),
        _record("kind", "plan-sku-region-expands-to-every-billing-zone-of-the-region-family",
                "REQUIRED", "failed", ["REGION-001", "REGION-002"],
                file="conformance/cases/arguments.json", expected=_UNBROKEN,
                actual="completed with another filter",
                detail="$[0].argv[4]: expected " + _UNBROKEN,
                inputs={"calls": [{"arguments": {"sku": "Standard_D4s_v5",
                                                 "region": "westeurope"}}]},
                expected_value=[_LONG_JSON], actual_value=[dict(_LONG_JSON, argv=[])]),
        _record("kind", "select-zone-rows", "REQUIRED", "known", ["ZONE-002"],
                file="conformance/cases/zones.json"),
        _record("kind", "tool-description", "RECOMMENDED", "passed", ["HOST-018"],
                file="conformance/cases/tool.json"),
        _record("backend", "egress.post_refused", "REQUIRED", "passed", ["HOST-008"]),
        _record("backend", "egress.verification_on", "REQUIRED", "skipped", ["HOST-014"],
                detail="the probe could not start: " + "x" * 200),
        _record("backend", "egress.docker_proxy", "REQUIRED", "not_applicable", ["HOST-012"]),
        _record("properties", "prop-valid-arguments-run-the-fixed-argv", "REQUIRED", "passed",
                ["INTRO-005"]),
        _record("properties", "prop-every-sandbox-disposed-faults-fail-closed", "REQUIRED",
                "failed", ["INTRO-007"], detail="counterexample (seed 1): " + "{} " * 100),
    ]


# Counted by hand from run_a_records().
EXPECTED_RESULTS = {"passed": 4, "failed": 3, "known": 1, "skipped": 1, "not_applicable": 1}
EXPECTED_LEVELS = {"REQUIRED": 8, "RECOMMENDED": 2}
# The contract's rule applied by hand: a skipped or failed REQUIRED check fails its ids, a known
# one makes them known, a failed RECOMMENDED one leaves them not met.
EXPECTED_STATUSES = {"ARG-001": "not-met", "PROFILE-003": "not-met", "REGION-001": "failed",
                     "REGION-002": "failed", "ZONE-002": "known", "HOST-018": "passed",
                     "HOST-008": "passed", "HOST-014": "failed", "HOST-012": "passed",
                     "INTRO-005": "passed", "INTRO-007": "failed"}


def run_b_records():
    """Run A with two checks passing and one more check."""
    records = [dict(r) for r in run_a_records()]
    for r in records:
        if r["id"] in ("select-zone-rows", "egress.verification_on"):
            r.update(result="passed", actual="completed", detail="")
    records.append(_record("kind", "refuse-empty-sku", "REQUIRED", "passed", ["ARG-002"]))
    return records


def run_c_records():
    """Run A without the skipped probe."""
    return [dict(r) for r in run_a_records() if r["id"] != "egress.verification_on"]


# suite/id -> results in the runs' order (A, B, C), counted by hand; 11 rows.
EXPECTED_COMPARE_DIFFERS = {"kind/select-zone-rows", "backend/egress.verification_on",
                            "kind/refuse-empty-sku"}
EXPECTED_COMPARE_ROWS = 11


def report(implementation, records):
    counts = {k: sum(1 for r in records if r["result"] == k)
              for k in ("passed", "failed", "known", "skipped", "not_applicable")}
    by_level = {level: {k: sum(1 for r in records if r["level"] == level and r["result"] == k)
                        for k in counts} for level in ("REQUIRED", "RECOMMENDED")}
    required_failed = by_level["REQUIRED"]["failed"] + by_level["REQUIRED"]["skipped"]
    verdict = "gate: FAIL" if required_failed else "gate: PASS"
    run = {"gate_version": GATE_VERSION, "date": "2026-12-05T16:30:00Z",
           "command_line": ["--suite", ",".join(SUITES), "--json", "a.json"],
           "backend": "bubblewrap 0.0.0.dev0", "suite_seconds": {s: 1.5 for s in SUITES},
           "wall_seconds": 4.5, "coverage": "requirements: sampled for the browser test",
           "verdict_lines": [verdict, "%d passed, %d failed" % (
               by_level["REQUIRED"]["passed"], required_failed)]}
    return dict({"implementation": implementation, "profile_version": PROFILE_VERSION,
                 "run": run, "records": records}, **counts, by_level=by_level)


def write(path, implementation, records):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(report(implementation, records), f, indent=1)
