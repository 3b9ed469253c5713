#!/usr/bin/env bash
# The live check's dry-run catalog is exactly what its command builds (fixtures are regenerated,
# never edited by hand): fixtures/live-check/PROVENANCE.md.
set -euo pipefail
exec python3 tools/fixtures/build_live_check_catalog.py --check
