#!/usr/bin/env bash
# The report pages' command: a run, several side by side, and every bad input as one line with
# its exit status, leaving no page half-written.
set -uo pipefail
tool="$1"
source tools/testing/check.sh
dir="${TEST_TMPDIR:-$(mktemp -d)}"

# Reports as `gate --json` writes them (record.h, WriteJsonReport), each with the members a
# reader needs.
report() {  # report FILE IMPLEMENTATION SUITE RESULT
  cat >"$1" <<JSON
{"implementation": "$2", "profile_version": "2026-12-05.1",
 "run": {"gate_version": "0.0.0.dev0", "date": "2026-12-05T10:00:00Z", "command_line": ["--suite", "$3"],
         "backend": "", "suite_seconds": {"$3": 1.0}, "wall_seconds": 1.0, "coverage": "",
         "verdict_lines": ["gate: PASS", "1 passed, 0 failed"]},
 "records": [{"suite": "$3", "id": "refuse-service-without-sku", "file": "", "requirements": ["ARG-004"],
              "level": "REQUIRED", "result": "$4", "expected": "refused/service_without_sku",
              "actual": "completed", "detail": "", "seconds": 0.1}]}
JSON
}
report "${dir}/a.json" reference kind passed
report "${dir}/b.json" port kind failed
report "${dir}/c.json" other backend passed
printf '{"records": [' >"${dir}/cut.json"
printf 'not json at all\n' >"${dir}/text.json"

check "one run" 0 "wrote ${dir}/a.html (reference)" -- "${dir}/a.json" -o "${dir}/a.html"
grep -q 'id="kind/refuse-service-without-sku"' "${dir}/a.html" || { echo "FAIL one run: no anchor"; failures=$((failures + 1)); }
check "side by side" 0 "wrote ${dir}/ab.html (2 runs side by side)" -- --compare "${dir}/a.json" "${dir}/b.json" -o "${dir}/ab.html"
grep -q 'data-differs="true"' "${dir}/ab.html" || { echo "FAIL side by side: no differing row"; failures=$((failures + 1)); }
check "help" 0 "usage: gate_report RUN.json -o PAGE.html" -- --help

check "usage: no output" 64 "gate_report: -o PAGE.html is required" -- "${dir}/a.json"
check "usage: no report" 64 "gate_report: no --json report given" -- -o "${dir}/x.html"
check "usage: two runs without --compare" 64 "gate_report: several reports need --compare" -- "${dir}/a.json" "${dir}/b.json" -o "${dir}/x.html"
check "usage: --compare with one run" 64 "gate_report: --compare needs at least two reports" -- --compare "${dir}/a.json" -o "${dir}/x.html"
check "usage: unknown option" 64 "gate_report: unknown option --bogus" -- --bogus
check "usage: -o without its value" 64 "gate_report: -o needs a value" -- "${dir}/a.json" -o
check "a missing report" 64 "gate_report: report ${dir}/none.json" -- "${dir}/none.json" -o "${dir}/x.html"
check "an unwritable page" 64 "gate_report: -o /nonexistent-dir/x.html" -- "${dir}/a.json" -o /nonexistent-dir/x.html
check "a report cut short" 1 "gate_report: ${dir}/cut.json: not a report the gate wrote with --json" -- "${dir}/cut.json" -o "${dir}/x.html"
check "a file that is not JSON" 1 "gate_report: ${dir}/text.json: not a report the gate wrote with --json" -- --compare "${dir}/a.json" "${dir}/text.json" -o "${dir}/x.html"
check "runs of different suites" 1 "gate_report: runs of different suites cannot be compared: ${dir}/a.json ran kind; ${dir}/c.json ran backend" -- --compare "${dir}/a.json" "${dir}/c.json" -o "${dir}/x.html"
if [[ -e "${dir}/x.html" ]]; then
  echo "FAIL no failed command leaves a page behind"
  failures=$((failures + 1))
fi

# A page that exists is replaced whole or left as it was.
printf 'before\n' >"${dir}/kept.html"
check "a failure leaves an existing page as it was" 1 "not a report" -- "${dir}/cut.json" -o "${dir}/kept.html"
[[ "$(cat "${dir}/kept.html")" == before ]] || { echo "FAIL the existing page changed"; failures=$((failures + 1)); }
finish
