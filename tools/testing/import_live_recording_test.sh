#!/usr/bin/env bash
# tools/fixtures/import_live_recording.py as an operator meets it after a real run: a live
# recording is copied whole into fixtures/live-check-recorded/<date>/ and clears the unverified
# mark of exactly the checks it passed; a dry-run recording, a second import of the same run and
# an unreadable directory are refused and change nothing.
# CITES("HOST-004", "HOST-005")
set -uo pipefail
source tools/testing/check.sh
tmp="${TEST_TMPDIR:-/tmp}/import"
rm -rf "${tmp}" && mkdir -p "${tmp}/top/conformance/live" "${tmp}/top/fixtures"
cp conformance/live/checks.json "${tmp}/top/conformance/live/"
current="$(awk -F'\t' '$1 == "current" { print $2 }' tools/image/azmcp-version)"
cp -rL "fixtures/azmcp-${current}-dry-run" "${tmp}/live"
chmod -R u+w "${tmp}"
# The dry run's recording as a live run would write it, with only dns passed.
python3 - "${tmp}/live/recording.json" <<'PY'
import json, sys
index = json.load(open(sys.argv[1]))
index["mode"] = "live"
for q in index["queries"]:
    q["passed"] = q["id"] == "dns"
json.dump(index, open(sys.argv[1], "w"), indent=2)
PY
date="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["recorded_at"][:10])' "${tmp}/live/recording.json")"
tool=tools/fixtures/import_live_recording.py
checks="${tmp}/top/conformance/live/checks.json"
marks() { python3 -c 'import json,sys; print(",".join(c["id"] for c in json.load(open(sys.argv[1]))["checks"] if "unverified" in c))' "$1"; }

expect_marks() {
  local what="$1" want="$2" got
  got="$(marks "${checks}")"
  if [[ "${got}" != "${want}" ]]; then
    echo "FAIL ${what}: unverified checks ${got}, expected ${want}"; failures=$((failures + 1))
  else
    passes=$((passes + 1))
  fi
}

expect_marks "before: the list's own marks" "dns,unknown-filter-field"
check "a dry-run recording is refused" 1 "is not a recording of the real API" -- "fixtures/azmcp-${current}-dry-run" --top "${tmp}/top"
check "an unreadable directory is refused" 1 "recording.json cannot be read" -- "${tmp}/nowhere" --top "${tmp}/top"
expect_marks "refusals change nothing" "dns,unknown-filter-field"
check "a live recording is imported" 0 "cleared the unverified mark of: dns" -- "${tmp}/live" --top "${tmp}/top"
expect_marks "only the passed check is cleared" "unknown-filter-field"
if ! cmp -s "${tmp}/live/recording.json" "${tmp}/top/fixtures/live-check-recorded/${date}/recording.json" ||
   ! cmp -s "${tmp}/live/cli/dns.json" "${tmp}/top/fixtures/live-check-recorded/${date}/cli/dns.json"; then
  echo "FAIL the recording is not copied byte for byte"; failures=$((failures + 1))
fi
python3 -m json.tool "${checks}" > /dev/null || { echo "FAIL checks.json is no longer JSON"; failures=$((failures + 1)); }
check "the same run twice is refused" 1 "exists already" -- "${tmp}/live" --top "${tmp}/top"
check "usage" 64 "RECORDING_DIR" --
finish
