#!/usr/bin/env bash
# //tools/bench:all: the one benchmark table (all.py), run from its runfiles.
set -euo pipefail
exec python3 tools/bench/all.py "$@"
