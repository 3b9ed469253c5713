#!/usr/bin/env bash
# prices_server's bad invocations: each is one line naming the flag, its path or value and the
# reason, and a non-zero exit (64 for the command line, 1 for a file or an address), with nothing
# on stdout: no address line and no `ready` before everything promised exists.
set -uo pipefail
binary="$1"
source tools/testing/check.sh
tmp="${TEST_TMPDIR:-$(mktemp -d)}"

# A run that wrongly starts would serve until killed: the deadline turns it into a failure, and
# a failing run that printed anything on stdout (an address, `ready`) fails its case.
bounded() {
  timeout 20 "${binary}" "$@" >"${tmp}/stdout"
  local status=$?
  if [[ "${status}" != 0 && -s "${tmp}/stdout" ]]; then
    echo "printed on stdout before failing:"
    cat "${tmp}/stdout"
    return 99
  fi
  cat "${tmp}/stdout"
  return "${status}"
}
tool=bounded

L=(--listen 127.0.0.1:0)
printf '{"serviceName":"Bandwidth"}\n' >"${tmp}/catalog.jsonl"
printf '{"serviceName":"Bandwidth"}\nnot json\n' >"${tmp}/bad-line.jsonl"
printf '[1, 2]\n' >"${tmp}/array.json"
printf '{"target":"/api/retail/prices","status":200,"body":""}\n{"target":"/api/retail/prices","status":"200","body":""}\n' \
  >"${tmp}/bad-replay.jsonl"
printf '\n' >"${tmp}/empty-replay.jsonl"
printf '[{"status": 429},\n {"status": }]\n' >"${tmp}/malformed.json"
printf '[{"reset": true}, {"resets": true}]\n' >"${tmp}/unknown-key.json"
printf '[{"latency_ms": "500"}]\n' >"${tmp}/wrong-type.json"
printf '{"status": 429}\n' >"${tmp}/not-array.json"
touch "${tmp}/not-a-dir"

# The command line (exit 64, with the usage).
check "unknown flag" 64 "prices_server: unknown option --bogus" -- --bogus
check "missing value" 64 "prices_server: --catalog needs a value" -- --catalog
check "missing value (listen)" 64 "prices_server: --listen needs a value" -- --listen
check "repeated flag" 64 "prices_server: --listen is given more than once" -- "${L[@]}" "${L[@]}"
check "no listener" 64 "prices_server: give --listen or --tls-listen" -- --catalog "${tmp}/catalog.jsonl"
check "listen off loopback" 64 \
  "prices_server: --listen must be a loopback HOST:PORT (the host is not a loopback address)" -- \
  --listen 10.0.0.1:0
check "listen port not a number" 64 \
  "prices_server: --listen must be a loopback HOST:PORT (the port is not a number from 0 to 65535)" \
  -- --listen 127.0.0.1:http
check "listen port too large" 64 \
  "prices_server: --tls-listen must be a loopback HOST:PORT (the port is not a number from 0 to 65535)" \
  -- --tls-listen 127.0.0.1:70000 --ca-dir "${tmp}"
check "TLS without a CA dir" 64 "prices_server: --tls-listen needs --ca-dir" -- --tls-listen 127.0.0.1:0
check "negative page cache" 64 \
  "prices_server: --page-cache-mib must be a whole number from 0 to 65536 (MiB; 0 keeps none)" -- \
  "${L[@]}" --page-cache-mib -1
check "huge page cache" 64 \
  "prices_server: --page-cache-mib must be a whole number from 0 to 65536 (MiB; 0 keeps none)" -- \
  "${L[@]}" --page-cache-mib 100000
check "replay and catalog" 64 \
  "prices_server: --replay excludes --catalog (recorded answers or a catalog, not both)" -- \
  "${L[@]}" --replay /proc/nonexistent/r.jsonl --catalog /proc/nonexistent/c.jsonl

# Files (exit 1): missing, a directory, malformed, an unknown key, a wrong type.
check "catalog missing" 1 "prices_server: cannot read --catalog /proc/nonexistent/c.jsonl: no such file" \
  -- "${L[@]}" --catalog /proc/nonexistent/c.jsonl
check "catalog a directory" 1 "prices_server: cannot read --catalog ${tmp}: it is a directory, not a file" \
  -- "${L[@]}" --catalog "${tmp}"
check "catalog bad line" 1 \
  "prices_server: bad --catalog ${tmp}/bad-line.jsonl: line 2 is not a JSON object" -- \
  "${L[@]}" --catalog "${tmp}/bad-line.jsonl"
