#!/usr/bin/env bash
# tools/remote_cache/serve as a team meets it: Bazel's HTTP cache protocol (PUT then GET of
# /ac/ and /cas/ paths, 404 for a miss), nothing but GET and PUT, loopback only, an idempotent
# start, a stop that leaves no process behind, a server that stops by itself, and usage errors.
set -euo pipefail

serve="$1"
AZURE_PRICING_NGINX="$(realpath "$2")"
export AZURE_PRICING_NGINX
dir="${TEST_TMPDIR}/cache"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
url="http://127.0.0.1:${port}"
failures=0
check() {  # check NAME WANT GOT
  if [[ "$2" == "$3" ]]; then
    echo "ok: $1"
  else
    echo "FAIL: $1: want [$2], got [$3]"
    failures=$((failures + 1))
  fi
}
code() { curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$@"; }
processes_of() { pgrep -f -- "$1" | wc -l; }
trap '"${serve}" stop --dir "${dir}" >/dev/null 2>&1 || true' EXIT

check "start prints the URL" "${url}" "$("${serve}" start --dir "${dir}" --port "${port}" 2>/dev/null)"
check "status while running" 0 "$("${serve}" status --dir "${dir}" >/dev/null 2>&1; echo $?)"
check "PUT a CAS blob" 201 "$(code -X PUT --data-binary 'blob bytes' "${url}/cas/0123abcd")"
check "GET it back" "blob bytes" "$(curl -s --max-time 10 "${url}/cas/0123abcd")"
check "PUT it again (Bazel re-uploads)" 204 "$(code -X PUT --data-binary 'blob bytes' "${url}/cas/0123abcd")"
check "PUT an action result" 201 "$(code -X PUT --data-binary 'result' "${url}/ac/feed")"
check "a miss is 404" 404 "$(code "${url}/ac/0000")"
check "DELETE refused" 403 "$(code -X DELETE "${url}/cas/0123abcd")"
check "POST refused" 403 "$(code -X POST --data-binary x "${url}/cas/new")"
check "the blob survives the refusals" "blob bytes" "$(curl -s --max-time 10 "${url}/cas/0123abcd")"
check "listens on loopback only" "listen 127.0.0.1:${port};" "$(grep -o 'listen [^;]*;' "${dir}/nginx.conf")"
check "a second start keeps the server" "${url}" "$("${serve}" start --dir "${dir}" --port "${port}" 2>/dev/null)"
check "one watchdog after two starts" 1 "$(processes_of "kill $(cat "${dir}/nginx.pid")")"
watchdog="$(cat "${dir}/watchdog.pid")"
check "stop" 0 "$("${serve}" stop --dir "${dir}" >/dev/null 2>&1; echo $?)"
check "nothing answers after stop" 000 "$(code "${url}/cas/0123abcd")"
check "no watchdog after stop" 0 "$(pgrep -g "${watchdog}" | wc -l)"
check "status after stop" 3 "$("${serve}" status --dir "${dir}" >/dev/null 2>&1; echo $?)"

python3 -c 'import socket,sys,time; s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(); time.sleep(30)' "${port}" &
squatter=$!
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/${port}") 2>/dev/null && break; sleep 0.1; done
busy="$("${serve}" start --dir "${dir}/busy" --port "${port}" 2>&1 || true)"
check "a taken port fails, naming nginx's reason" 1 "$("${serve}" start --dir "${dir}/busy" --port "${port}" >/dev/null 2>&1; echo $?)"
[[ "${busy}" == *"nginx did not start: "*"Address already in use"* ]] && echo "ok: the reason" ||
  { echo "FAIL: the reason: [${busy}]"; failures=$((failures + 1)); }
kill "${squatter}"; wait "${squatter}" 2>/dev/null || true

"${serve}" start --dir "${dir}" --port "${port}" --lifetime 2s >/dev/null 2>&1
for _ in $(seq 50); do [[ "$(code "${url}/cas/0123abcd")" == 000 ]] && break; sleep 0.2; done
check "stops by itself after its lifetime" 000 "$(code "${url}/cas/0123abcd")"
check "the store outlives the server" "blob bytes" "$(cat "${dir}/store/cas/0123abcd")"

check "a bad lifetime is a usage error" 64 "$("${serve}" start --dir "${dir}" --lifetime 0h >/dev/null 2>&1; echo $?)"
check "a bad port is a usage error" 64 "$("${serve}" start --dir "${dir}" --port 70000 >/dev/null 2>&1; echo $?)"
check "--help prints the synopsis" 0 "$("${serve}" --help >/dev/null 2>&1; echo $?)"
check "--help names the commands" 3 "$("${serve}" --help 2>/dev/null | grep -c '^  tools/remote_cache/serve ')"
check "an unknown command is a usage error" 64 "$("${serve}" restart --dir "${dir}" >/dev/null 2>&1; echo $?)"
((failures == 0)) || { echo "${failures} checks failed"; exit 1; }
