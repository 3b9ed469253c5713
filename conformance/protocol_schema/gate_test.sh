#!/usr/bin/env bash
# The gate's --validate-protocol: on the kind suite the reference testee speaks the testee
# protocol and no line breaks a schema; a testee whose answer is not JSON is one violation, named
# without its text, and fails the run.
# usage: gate_test.sh GATE FAKE_TESTEE
set -uo pipefail
gate="$1"
fake_testee="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
unset AZURE_PRICING_AZMCP  # the kind suite needs no real azmcp
failures=0

# expect NAME STATUS PATTERN -- GATE ARGS: the exit status, and a line matching the ERE.
expect() {
  local name="$1" want="$2" pattern="$3"
  shift 4
  local out status
  out="$("${gate}" "$@" 2>&1)"
  status=$?
  if [[ ${status} -ne ${want} ]] || ! grep -Eq -- "${pattern}" <<<"${out}"; then
    echo "FAIL ${name}: exit ${status} (want ${want}), no line matching ${pattern}"
    tail -n 25 <<<"${out}"
    failures=$((failures + 1))
  else
    echo "ok   ${name}"
  fi
}

expect "the reference's kind suite speaks only valid lines" 0 \
  '^protocol validation: [0-9]{1,3}(,[0-9]{3})* lines checked against the JSON Schemas \(testee protocol [0-9,]+\), 0 violations$' \
  -- --validate-protocol --suite kind
expect "a testee's unreadable answer is counted" 1 \
  '^protocol validation: 4 lines checked against the JSON Schemas \(testee protocol 4\), 1 violation$' \
  -- --validate-protocol --suite kind --testee "${fake_testee} --mode garbage"
expect "and described by the rule it breaks" 1 \
  '^  testee answer \(line 4\): /: is not JSON, or not UTF-8 \(framing\)$' \
  -- --validate-protocol --suite kind --testee "${fake_testee} --mode garbage"
expect "and fails the run" 1 '^  FAIL gate/protocol-validation: 1 protocol line breaks the JSON Schemas; the first: testee answer' \
  -- --validate-protocol --suite kind --testee "${fake_testee} --mode garbage"
exit $((failures > 0))
