#!/usr/bin/env bash
# The gate judged the example over the protocol and held it to its known-failures list: the
# smoke check passed (a broken harness fails the gate), every failure was listed exactly as the
# gate reports it, and no listed case started passing. The run is recorded once per build
# (//conformance/testee/python:known_failures_gate_run, which docs/protocols.md shows too).
# usage: minimal_testee_test.sh RECORD.argv
# Regenerate the list after changing the testee or the cases:
#   tools/bazel run //conformance:gate -- --suite kind,properties \
#       --testee "python3 conformance/testee/python/minimal_testee.py" \
#       --write-known-failures conformance/testee/python/known_failures.json
set -euo pipefail
record="${1%.argv}"
out="${record}.stdout"
status="$(cat "${record}.status")"
cat "${out}" "${record}.stderr"
if [[ "${status}" -ne 0 ]]; then
  echo "FAIL: the gate rejected the example testee against its known-failures list (exit ${status})" >&2
  exit 1
fi
# The example must be judged as itself, and must really fail something: a list that the gate
# no longer needs would mean the example stopped being an example of failing cases.
grep -q '^implementation: minimal-python-testee' "${out}" || {
  echo "FAIL: the gate did not judge the Python testee" >&2; exit 1; }
grep -Eq '^  [1-9][0-9]* listed, 0 do not hold$' "${out}" || {
  echo "FAIL: the gate held the testee to no known failure" >&2; exit 1; }
echo "PASS"