check "catalog not a page" 1 \
  "prices_server: bad --catalog ${tmp}/array.json: a catalog is a JSON object with an Items array, or JSON Lines of items" \
  -- "${L[@]}" --catalog "${tmp}/array.json"
check "replay missing" 1 "prices_server: cannot read --replay /proc/nonexistent/r.jsonl: no such file" -- \
  "${L[@]}" --replay /proc/nonexistent/r.jsonl
check "replay a directory" 1 "prices_server: cannot read --replay ${tmp}: it is a directory, not a file" \
  -- "${L[@]}" --replay "${tmp}"
check "replay bad line" 1 \
  "prices_server: bad --replay ${tmp}/bad-replay.jsonl: line 2: \"status\" must be an integer from 100 to 599" \
  -- "${L[@]}" --replay "${tmp}/bad-replay.jsonl"
check "replay empty" 1 \
  "prices_server: bad --replay ${tmp}/empty-replay.jsonl: the file holds no recorded exchange" -- \
  "${L[@]}" --replay "${tmp}/empty-replay.jsonl"
check "faults missing" 1 "prices_server: cannot read --faults /proc/nonexistent/f.json: no such file" -- \
  "${L[@]}" --faults /proc/nonexistent/f.json
check "faults a directory" 1 "prices_server: cannot read --faults ${tmp}: it is a directory, not a file" \
  -- "${L[@]}" --faults "${tmp}"
check "faults malformed" 1 "prices_server: bad --faults ${tmp}/malformed.json: malformed JSON at line 2" \
  -- "${L[@]}" --faults "${tmp}/malformed.json"
check "faults unknown key" 1 \
  "prices_server: bad --faults ${tmp}/unknown-key.json: unknown fault key: resets" -- \
  "${L[@]}" --faults "${tmp}/unknown-key.json"
check "faults wrong type" 1 \
  "prices_server: bad --faults ${tmp}/wrong-type.json: latency_ms must be an integer from 0 to 600000" \
  -- "${L[@]}" --faults "${tmp}/wrong-type.json"
check "faults not a list" 1 "prices_server: bad --faults ${tmp}/not-array.json: faults must be a JSON array" \
  -- "${L[@]}" --faults "${tmp}/not-array.json"
check "CA dir missing" 1 \
  "prices_server: cannot write ca.pem into --ca-dir /proc/nonexistent/dir: no such directory" -- \
  --tls-listen 127.0.0.1:0 --ca-dir /proc/nonexistent/dir
check "CA dir a file" 1 \
  "prices_server: cannot write ca.pem into --ca-dir ${tmp}/not-a-dir: it is not a directory" -- \
  --tls-listen 127.0.0.1:0 --ca-dir "${tmp}/not-a-dir"
[[ ! -e /proc/nonexistent/dir/ca.pem ]] || { echo "FAIL a CA was written"; failures=$((failures + 1)); }

# A busy port: a first server holds it (waited for with a deadline, stopped and reaped at exit).
mkdir -p "${tmp}/cad"
start_until_ready "${tmp}/first.out" -- \
  "${binary}" "${L[@]}" --tls-listen 127.0.0.1:0 --ca-dir "${tmp}/cad"
busy="$(sed -n 's|^http http://||p' "${tmp}/first.out")"
[[ -n "${busy}" ]] || { echo "FAIL the first server never printed ready"; failures=$((failures + 1)); }
check "busy port" 1 \
  "prices_server: cannot listen on --listen ${busy}: the address cannot be bound (in use, or not this machine's)" \
  -- --listen "${busy}"
check "busy port after a good one" 1 "prices_server: cannot listen on --tls-listen ${busy}" -- \
  "${L[@]}" --tls-listen "${busy}" --ca-dir "${tmp}"
# A refused second start must leave the running server's ca.pem alone.
busy_tls="$(sed -n 's|^https https://\([^ ]*\) .*|\1|p' "${tmp}/first.out")"
ca_before="$(sha256sum "${tmp}/cad/ca.pem" 2>/dev/null)"
check "busy TLS port, same CA dir" 1 "prices_server: cannot listen on --tls-listen ${busy_tls}" -- \
  --tls-listen "${busy_tls}" --ca-dir "${tmp}/cad"
[[ -n "${ca_before}" && "$(sha256sum "${tmp}/cad/ca.pem")" == "${ca_before}" ]] ||
  { echo "FAIL a refused start replaced the running server's ca.pem"; failures=$((failures + 1)); }
check "a CA dir without TLS" 64 "prices_server: --ca-dir is where --tls-listen's ca.pem goes" -- \
  --listen 127.0.0.1:0 --ca-dir "${tmp}"
finish
