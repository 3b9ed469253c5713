#!/usr/bin/env bash
# egress_proxy's bad invocations: each is one line naming the flag and its value, path or address
# and the reason, and a non-zero exit (64 for the command line) before `ready`.
# CITES("HOST-008", "HOST-014")
set -uo pipefail
binary="$1"
source tools/testing/check.sh
tmp="${TEST_TMPDIR:-$(mktemp -d)}"

# A run that wrongly starts would serve until killed: the deadline turns it into a failure.
bounded() { timeout 20 "${binary}" "$@"; }
tool=bounded

ca="${tmp}/ca.pem"
printf 'not a certificate\n' >"${tmp}/not-pem.txt"

check "unknown flag" 64 "egress_proxy: unknown option --verbose" -- --ca-out "${ca}" --verbose
check "missing value" 64 "egress_proxy: --listen needs a value" -- --ca-out "${ca}" --listen
check "repeated flag" 64 "egress_proxy: --max-tunnels is given more than once" -- \
  --ca-out "${ca}" --max-tunnels 4 --max-tunnels 8
check "no --ca-out" 64 "egress_proxy: --ca-out FILE is required" --
check "no tunnels" 64 "egress_proxy: --max-tunnels must be a whole number from 1 to 4096" -- \
  --ca-out "${ca}" --max-tunnels 0
check "too many tunnels" 64 "egress_proxy: --max-tunnels must be a whole number from 1 to 4096" -- \
  --ca-out "${ca}" --max-tunnels 100000
check "negative timeout" 64 \
  "egress_proxy: --idle-timeout-ms must be a whole number from 1 to 3600000" -- \
  --ca-out "${ca}" --idle-timeout-ms -5
check "zero timeout" 64 "egress_proxy: --idle-timeout-ms must be a whole number from 1 to 3600000" \
  -- --ca-out "${ca}" --idle-timeout-ms 0
# HOST-008: the allowlist is one DNS name; nothing that could never match, or match everything.
check "empty allowed host" 64 \
  "egress_proxy: --allowed-host must be a DNS host name such as prices.azure.com (got '')" -- \
  --ca-out "${ca}" --allowed-host ''
check "IP as allowed host" 64 "--allowed-host must be a DNS host name such as prices.azure.com (got '10.0.0.1')" \
  -- --ca-out "${ca}" --allowed-host 10.0.0.1
check "listen off loopback" 64 \
  "egress_proxy: --listen must be 127.0.0.1:PORT (the proxy listens on loopback only)" -- \
  --ca-out "${ca}" --listen 10.0.0.1:0
check "listen port not a number" 64 "egress_proxy: bad value for --listen: the port is not a number" \
  -- --ca-out "${ca}" --listen 127.0.0.1:http
check "upstream port 0" 64 "egress_proxy: bad value for --upstream: the port must be from 1 to 65535" \
  -- --ca-out "${ca}" --upstream 127.0.0.1:0
# HOST-014: verification is never dropped for an upstream CA that does not load.
check "upstream CA missing" 1 "egress_proxy: cannot read --upstream-ca /proc/nonexistent.pem: no such file" \
  -- --ca-out "${ca}" --upstream-ca /proc/nonexistent.pem
check "upstream CA a directory" 1 \
  "egress_proxy: cannot read --upstream-ca ${tmp}: it is a directory, not a file" -- \
  --ca-out "${ca}" --upstream-ca "${tmp}"
check "upstream CA not PEM" 1 \
  "egress_proxy: bad --upstream-ca ${tmp}/not-pem.txt: the upstream CA file holds no PEM certificate that loads" \
  -- --ca-out "${ca}" --upstream-ca "${tmp}/not-pem.txt"
check "CA out in a missing directory" 1 \
  "egress_proxy: cannot write --ca-out /proc/nonexistent/dir/ca.pem: the directory it would go in does not exist" -- \
  --ca-out /proc/nonexistent/dir/ca.pem
check "CA out is a directory, refused before binding" 1 \
  "egress_proxy: cannot write --ca-out ${tmp}: it is a directory, not a file" -- --ca-out "${tmp}"

# A busy port: a first proxy holds it (waited for with a deadline, stopped and reaped at exit).
start_until_ready "${tmp}/first.out" -- "${binary}" --ca-out "${tmp}/first-ca.pem"
busy="$(sed -n 's|^proxy http://||p' "${tmp}/first.out")"
check "busy port" 1 "egress_proxy: cannot listen on --listen ${busy}: the address is already in use" \
  -- --ca-out "${ca}" --listen "${busy}"
[[ -n "${busy}" ]] || { echo "FAIL the first proxy never printed ready"; failures=$((failures + 1)); }
finish
