#!/usr/bin/env bash
# live_check and record as an operator meets them: without an opt-in nothing runs and the exit
# status says so; a wrong opt-in is a usage error; the dry run (the fake price API, real
# sandboxes, the CLI the BUILD rule passes) passes every check and writes its JSON report and a
# recording. The live mode itself is never run here.
# CITES("HOST-004", "HOST-005")
set -uo pipefail
live_check="$1"
record="$2"
dry_run="$3"  # the whole dry run, recorded once per build: //tools:live_check_dry_run.argv
unset AZURE_PRICING_LIVE_CHECK
source tools/testing/check.sh
out="${TEST_TMPDIR:-/tmp}"

tool="${live_check}"
check "not opted in" 2 "not opted in, so nothing ran and no network was touched" --
check "not opted in: says how" 2 "tools/bazel run //tools:live_check -- --live prices.azure.com" --
check "another host" 64 "--live must name the real host: --live prices.azure.com" -- --live example.com
check "both modes" 64 "give --live or --dry-run, not both" -- --live prices.azure.com --dry-run
AZURE_PRICING_LIVE_CHECK=yes check "variable not naming the host" 64 "AZURE_PRICING_LIVE_CHECK must be prices.azure.com" --
check "bad number" 64 "--pause-ms and --max-requests take a whole number" -- --dry-run --pause-ms x
check "unknown check" 64 "--only names a check the list lacks" -- --dry-run --only no-such-check
check "json into a directory, refused before any query" 64 "live_check: --json ${out}: it is a directory, not a file" -- --dry-run --json "${out}"
check "json where no directory is" 64 "live_check: --json ${out}/no/such/report.json: the directory it would go in does not exist" -- --dry-run --json "${out}/no/such/report.json"
check "record over an existing directory, refused before any query" 64 "live_check: --record ${out}: it exists already" -- --dry-run --record "${out}"
check "record into an empty path" 64 "live_check: --record : the path is empty" -- --dry-run --record ''
check "record where no directory can be" 64 "live_check: --record /proc/no-such/rec: the directory it would go in does not exist" -- \
  --dry-run --record /proc/no-such/rec
check "a request cap of 0 judges nothing" 64 "live_check: --max-requests is at least 1" -- --dry-run --max-requests 0
check "help" 0 "Exit: 0 every check passed, 1 a check failed, 2 not opted in" -- --help
check_record "dry run" 0 "14 checks: 14 passed, 0 failed, 0 skipped; 18 upstream requests, at most 1 in flight" \
  "${dry_run}"
report="${dry_run%.argv}.json"
if ! grep -q '"mode": "dry-run"' "${report}" || ! grep -q '"cli_version": "' "${report}"; then
  echo "FAIL json report: ${report} lacks its mode or CLI version"
  failures=$((failures + 1))
fi
if ! grep -q '"expectation_unverified": "no recorded real response holds an Azure DNS row' "${report}"; then
  echo "FAIL json report: ${report} does not mark dns's expectation unverified"
  failures=$((failures + 1))
fi
check "dry run: unverified marks" 0 "UNVERIFIED unknown-filter-field: expectation unverified until recorded: " -- \
  --dry-run --only unknown-filter-field,front-door-standard-premium
check "dry run: Front Door Standard/Premium zones" 0 "front-door-standard-premium  completed" -- \
  --dry-run --only front-door-standard-premium
check "request cap" 0 "skipped (the run's request cap)" -- --dry-run --only dns,cdn --max-requests 8

tool="${record}"
rm -rf "${out}/recording"
check "record: not opted in" 2 "not opted in" -- --out "${out}/recording"
check "record: needs --out" 64 "--out DIR is required" -- --dry-run
check "record: empty --out" 64 "record: --out : the path is empty" -- --dry-run --out ''
check "record: dry run" 0 "recorded 2 queries into ${out}/recording" -- --dry-run --only dns,unknown-filter-field --out "${out}/recording"
check "record: never over a recording" 64 "--out ${out}/recording: it exists already; a recording is written whole" -- --dry-run --only dns --out "${out}/recording"
grep -q '"passed": true' "${out}/recording/recording.json" ||
  { echo "FAIL record: recording.json does not say which queries passed"; failures=$((failures + 1)); }
for f in PROVENANCE.md recording.json cli/dns.json upstream/dns-1.body upstream/unknown-filter-field-1.body; do
  [[ -s "${out}/recording/${f}" ]] || { echo "FAIL record: ${f} missing"; failures=$((failures + 1)); }
done
finish
