#!/usr/bin/env bash
# generate_catalog's bad invocations: one line naming the flag and the reason, and a non-zero
# exit (64 for the command line). Flags that do not parse come first, then values that cannot
# work, then a missing --out.
set -uo pipefail
tool="$1"
source tools/testing/check.sh
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
out="${tmp}/catalog.jsonl"

check "unknown flag" 64 "generate_catalog: unknown option --bogus" -- --bogus
check "unknown flag before a bad value" 64 "generate_catalog: unknown option --bogus" -- \
  --items -5 --bogus
check "missing value" 64 "generate_catalog: --items needs a value" -- --out "${out}" --items
check "repeated flag" 64 "generate_catalog: --out is given more than once" -- \
  --out "${out}" --out "${out}"
check "negative items" 64 "generate_catalog: --items must be a whole number from 1 to 10000000" -- \
  --out "${out}" --items -5
check "a bad value before a missing --out" 64 \
  "generate_catalog: --items must be a whole number from 1 to 10000000" -- --items -5
check "no items" 64 "generate_catalog: --items must be a whole number from 1 to 10000000" -- \
  --out "${out}" --items 0
check "too many items" 64 "generate_catalog: --items must be a whole number from 1 to 10000000" -- \
  --out "${out}" --items 10000001
check "seed not a number" 64 \
  "generate_catalog: --seed must be a whole number from 0 to 999999999999999999" -- \
  --out "${out}" --seed x
check "no --out" 64 "generate_catalog: --out FILE is required" -- --items 5
check "empty --out" 64 "generate_catalog: --out FILE is required" -- --out ''
check "out in a missing directory" 1 \
  "generate_catalog: cannot write --out /proc/nonexistent/dir/c.jsonl: no such directory" -- \
  --out /proc/nonexistent/dir/c.jsonl
check "out a directory" 1 "generate_catalog: cannot write --out ${tmp}: it is a directory, not a file" \
  -- --out "${tmp}"
check "writes" 0 "generate_catalog: wrote 3 items to ${out}" -- --out "${out}" --items 3 --seed 0
[[ "$(wc -l <"${out}")" == 3 ]] || { echo "FAIL ${out} does not hold 3 lines"; failures=$((failures + 1)); }
finish
