#!/usr/bin/env bash
# tools/bazel version answers with the wrapper's pins and the Debian packages' versions, without
# installing anything (Debian's Bazel has no version stamp of its own).
set -uo pipefail
tool="tools/bazel"
source tools/testing/check.sh
check "version names the wrapper" 0 "tools/bazel: azure-pricing-conformance's wrapper" -- version
check "version names Bazel's package" 0 "bazel-bootstrap    " -- version
check "version names the pinned azmcp" 0 "azmcp              @azure/mcp-linux-x64@3.0.0-beta.46 (sha256 " -- version
check "--version is the same" 0 "bazel-rules-java   " -- --version
finish
