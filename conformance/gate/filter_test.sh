#!/usr/bin/env bash
# --filter chooses the checks that run, not only the records kept: with one stack case and one
# live query selected, the stack suite runs that case alone and the live dry run that query
# alone (the fake CLI; real sandboxes and the fake price API). The backend suite's selection is
# held by gate_lax_adapter_protocol_test. The run also writes its --json report and --html page:
# both hold what the console printed.
# usage: gate_filter_test.sh GATE
set -uo pipefail
gate="$1"
unset AZURE_PRICING_AZMCP  # the fake CLI from the runfiles
dir="${TEST_TMPDIR:-$(mktemp -d)}"
out="$("${gate}" --suite stack,live --filter '^(stack/stack\.refusal_no_sandbox|live/live\.dns)$' \
  --json "${dir}/r.json" --html "${dir}/r.html" 2>&1)"
status=$?
failures=0
fail() {
  echo "FAIL: $1"
  failures=$((failures + 1))
}
[[ "${status}" == 0 ]] || fail "exit status ${status}, want 0"
ran="$(grep -E '^  (ok  |FAIL) (stack|live)\.' <<<"${out}" | sed -E 's/^  (ok  |FAIL) ([^:]*):.*/\2/' | sort | tr '\n' ' ')"
[[ "${ran}" == "live.dns stack.refusal_no_sandbox " ]] || fail "ran: ${ran}; want live.dns stack.refusal_no_sandbox"
[[ "${out}" == *"gate: PASS (partial run: not a conformance verdict)"* ]] || fail "no partial-run verdict"
[[ "${out}" == *$'\n2 passed, 0 failed'* ]] || fail "not 2 checks"
for anchor in stack/stack.refusal_no_sandbox live/live.dns; do
  grep -q "<tr class=\"check\" id=\"${anchor}\"" "${dir}/r.html" || fail "the page has no row ${anchor}"
done
grep -q '^gate: PASS (partial run: not a conformance verdict)$' "${dir}/r.html" ||
  fail "the page does not show the verdict line as printed"
python3 - "${dir}/r.json" <<'PY' || fail "the --json report's run facts"
import json, sys
run = json.load(open(sys.argv[1]))["run"]
assert run["command_line"][:2] == ["--suite", "stack,live"], run["command_line"]
assert run["verdict_lines"][-2:] == ["gate: PASS (partial run: not a conformance verdict)",
                                     "2 passed, 0 failed"], run["verdict_lines"]
assert run["date"].endswith("Z") and run["gate_version"], run
PY
if [[ "${failures}" != 0 ]]; then
  printf '%s\n' "${out}"
  exit 1
fi
echo "PASS: --filter ran one stack case and one live query"
