#!/usr/bin/env bash
# tools/bazel version answers with the wrapper's pins, the Debian packages' versions and the host
# fingerprint every action key carries, without installing anything (Debian's Bazel has no
# version stamp of its own). Endpoints that cannot work are refused before anything is installed
# or Bazel starts.
set -uo pipefail
tool="tools/bazel"
source tools/testing/check.sh
check "version names the wrapper" 0 "tools/bazel: azure-pricing-conformance's wrapper" -- version
check "version names Bazel's package" 0 "bazel-bootstrap    " -- version
current="$(awk -F'\t' '$1 == "current" { print $2 }' tools/image/azmcp-version)"
check "version names the pinned azmcp" 0 "azmcp              @azure/mcp-linux-x64@${current} (sha256 " -- version
check "--version is the same" 0 "bazel-rules-java   " -- --version
check "version names the host fingerprint" 0 "host packages      " -- version
fingerprint="$("${tool}" version | sed -n 's/^host packages *\([0-9a-f]\{16\}\) .*/\1/p')"
[[ "${fingerprint}" =~ ^[0-9a-f]{16}$ ]] && passes=$((passes + 1)) ||
  { echo "FAIL the fingerprint is 16 hex digits: [${fingerprint}]"; failures=$((failures + 1)); }
AZURE_PRICING_REMOTE_CACHE="ftp://cache.example" check "a cache URL of another scheme" 64 \
  "AZURE_PRICING_REMOTE_CACHE must be an http://, https://, grpc:// or grpcs:// URL" -- build //tools:bazel
idle_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
AZURE_PRICING_REMOTE_CACHE="http://127.0.0.1:${idle_port}" check "a loopback cache that is not running" 69 \
  "no cache answers at http://127.0.0.1:${idle_port}: start one with tools/remote_cache/serve start" -- test //tools:bazel
# A test's environment holds none of the AZURE_PRICING_REMOTE_* variables.
check "--config=remote without an executor" 64 \
  "--config=remote needs AZURE_PRICING_REMOTE_EXECUTOR" -- test --config=remote //tools:bazel
finish
