#!/usr/bin/env bash
# usage: minimal_testee_test.sh GATE TESTEE_PY KNOWN_FAILURES
# Regenerate the list after changing the testee or the cases:
#   tools/bazel run //conformance:gate -- --suite kind,properties \
#       --testee "python3 conformance/testee/python/minimal_testee.py" \
#       --write-known-failures conformance/testee/python/known_failures.json
set -euo pipefail
gate="$1"
testee="$2"
known="$3"
if ! command -v python3 >/dev/null; then
  echo "python3 is not on PATH: the example testee cannot run" >&2
  exit 1
fi
out="${TEST_TMPDIR:-/tmp}/gate.out"
status=0
"${gate}" --suite kind,properties --testee "python3 ${testee}" --known-failures "${known}" \
  --json "${TEST_UNDECLARED_OUTPUTS_DIR:-${TEST_TMPDIR:-/tmp}}/gate.json" >"${out}" 2>&1 || status=$?
cat "${out}"
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
