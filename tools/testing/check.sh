# Sourced by the command-line tests: `check` runs ${tool} and compares its exit status and
# output; `finish` prints the tally and sets the exit status.
passes=0
failures=0

check() {  # check NAME WANT_STATUS WANT_SUBSTRING -- ARGS...
  local name="$1" want_status="$2" want="$3"
  shift 4
  local out status
  out="$("${tool}" "$@" 2>&1)"
  status=$?
  if [[ "${status}" != "${want_status}" || "${out}" != *"${want}"* ]]; then
    printf 'FAIL %s: status %s (want %s), output:\n%s\n' "${name}" "${status}" "${want_status}" "${out}"
    failures=$((failures + 1))
  else
    passes=$((passes + 1))
  fi
}

# check_record NAME WANT_STATUS WANT_SUBSTRING RECORD.argv: `check` for a run recorded once per
# build (tools/build/recorded_run.bzl): its recorded exit status and output (stdout, then stderr).
check_record() {
  local name="$1" want_status="$2" want="$3" record="${4%.argv}"
  local out status
  status="$(cat "${record}.status")"
  out="$(cat "${record}.stdout" "${record}.stderr")"
  if [[ "${status}" != "${want_status}" || "${out}" != *"${want}"* ]]; then
    printf 'FAIL %s: recorded status %s (want %s), output:\n%s\n' "${name}" "${status}" \
      "${want_status}" "${out}"
    failures=$((failures + 1))
  else
    passes=$((passes + 1))
  fi
}

# start_until_ready OUT -- PROGRAM ARGS...: starts it in the background (stopped and reaped when
# the test exits; its pid in ${started}), stdout to OUT and stderr to OUT.err, and waits up to
# 10 s for its "ready" line. Status 1 when it never came.
start_until_ready() {
  local out="$1"
  shift 2
  "$@" >"${out}" 2>"${out}.err" &
  started=$!
  trap 'kill "${started}" 2>/dev/null; wait "${started}" 2>/dev/null' EXIT
  for _ in $(seq 100); do
    grep -q '^ready$' "${out}" && return 0
    sleep 0.1
  done
  return 1
}

finish() {
  echo "${passes} passed, ${failures} failed"
  [[ "${failures}" == 0 ]]
}
