#!/usr/bin/env bash
# sandbox_image's bad invocations: each names its flag, the path and the reason, exits 64, and
# nothing is assembled.
set -uo pipefail
tool="$1"
source tools/testing/check.sh
tmp="${TEST_TMPDIR:-/tmp}"
mkdir -p "${tmp}/a-dir"
: > "${tmp}/not-executable"
chmod 644 "${tmp}/not-executable"
check "out exists" 64 "sandbox_image: --out ${tmp}/a-dir: it exists already" -- --out "${tmp}/a-dir" --fake-azmcp
check "out's directory missing" 64 "sandbox_image: --out ${tmp}/no/such/img: the directory it would go in does not exist" -- \
  --out "${tmp}/no/such/img" --fake-azmcp
check "tarball is a directory" 64 "sandbox_image: --azmcp-tarball ${tmp}/a-dir: it is a directory, not a file" -- \
  --out "${tmp}/img" --azmcp-tarball "${tmp}/a-dir"
check "tarball missing" 64 "sandbox_image: --azmcp-tarball ${tmp}/no-such.tgz: no such file" -- \
  --out "${tmp}/img" --azmcp-tarball "${tmp}/no-such.tgz"
check "binary not executable" 64 "sandbox_image: --azmcp-binary ${tmp}/not-executable: it is not executable" -- \
  --out "${tmp}/img" --azmcp-binary "${tmp}/not-executable"
check "binary missing" 64 "sandbox_image: --azmcp-binary ${tmp}/no-such: no such file" -- \
  --out "${tmp}/img" --azmcp-binary "${tmp}/no-such"
mkdir -p "${tmp}/img2.unpack" && echo keep > "${tmp}/img2.unpack/keep.txt"
: > "${tmp}/some.tgz"
check "a scratch directory that exists is not removed" 64 \
  "sandbox_image: --out ${tmp}/img2: its scratch directory ${tmp}/img2.unpack: it exists already" -- \
  --out "${tmp}/img2" --azmcp-tarball "${tmp}/some.tgz"
[[ -f "${tmp}/img2.unpack/keep.txt" ]] || { echo "FAIL the scratch directory's file is gone"; failures=$((failures + 1)); }
check "no out" 64 "sandbox_image: --out DIR is required" -- --fake-azmcp
check "two sources" 64 "give exactly one of --azmcp-tarball, --azmcp-binary, --fake-azmcp" -- \
  --out "${tmp}/img" --fake-azmcp --azmcp-binary /bin/true
check "unknown option" 64 "sandbox_image: unknown option --bogus" -- --bogus
check "missing value" 64 "sandbox_image: --out needs a value" -- --out
check "repeated flag" 64 "sandbox_image: --out is given more than once" -- --out a --out b
check "help" 0 "usage: sandbox_image --out DIR" -- --help
[[ ! -e "${tmp}/img" ]] || { echo "FAIL an image was assembled by a refused invocation"; failures=$((failures + 1)); }
finish
