#!/usr/bin/env bash
# Builds every fuzzer with clang, ASan and UBSan, then runs each in turn for SECONDS over a
# scratch copy of its seeds (the repository is never written). One line per target: executions,
# seconds, corpus size at the end, findings. Crash inputs stay in the directory it names.
# Exit status: 0 when no target found anything, 1 on any finding, 2 on a usage or build error.
#
#   tools/fuzz/run_all.sh 60                       # every target, 60 s each
#   tools/fuzz/run_all.sh 600 odata stj            # some targets
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# target -> where its seeds are (files or directories, relative to the repository root).
declare -A SEEDS=(
  [envelope]="fixtures/azmcp-3.0.0-beta.46/"
  [arguments]="conformance/cases tools/fuzz/corpus/region_plan"
  [region_plan]="tools/fuzz/corpus/region_plan"
  [odata]="tools/fuzz/corpus/odata"
  [egress_head]="tools/fuzz/corpus/egress_head"
  [stj]="tools/fuzz/corpus/stj fixtures/azmcp-3.0.0-beta.46/"
  [testee_protocol]="tools/fuzz/corpus/testee_protocol"
  [backend_protocol]="tools/fuzz/corpus/backend_protocol"
)
ALL=(envelope arguments region_plan odata egress_head stj testee_protocol backend_protocol)

usage() {
  echo "usage: tools/fuzz/run_all.sh SECONDS [TARGET...]  (targets: ${ALL[*]})" >&2
  exit 2
}

[[ $# -ge 1 && "$1" =~ ^[0-9]+$ && "$1" -gt 0 ]] || usage
seconds="$1"
shift
targets=("$@")
((${#targets[@]} > 0)) || targets=("${ALL[@]}")
for t in "${targets[@]}"; do [[ -n "${SEEDS[$t]:-}" ]] || usage; done

labels=()
for t in "${targets[@]}"; do labels+=("//tools/fuzz:${t}_fuzzer"); done
if ! tools/bazel build --config=clang --config=fuzz "${labels[@]}" >&2; then
  echo "run_all: the fuzzers did not build" >&2
  exit 2
fi
bin="$(tools/bazel info --config=clang --config=fuzz bazel-bin 2>/dev/null)/tools/fuzz"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/fuzz-run.XXXXXX")"
echo "run_all: scratch corpora and findings under ${scratch}" >&2

# Copies a target's seeds into DIR, flat; provenance notes are not inputs.
copy_seeds() {
  local dir="$1" source file n=0
  shift
  mkdir -p "${dir}"
  for source in "$@"; do
    while IFS= read -r -d '' file; do
      n=$((n + 1))
      cp "${file}" "${dir}/seed-${n}-$(basename "${file}")"
    done < <(find "${source}" -type f ! -name '*.md' -print0)
  done
}

# A 16 KiB request head is the proxy's limit; a little past it reaches the oversized path.
MAX_LEN=20000
total_findings=0
printf '%-18s %12s %8s %8s %9s\n' target executions seconds corpus findings
for t in "${targets[@]}"; do
  corpus="${scratch}/corpus/${t}"
  findings="${scratch}/findings/${t}"
  mkdir -p "${findings}"
  # shellcheck disable=SC2086  # SEEDS holds space-separated paths without spaces
  copy_seeds "${corpus}" ${SEEDS[$t]}
  log="${scratch}/${t}.log"
  start=$(date +%s)
  # From the scratch directory: nothing libFuzzer writes lands in the repository.
  (cd "${scratch}" && "${bin}/${t}_fuzzer" "${corpus}" -max_total_time="${seconds}" \
    -max_len="${MAX_LEN}" -timeout=20 -rss_limit_mb=2560 -print_final_stats=1 \
    -artifact_prefix="${findings}/" >"${log}" 2>&1) || true
  elapsed=$(($(date +%s) - start))
  runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "${log}" | awk '{ print $2 }')"
  # Slow units are reported in the log but are not findings.
  found="$(find "${findings}" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
    -o -name 'oom-*' \) | wc -l)"
  size="$(find "${corpus}" -type f | wc -l)"
  total_findings=$((total_findings + found))
  printf '%-18s %12s %8s %8s %9s\n' "${t}" "${runs:-?}" "${elapsed}" "${size}" "${found}"
  if ((found > 0)); then
    echo "  findings in ${findings}/, log ${log}" >&2
  fi
done
echo "run_all: $(date -u +%Y-%m-%dT%H:%MZ), ${seconds} s per target, ${total_findings} findings" >&2
((total_findings == 0)) || exit 1
