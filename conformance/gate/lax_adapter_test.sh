#!/usr/bin/env bash
# A lax protocol server behind --backend-adapter fails the gate: the bubblewrap backend served by
# a protocol server that drops unknown members and ignores seq order (the lax_protocol mutant).
# The protocol probes name what it accepted, and the gate exits 1.
#   whole     every probe: the backend's verdict, `backend: NOT CONFORMANT` (the exhaustive tier)
#   protocol  the protocol probes alone (--filter), which catch it: a partial run, no verdict
# usage: gate_lax_adapter_test.sh GATE MUTANT_ADAPTER whole|protocol
# CITES("PROFILE-015")
set -uo pipefail
gate="$1"
adapter="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
mode="$3"
filter=()
case "${mode}" in
  whole) ;;
  protocol) filter=(--filter '^backend/protocol\.') ;;
  *) echo "usage: gate_lax_adapter_test.sh GATE MUTANT_ADAPTER whole|protocol" >&2; exit 2 ;;
esac
unset AZURE_PRICING_AZMCP  # the fake CLI from the runfiles: nothing outside them is needed
out="$("${gate}" --suite backend "${filter[@]}" \
  --backend-adapter "${adapter} --mutant lax_protocol" 2>&1)"
status=$?
failures=0
expect() {
  if [[ "${out}" != *"$1"* ]]; then
    echo "FAIL: the gate's output lacks: $1"
    failures=$((failures + 1))
  fi
}
if [[ "${status}" != 1 ]]; then
  echo "FAIL: exit status ${status}, want 1"
  failures=$((failures + 1))
fi
expect "  FAIL protocol.unknown_member: expected a request with an unknown member is refused/malformed_message; got seq 6, refused/unknown_sandbox"
expect "  FAIL protocol.seq_out_of_order:"
expect "  FAIL protocol.seq_replayed:"
if [[ "${mode}" == whole ]]; then
  expect "backend: NOT CONFORMANT"
  expect "gate: FAIL (verdict on the backend: the backend suite)"
else
  expect "gate: FAIL (partial run: not a conformance verdict)"
  if [[ "${out}" == *"  ok   exec."* ]]; then
    echo "FAIL: --filter ran probes outside the protocol group"
    failures=$((failures + 1))
  fi
fi
if [[ "${failures}" != 0 ]]; then
  printf '%s\n' "${out}"
  exit 1
fi
echo "PASS: the lax adapter fails the protocol probes (${mode})"
