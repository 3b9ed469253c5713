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

finish() {
  echo "${passes} passed, ${failures} failed"
  [[ "${failures}" == 0 ]]
}
