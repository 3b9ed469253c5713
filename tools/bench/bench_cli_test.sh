#!/usr/bin/env bash
# The benchmarks' bad invocations: each is refused with its reason and exit 64 before anything is
# measured (Google Benchmark itself would ignore an unknown flag).
set -uo pipefail
source tools/testing/check.sh
tool="$1"
check "envelope: unknown flag" 64 "error: unrecognized command-line flag: --bogus" -- --bogus
tool="$2"
check "price API: unknown flag" 64 "error: unrecognized command-line flag: --bogus" -- --bogus
tool="$3"
check "load: unknown option" 64 "prices_server_load: unknown option --bogus" -- --bogus
check "load: not a number" 64 "prices_server_load: --items needs a number (--items=N)" -- --items=many
check "load: repeated" 64 "prices_server_load: --seconds is given more than once" -- --seconds=1 --seconds=2
tool="$4"
check "proxy: unknown option" 64 "proxy_latency: unknown option --bogus" -- --bogus
check "proxy: not a number" 64 "proxy_latency: REQUESTS is a whole number from 1 to 1000000" -- ten
check "proxy: zero" 64 "proxy_latency: REQUESTS is a whole number from 1 to 1000000" -- 0
check "proxy: twice" 64 "proxy_latency: REQUESTS is given more than once" -- 5 6
tool="$5"
check "sandbox: unknown option" 64 "sandbox_overhead: unknown option --bogus" -- --bogus
tool="$6"
check "stack: unknown option" 64 "stack_overhead: unknown option --bogus" -- --bogus
check "stack: missing value" 64 "stack_overhead: --calls needs a value" -- --calls
finish
