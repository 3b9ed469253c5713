#!/usr/bin/env bash
# The local stack's offline catalog is exactly what its command builds (fixtures are regenerated,
# never edited by hand): fixtures/offline-catalog/PROVENANCE.md.
set -euo pipefail
exec python3 tools/fixtures/build_offline_catalog.py --check
