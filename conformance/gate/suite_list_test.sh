#!/usr/bin/env bash
# The Bazel tests of the gate's suites (conformance/gate/suite_tests.bzl) against the suites the gate
# registers (`gate --list-suites`, from conformance/gate/suites/suites.h): a suite without a test
# would never run in CI or on a remote cluster, and a test of no suite fails as a usage error.
# usage: suite_list_test.sh GATE SUITE...   (the suites suite_tests.bzl lists)
set -euo pipefail
gate="$1"
shift
registered="$("${gate}" --list-suites | cut -f1)"
failures=0
for suite in ${registered}; do
  if [[ " $* " != *" ${suite} "* ]]; then
    echo "FAIL the gate registers suite ${suite} (conformance/gate/suites/suites.h), but" \
      "conformance/gate/suite_tests.bzl has no test for it: add its line to GATE_SUITES in" \
      "conformance/gate/suite_tests.bzl"
    failures=$((failures + 1))
  fi
done
for suite in "$@"; do
  if ! grep -qx -- "${suite}" <<<"${registered}"; then
    echo "FAIL conformance/gate/suite_tests.bzl lists suite ${suite}, which the gate does not" \
      "register: remove its line from GATE_SUITES in conformance/gate/suite_tests.bzl, or register the" \
      "suite in conformance/gate/suites/suites.h"
    failures=$((failures + 1))
  fi
done
if [[ "${failures}" != 0 ]]; then exit 1; fi
echo "PASS: the $# suites of conformance/gate/suite_tests.bzl are the gate's"
