#!/usr/bin/env bash
# The programs the gate starts, started by hand wrongly: bwrap_adapter (a backend behind the
# backend protocol) and reference_testee (the reference behind the testee protocol). Each bad
# invocation is named before any protocol line, with exit 64.
set -uo pipefail
adapter="$1"
testee="$2"
source tools/testing/check.sh
tmp="${TEST_TMPDIR:-/tmp}"
mkdir -p "${tmp}/an-image"
: > "${tmp}/a-file"
chmod 644 "${tmp}/a-file"

tool="${adapter}"
check "adapter: image missing" 64 "bwrap_adapter: --image ${tmp}/no-image: no such directory" -- --image "${tmp}/no-image"
check "adapter: image a file" 64 "bwrap_adapter: --image ${tmp}/a-file: it is not a directory" -- --image "${tmp}/a-file"
check "adapter: bwrap missing" 64 "bwrap_adapter: --bwrap ${tmp}/no-bwrap: no such file" -- \
  --image "${tmp}/an-image" --bwrap "${tmp}/no-bwrap"
check "adapter: bwrap not executable" 64 "bwrap_adapter: --bwrap ${tmp}/a-file: it is not executable" -- \
  --image "${tmp}/an-image" --bwrap "${tmp}/a-file"
unset AZURE_PRICING_IMAGE_DIR
check "adapter: no image" 64 "bwrap_adapter: --image DIR is required (or AZURE_PRICING_IMAGE_DIR)" --
# The gate's image, when --image is absent, is checked as --image would be.
AZURE_PRICING_IMAGE_DIR="${tmp}/no-image" check "adapter: gate's image missing" 64 \
  "bwrap_adapter: --image ${tmp}/no-image: no such directory" --
check "adapter: unknown option" 64 "bwrap_adapter: unknown option --bogus" -- --bogus
check "adapter: missing value" 64 "bwrap_adapter: --image needs a value" -- --image
check "adapter: repeated flag" 64 "bwrap_adapter: --image is given more than once" -- --image a --image b
check "adapter: help" 0 "usage: bwrap_adapter [--image DIR]" -- --help

tool="${testee}"
check "testee: an option" 64 "reference_testee: unknown option --verbose" -- --verbose
check "testee: an argument" 64 "reference_testee: unexpected argument extra" -- extra
check "testee: help" 0 "usage: reference_testee" -- --help
finish
