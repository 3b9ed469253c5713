#!/usr/bin/env bash
# One suite of the gate as a Bazel test: sharded the way Bazel asks (TEST_TOTAL_SHARDS,
# TEST_SHARD_INDEX), one JUnit testcase per check in the test's XML, and hermetic: the fake
# azmcp from the runfiles rather than the npm cache, so a remote-execution worker needs only the
# Debian packages tools/bazel installs. The gate itself (`tools/bazel run //conformance:gate`)
# keeps using the real CLI.
# usage: gate_suite_test.sh GATE SUITE [GATE FLAGS ...]
set -euo pipefail
gate="$1"
suite="$2"
shift 2
shard=()
if [[ -n "${TEST_SHARD_STATUS_FILE:-}" ]]; then
  touch "${TEST_SHARD_STATUS_FILE}"  # says this runner understands sharding
fi
if [[ "${TEST_TOTAL_SHARDS:-1}" -gt 1 ]]; then
  shard=(--shard "${TEST_SHARD_INDEX}/${TEST_TOTAL_SHARDS}")
fi
junit=()
if [[ -n "${XML_OUTPUT_FILE:-}" ]]; then
  junit=(--junit "${XML_OUTPUT_FILE}")
fi
unset AZURE_PRICING_AZMCP
exec "${gate}" --suite "${suite}" "${shard[@]}" "${junit[@]}" "$@"
