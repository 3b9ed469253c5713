#!/usr/bin/env bash
# A certified stack (conformance/backend/stacks/STACK) through the gate's backend suite.
#   whole              every probe: `backend: CONFORMANT`; with the stack's known_failures.json,
#                      when it has one, the gate passes with exactly those failing (exhaustive)
#   smoke              a few probes of each kind (--filter), each ok (the fast tier)
#   pitfall W PROBE RE every probe with `--weaken W`: `backend: NOT CONFORMANT`, and PROBE's FAIL
#                      line matches the regular expression RE (exhaustive)
#   pitfall-probe W PROBE RE   the same, PROBE alone (--filter; fast)
# usage: stack_test.sh GATE STACK_VERSIONS STACK MODE [WEAKENING PROBE RE]
# The host's squid, mitmproxy and firejail must be the versions tools/bazel keyed this test with.
set -uo pipefail
gate="$1"
versions="$2"
stack_dir="$(cd "$(dirname "$0")" && pwd)/$3"
mode="$4"
fail() { echo "FAIL: $*"; exit 1; }

while IFS= read -r line; do
  [[ -n "${line}" ]] || continue
  [[ "${line}" != *"not installed"* && "${line}" != unknown* ]] ||
    fail "stack package missing: '${line}' (tools/bazel test installs squid-openssl, mitmproxy and firejail; apt-get failed or the test ran outside tools/bazel)"
  pkg="${line%% *}"
  now="$(dpkg-query -W -f='${Version}' "${pkg}" 2>/dev/null || true)"
  [[ "${line}" == "${pkg} ${now}" ]] ||
    fail "${pkg} is ${now:-not installed} on this host, but the test was keyed with '${line}': run it through tools/bazel"
done <"${versions}"

adapter=(python3 "${stack_dir}/adapter.py")
filter=()
known=()
case "${mode}" in
  whole)
    [[ -f "${stack_dir}/known_failures.json" ]] && known=(--known-failures "${stack_dir}/known_failures.json")
    ;;
  smoke)
    filter=(--filter '^backend/(exec\.argv|isolation\.network|egress\.get_allowed|egress\.method_case|egress\.host_header_mismatch)$')
    ;;
  pitfall | pitfall-probe)
    weakening="$5" probe="$6" pattern="$7"
    adapter+=(--weaken "${weakening}")
    [[ "${mode}" == pitfall-probe ]] && filter=(--filter "^backend/${probe//./\\.}\$")
    ;;
  *) fail "usage: stack_test.sh GATE STACK_VERSIONS STACK_DIR whole|smoke|pitfall|pitfall-probe [W PROBE RE]" ;;
esac

start=${SECONDS}
out="$("${gate}" --suite backend "${filter[@]}" "${known[@]}" --backend-adapter "${adapter[*]}" 2>&1)"
status=$?
echo "gate ran ${mode} in $((SECONDS - start)) s, exit status ${status}"
report() { printf '%s\n' "${out}"; fail "$*"; }

case "${mode}" in
  whole)
    [[ "${status}" == 0 ]] || report "exit status ${status}, want 0"
    if ((${#known[@]} == 0)); then
      grep -q '^backend: CONFORMANT (' <<<"${out}" || report "no 'backend: CONFORMANT' line"
    fi
    grep '^backend: ' <<<"${out}"
    ;;
  smoke)
    for probe in exec.argv isolation.network egress.get_allowed egress.method_case egress.host_header_mismatch; do
      grep -q "^  ok   ${probe}: " <<<"${out}" || report "probe ${probe} did not pass"
    done
    ! grep -q '^  FAIL ' <<<"${out}" || report "a probe failed"
    ;;
  pitfall | pitfall-probe)
    [[ "${status}" == 1 ]] || report "exit status ${status}, want 1"
    line="$(grep "^  FAIL ${probe}: " <<<"${out}")" || report "probe ${probe} did not fail with --weaken ${weakening}"
    grep -Eq "${pattern}" <<<"${line}" || report "${probe}'s FAIL line does not match ${pattern}: ${line}"
    if [[ "${mode}" == pitfall ]]; then
      grep -q '^backend: NOT CONFORMANT (' <<<"${out}" || report "no 'backend: NOT CONFORMANT' line"
      grep '^backend: ' <<<"${out}"
    fi
    echo "${line}"
    ;;
esac
echo "PASS: ${stack_dir##*/} ${mode} ${*:5}"
