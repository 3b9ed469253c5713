#!/usr/bin/env bash
# The command line as users and CI drive it: exit statuses, --json shape, --print-argv, replay,
# usage errors. Requirements: ARG-004, ARG-007, BOUND-014, BOUND-015, UPSTREAM-002, REGION-001,
# SELECT-009, SELECT-012.
set -uo pipefail
tool="$1"
fixtures="fixtures/azmcp-3.0.0-beta.46/cli-stdout"
failures=0
source tools/testing/check.sh

check "completed table" 0 "returned_rows=4 received_rows=4 truncated=false" -- \
  --args-json '{"sku":"Standard_BASIC","region":"eastus"}' --replay-stdout "${fixtures}/success-basic.json"
check "completed json" 0 '"outcome":"completed","reason":null' -- \
  --args-json '{"sku":"x"}' --replay-stdout "${fixtures}/success-empty.json" --json
check "empty is completed" 0 '"report":{"prices":[],"returned_rows":0,"received_rows":0' -- \
  --args-json '{"sku":"x"}' --replay-stdout "${fixtures}/success-empty.json" --json
check "max rows" 0 '"returned_rows":1,"received_rows":4,"truncated":true' -- \
  --args-json '{"sku":"x"}' --replay-stdout "${fixtures}/success-basic.json" --json --max-rows 1
check "refused" 2 '"outcome":"refused","reason":"missing_filter"' -- \
  --args-json '{}' --replay-stdout "${fixtures}/success-basic.json" --json
check "failed upstream 400" 3 '"reason":"upstream_filter_rejected"' -- \
  --args-json '{"filter":"osType eq '"'"'Windows'"'"'"}' --replay-stdout "${fixtures}/upstream-400.json" --replay-exit 1 --json
check "stderr" 3 '"reason":"stderr_not_empty"' -- \
  --args-json '{"sku":"x"}' --replay-stdout "${fixtures}/parse-error-unknown-option.stdout" \
  --replay-stderr "${fixtures}/parse-error-unknown-option.stderr" --replay-exit 1 --json
check "output budget" 3 '"reason":"output_limit"' -- \
  --args-json '{"sku":"x"}' --replay-stdout "${fixtures}/success-basic.json" --max-output-bytes 1024 --json
check "expanded replay" 0 "requested_region=eastus selected_rows=4" -- \
  --args-json '{"sku":"Standard_BASIC","region":"eastus"}' --replay-stdout "${fixtures}/success-basic.json"
check "expanded replay json" 0 '"matched_by":"region"}' -- \
  --args-json '{"sku":"Standard_BASIC","region":"eastus"}' --replay-stdout "${fixtures}/success-basic.json" --json
check "expanded argv" 0 "\"(armRegionName eq 'eastus' or armRegionName eq 'Global' or armRegionName eq 'Zone 1'" -- \
  --args-json '{"sku":"x","region":"EastUS"}' --print-argv
check "print argv" 0 '"(a or b)"' -- --args-json '{"filter":"a or b"}' --print-argv
check "print argv json" 0 '"argv":["/usr/local/bin/azmcp","pricing","get","--currency","USD","--filter","(a or b)"]' -- \
  --args-json '{"filter":"a or b"}' --print-argv --json
check "print argv refused" 2 "refused (service_without_sku)" -- \
  --args-json '{"service":"Virtual Machines"}' --print-argv
check "bad host bound" 2 "invalid_host_bounds" -- --args-json '{"sku":"x"}' --print-argv --max-rows 0
check "schema" 0 '"additionalProperties":false' -- --schema
check "usage: no mode" 64 "give exactly one of --print-argv and --replay-stdout" -- --args-json '{"sku":"x"}'
check "usage: unknown option" 64 "unknown option --bogus" -- --bogus
check "usage: missing file" 64 "cannot read --replay-stdout file" -- --args-json '{"sku":"x"}' --replay-stdout /nonexistent
check "usage: bad number" 64 "--max-rows needs an integer" -- --args-json '{"sku":"x"}' --print-argv --max-rows ten

# A refusal never echoes the value it refused.
out="$("${tool}" --args-json '{"sku":"customer-secret-4711\u0007"}' --print-argv --json)"
if [[ "${out}" == *"customer-secret"* ]]; then
  echo "FAIL echo: ${out}"
  failures=$((failures + 1))
else
  passes=$((passes + 1))
fi

finish
