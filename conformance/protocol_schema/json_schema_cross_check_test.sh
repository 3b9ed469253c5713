#!/usr/bin/env bash
# Runs json_schema_cross_check_test.py (beside this script in the runfiles) under Debian's Python, whose
# python3-jsonschema is the reference, with the test's arguments.
set -euo pipefail
here="$(dirname "$0")"
if [[ ! -x /usr/bin/python3 ]]; then
  echo "FAIL /usr/bin/python3 is missing: install Debian's python3-jsonschema, which brings it"
  exit 1
fi
exec /usr/bin/python3 -s "${here}/json_schema_cross_check_test.py" "$@"
