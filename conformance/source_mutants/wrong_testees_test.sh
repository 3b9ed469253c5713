#!/usr/bin/env bash
# Runs wrong_testees_test.py (beside this script in the runfiles) with the test's arguments.
set -euo pipefail
here="$(dirname "$0")"
exec python3 "${here}/wrong_testees_test.py" "$@"
