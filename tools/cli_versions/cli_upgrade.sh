#!/usr/bin/env bash
# cli_upgrade: moves the current azmcp version to NEW, the runbook as one command.
#
#   tools/cli_upgrade NEW
#
# Steps, each announced on stderr, stopping at the first that fails with what to do next:
#   1 pin     tools/image/pin NEW (nothing when NEW is pinned already)
#   2 diff    tools/cli_diff CURRENT NEW. Its summary and every difference on stdout; the whole
#             report (text and --json) in ${TMPDIR:-/tmp}/cli_upgrade-CURRENT-NEW/. The versions
#             differing is what the report is for, not a failure; cli_diff failing to run is.
#   3 switch  tools/image/azmcp-version: current NEW, previous CURRENT. Before the recordings,
#             since every recorder writes the current version's folders.
#   4 record  NEW's folders, each only when absent: fixtures/azmcp-NEW-local
#             (record_local_cli.sh), -differential (record_differential.sh) and -dry-run
#             (record_live_check_dry_run.sh). A version's recordings, once made and committed,
#             stay: moving back to a version reuses its folders, so going there and back leaves
#             the tree as it was. A recorder that fails leaves no folder behind.
#   5 gate    tools/bazel run //conformance:gate (its output in the report folder).
# When NEW is already the current version (a run that stopped at step 4 or 5), steps 1-3 are
# done and it goes on from step 4. It writes nothing in the tree but what git shows (the pins,
# the version file, NEW's folders); outside it, tools/bazel's cache of the CLI and the report
# folder. Exit 0 done, 1 a step failed, 64 usage.
set -uo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "${top}" || exit 1
version_file="tools/image/azmcp-version"
say() { printf 'cli_upgrade: %s\n' "$*" >&2; }
usage() {
  say "$* (usage: tools/cli_upgrade NEW)"
  exit 64
}

if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
  exit 0
fi
(($# == 1)) || usage "one argument: the azmcp version to move to"
new="$1"
[[ "${new}" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]] || usage "not a version: ${new}"
read_version() { awk -F'\t' -v k="$1" '$0 !~ /^#/ && $1 == k { print $2 }' "${version_file}"; }
current="$(read_version current)"
[[ -n "${current}" ]] || { say "${version_file} names no current version"; exit 1; }

step=0
name=""
announce() {  # announce NAME WHAT
  step=$((step + 1))
  name="$1"
  say "step ${step} (${name}): $2"
}
stopped() {  # stopped WHAT_FAILED HOW_TO_GO_ON
  say "step ${step} (${name}) failed: $1"
  say "to go on: $2"
  exit 1
}

if [[ "${new}" == "${current}" ]]; then
  old="$(read_version previous)"
  step=3
  say "${new} is the current version already (previous ${old:-none}): steps 1-3 are done;" \
    "recording what is missing and running the gate"
else
  old="${current}"
fi
report="${TMPDIR:-/tmp}/cli_upgrade-${old}-${new}"
back="the current version is ${new} now: fix the cause and run tools/cli_upgrade ${new} again (it goes on from step 4), or go back with tools/cli_upgrade ${old}"

if ((step == 0)); then
  announce pin "tools/image/pin ${new}"
  tools/image/pin "${new}" >&2 ||
    stopped "tools/image/pin ${new}" "is ${new} published (npm view @azure/mcp-linux-x64 versions)? Nothing was changed; run tools/cli_upgrade ${new} again."

  announce diff "tools/cli_diff ${old} ${new} (the whole report: ${report}/cli-diff.txt, .json)"
  rm -rf "${report}"
  mkdir -p "${report}" || stopped "cannot create ${report}" "set TMPDIR to a writable folder"
  tools/cli_diff "${old}" "${new}" --json "${report}/cli-diff.json" >"${report}/cli-diff.txt"
  status=$?
  # The summary lines, and each scenario, check or help text that differs with its diff.
  grep -v '^  same ' "${report}/cli-diff.txt"
  case "${status}" in
    0) say "the versions behave alike" ;;
    1) say "the versions differ (above); the new recordings will show it, review them" ;;
    *) stopped "tools/cli_diff ${old} ${new} exited ${status} (its reason above)" \
      "fix what it says and run tools/cli_upgrade ${new} again (a pin made in step 1 is kept; nothing else was changed)." ;;
  esac

  announce switch "${version_file}: current ${new}, previous ${old}"
  awk -F'\t' -v OFS='\t' -v new="${new}" -v old="${old}" '
    $0 !~ /^#/ && $1 == "current" { $2 = new }
    $0 !~ /^#/ && $1 == "previous" { $2 = old }
    { print }' "${version_file}" >"${version_file}.partial" &&
    mv "${version_file}.partial" "${version_file}" ||
    { rm -f "${version_file}.partial"; stopped "cannot write ${version_file}" "it is as it was; run tools/cli_upgrade ${new} again."; }
else
  mkdir -p "${report}" || { say "cannot create ${report}; set TMPDIR to a writable folder"; exit 1; }
fi

for kind in local differential dry-run; do
  dir="fixtures/azmcp-${new}-${kind}"
  case "${kind}" in
    local) script=tools/fixtures/record_local_cli.sh ;;
    differential) script=tools/fixtures/record_differential.sh ;;
    dry-run) script=tools/fixtures/record_live_check_dry_run.sh ;;
  esac
  step=3  # the three folders are step 4's
  announce record "${dir}"
  if [[ -d "${dir}" ]]; then
    say "${dir} is there (recorded before): kept as it is"
    continue
  fi
  # Each recorder runs the current version's CLI (tools/bazel's cache, where cli_diff put it).
  "${script}" >&2 || {
    rm -rf "${dir}"
    stopped "${script} (${dir} removed)" "${back}."
  }
done

announce gate "tools/bazel run //conformance:gate (its output: ${report}/gate.txt)"
tools/bazel run //conformance:gate >"${report}/gate.txt" 2>&1
status=$?
tail -n 1 "${report}/gate.txt"
((status == 0)) || stopped "the gate exited ${status} (${report}/gate.txt has its whole output)" "${back}."
say "done: ${new} is the current version (previous ${old}); review the change with git status and commit it"
