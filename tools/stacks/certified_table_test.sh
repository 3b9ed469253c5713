#!/usr/bin/env bash
# docs/backend-suite.md's certified-stacks table is what tools/stacks/certify renders from the
# stacks' recorded runs (certified.json), and every stack with an adapter has a row.
set -uo pipefail
certify="$1"
out="$(python3 "${certify}" --check 2>&1)" || { echo "${out}"; exit 1; }
echo "${out}"
doc="$(dirname "${certify}")/../../docs/backend-suite.md"
for adapter in "$(dirname "${certify}")"/../../conformance/backend/stacks/*/adapter.py; do
  stack="$(basename "$(dirname "${adapter}")")"
  grep -q "^| \`${stack}\` | " "${doc}" || { echo "FAIL: no row for stack ${stack}"; exit 1; }
done
echo "PASS: the table matches the recorded runs"
