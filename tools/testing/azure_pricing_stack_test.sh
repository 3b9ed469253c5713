#!/usr/bin/env bash
# azure_pricing with no mode flag: the whole local stack (fake price API with the offline catalog,
# bubblewrap backend, egress proxy, CLI in the sandbox), once with the CLI its BUILD rule passes in
# AZURE_PRICING_AZMCP (the real azmcp) and once with the fake; --upstream at a second fake API;
# nothing left in TMPDIR afterwards.
# CITES("HOST-006", "HOST-008", "HOST-013", "INTRO-004", "INTRO-007", "BOUND-014", "ARG-009")
# CITES("UPSTREAM-002", "REGION-001", "SELECT-009")
set -uo pipefail
tool="$1"
server="$2"
catalog="$3"
passes=0
failures=0
source tools/testing/check.sh

# The runs get a TMPDIR of their own, so that what they leave behind is theirs to count; short,
# because the backend's egress socket lives there and a Unix socket path has 108 bytes.
stack_tmp="$(mktemp -d /tmp/azure-pricing-stack-test.XXXXXX)"
trap 'rm -rf "${stack_tmp}"' EXIT

out=""
status=0
run() {  # run ARGS...: the tool's combined output and exit status
  out="$(TMPDIR="${stack_tmp}" "${tool}" "$@" 2>&1)"
  status=$?
}
expect() {  # expect NAME WANT_STATUS WANT_SUBSTRING, against the last run
  if [[ "${status}" != "$2" || "${out}" != *"$3"* ]]; then
    printf 'FAIL %s: status %s (want %s), output:\n%s\n' "$1" "${status}" "$2" "${out}"
    failures=$((failures + 1))
  else
    passes=$((passes + 1))
  fi
}

real_cli="${AZURE_PRICING_AZMCP:-}"
run --args-json '{"sku":"Standard_D2s_v5","region":"westeurope","include_savings_plan":true}'
expect "default query: completed" 0 "outcome: completed"
expect "default query: the offline catalog's rows" 0 "returned_rows=11 received_rows=11 truncated=false"
expect "default query: the Linux row" 0 "Standard_D2s_v5              Standard_D2~ Virtual Machines Dsv5~ westeurope     Consumption        1 Hour     0.096 USD  [region]"
expect "default query: its savings plan" 0 "savings plan 3 Years: 0.04224"
expect "progress: fake API" 0 "starting the fake price API ... ready at https://127.0.0.1:"
expect "progress: image" 0 "assembling the sandbox image ... ready"
expect "progress: backend" 0 "starting the bubblewrap backend ... ready"
expect "floor lowered, said" 0 "router floor: container, lowered on purpose from the default microVM"
expect "one sandbox" 0 "sandboxes: 1 acquired, 1 disposed"
expect "egress forwarded one GET" 0 "egress: decision=request_forwarded stage=request status=200"
expect "stopped" 0 "stopping the local stack ... done"
if [[ -n "${real_cli}" && -x "${real_cli}" ]]; then
  expect "the real CLI, named" 0 "stack: the real azmcp (AZURE_PRICING_AZMCP=${real_cli})"
fi

# A query the offline catalog cannot answer: stdout is the tool's report alone, and stderr's
# first line says what the catalog holds (its counts are fixtures/offline-catalog's), its last
# lines that nothing matched.
stdout_file="${TEST_TMPDIR}/empty.stdout"
stderr_file="${TEST_TMPDIR}/empty.stderr"
TMPDIR="${stack_tmp}" "${tool}" --args-json '{"sku":"Standard_D2s_v5","region":"japaneast"}' \
  >"${stdout_file}" 2>"${stderr_file}"
status=$?
out="$(head -n 1 "${stderr_file}")"
expect "empty: stderr's first line, the catalog's size and services" 0 "azure_pricing: local stack: offline catalog of 26,025 rows; 14 services: Virtual Machines, Content Delivery Network, Azure Front Door Service, Virtual Network,"
expect "empty: stderr's first line, its regions" 0 "; 75 regions: westeurope, eastus, westus2, northeurope, Zone 1,"
expect "empty: stderr's first line, where it comes from" 0 " (fixtures/offline-catalog/PROVENANCE.md)"
out="$(cat "${stderr_file}")"
expect "empty: stderr says nothing matched" 0 "azure_pricing: the offline catalog has no row for this query; the first line says what it holds (fixtures/offline-catalog/PROVENANCE.md)"
out="$(cat "${stdout_file}")"
expect "empty: stdout, the tool's report" 0 "outcome: completed
The Azure retail price lookup completed."
expect "empty: stdout, no row" 0 "returned_rows=0 received_rows=0 truncated=false"
if grep -q 'azure_pricing:\|offline catalog' "${stdout_file}" || [[ "$(head -n 1 "${stdout_file}")" != "stack: "* ]]; then
  printf 'FAIL empty: stdout holds more than the report:\n%s\n' "$(cat "${stdout_file}")"
  failures=$((failures + 1))
else
  passes=$((passes + 1))
fi

unset AZURE_PRICING_AZMCP
run --args-json '{"sku":"Standard_D2s_v5","region":"eastus","price_type":"Reservation"}' --json
expect "fake CLI, named in json" 0 '"stack":{"cli":"fake","cli_description":"the fake azmcp (//fakes/azmcp; AZURE_PRICING_AZMCP is not set)"'
expect "fake CLI: rows" 0 '"returned_rows":2,"received_rows":2'
expect "fake CLI: the holding line with --json too" 0 "azure_pricing: local stack: offline catalog of 26,025 rows"
run --args-json '{"service":"Virtual Machines"}'
expect "refusal: no sandbox" 2 "sandboxes: 0 acquired, 0 disposed"
run --args-json '{"filter":"stackTestField eq '"'"'x'"'"'"}' --json
expect "upstream 400" 3 '"reason":"upstream_filter_rejected"'

# --upstream: a second fake API, with only the recorded B1MS row, stands in for prices.azure.com.
up_dir="${TEST_TMPDIR}/upstream"
mkdir -p "${up_dir}"
grep '"armSkuName":"B1MS"' "${catalog}" >"${up_dir}/catalog.jsonl"
"${server}" --catalog "${up_dir}/catalog.jsonl" --tls-listen 127.0.0.1:0 --ca-dir "${up_dir}" \
  >"${up_dir}/stdout" 2>&1 &
server_pid=$!
for _ in $(seq 100); do
  grep -q '^ready' "${up_dir}/stdout" && break
  sleep 0.1
done
port="$(sed -n 's|^https https://127.0.0.1:\([0-9]*\) .*|\1|p' "${up_dir}/stdout")"
run --args-json '{"sku":"B1MS"}' --upstream "https://127.0.0.1:${port}" --upstream-ca "${up_dir}/ca.pem"
expect "upstream: used instead of the fake API" 0 "upstream: https://127.0.0.1:${port} (instead of the local fake price API)"
expect "upstream: its row" 0 "returned_rows=1 received_rows=1"
run --args-json '{"sku":"B1MS"}' --upstream "https://127.0.0.1:${port}" --upstream-ca "${up_dir}/stdout"
expect "upstream: CA that is no PEM" 64 "--upstream: the upstream must be https://HOST[:PORT] and its CA a PEM certificate"
kill "${server_pid}"
wait "${server_pid}" 2>/dev/null

left="$(ls -A "${stack_tmp}")"
if [[ -n "${left}" ]]; then
  echo "FAIL the runs left files in their TMPDIR: ${left}"
  failures=$((failures + 1))
else
  passes=$((passes + 1))
fi
finish
