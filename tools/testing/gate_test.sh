#!/usr/bin/env bash
# The gate's bad invocations: every path is checked before any suite runs, and each bad one is
# named with its flag, the path and the reason (exit 64); flags that do not read are usage errors.
set -uo pipefail
tool="$1"
source tools/testing/check.sh
tmp="${TEST_TMPDIR:-/tmp}"
mkdir -p "${tmp}/a-dir"
rm -f "${tmp}/a-fifo" && mkfifo "${tmp}/a-fifo"
: > "${tmp}/not-executable"
chmod 644 "${tmp}/not-executable"
check "json into a directory" 64 "gate: --json ${tmp}/a-dir: it is a directory, not a file" -- --json "${tmp}/a-dir"
check "junit where no directory is" 64 "gate: --junit ${tmp}/no/such.xml: the directory it would go in does not exist" -- \
  --junit "${tmp}/no/such.xml"
check "write-known-failures into a directory" 64 "gate: --write-known-failures ${tmp}/a-dir: it is a directory, not a file" -- \
  --write-known-failures "${tmp}/a-dir"
check "known-failures missing" 64 "gate: --known-failures ${tmp}/no-such.json: no such file" -- \
  --known-failures "${tmp}/no-such.json"
check "known-failures a directory" 64 "gate: --known-failures ${tmp}/a-dir: it is a directory, not a file" -- \
  --known-failures "${tmp}/a-dir"
check "azmcp a directory" 64 "gate: --azmcp ${tmp}/a-dir: it is a directory, not a file" -- --azmcp "${tmp}/a-dir"
check "azmcp not executable" 64 "gate: --azmcp ${tmp}/not-executable: it is not executable" -- --azmcp "${tmp}/not-executable"
check "bwrap missing" 64 "gate: --bwrap ${tmp}/no-bwrap: no such file" -- --bwrap "${tmp}/no-bwrap"
check "testee missing" 64 "gate: --testee ${tmp}/no-testee: no such file" -- --testee "${tmp}/no-testee --flag"
check "testee not on PATH" 64 "gate: --testee no-such-testee-program: no program of that name on PATH" -- \
  --testee no-such-testee-program
check "adapter not executable" 64 "gate: --backend-adapter ${tmp}/not-executable: it is not executable" -- \
  --backend-adapter "${tmp}/not-executable"
check "a bad suite is not blamed on the testee" 64 "gate: --suite is all, or a comma-separated list" -- \
  --suite bogus --testee "python3 x.py"
check "testee: unclosed quote" 64 "gate: --testee: an unclosed quote in the command" -- --testee "'x"
check "testee: empty" 64 "gate: --testee: an empty command" -- --testee ''
check "a bad json path is not blamed on a good testee" 64 "gate: --json ${tmp}/a-dir: it is a directory" -- \
  --json "${tmp}/a-dir" --testee "python3 x.py"
check "json into a FIFO" 64 "gate: --json ${tmp}/a-fifo: it is not a regular file" -- --json "${tmp}/a-fifo"
check "json with a trailing slash names the directory" 64 "gate: --json ${tmp}/a-dir/: it is a directory, not a file" -- \
  --json "${tmp}/a-dir/"
check "unknown suite" 64 "gate: --suite is all, or a comma-separated list of kind, catalog, " -- --suite kinds
check "bad filter" 64 "gate: --filter is not a valid ECMAScript regular expression" -- --filter '('
check "bad shard" 64 "gate: --shard is I/N with 0 <= I < N" -- --shard 3/3
check "bad seed" 64 "gate: --seed is a whole number" -- --seed -1
check "bad properties count" 64 "gate: --properties-count is a whole number from 1 to 100000" -- --properties-count 0
check "unknown option" 64 "gate: unknown option --bogus" -- --bogus
check "missing value" 64 "gate: --json needs a value" -- --json
check "repeated flag" 64 "gate: --suite is given more than once" -- --suite kind --suite live
check "help" 0 "usage: gate" -- --help
check "help lists the suites" 0 "                   catalog     the requirement catalog" -- --help
check "list suites" 0 "kind	the cases in conformance/cases" -- --list-suites
check "list suites lists them all whatever --suite says" 0 "live	the live check's" -- --list-suites --suite kind
for f in a-dir/x no; do
  [[ ! -e "${tmp}/${f}" ]] || { echo "FAIL a refused invocation wrote ${tmp}/${f}"; failures=$((failures + 1)); }
done
finish
