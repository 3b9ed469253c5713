#!/usr/bin/env bash
# Runs the python driver named by the first argument (beside this script in the runfiles) with
# the rest of the test's arguments.
set -euo pipefail
if ! command -v python3 >/dev/null; then
  echo "python3 is not on PATH: the variant testee cannot run" >&2
  exit 1
fi
here="$(dirname "$0")"
driver="$1"
shift
exec python3 "${here}/${driver}" "$@"
