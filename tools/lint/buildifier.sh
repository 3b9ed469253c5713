#!/usr/bin/env bash
# usage (through Bazel): tools/bazel run //tools/lint:buildifier -- BUILDIFIER_ARGS...
# Runs the pinned buildifier in the workspace's root, where the paths it is given resolve.
set -euo pipefail
binary="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shift
cd "${BUILD_WORKSPACE_DIRECTORY:?run it with tools/bazel run //tools/lint:buildifier -- ARGS}"
exec "${binary}" "$@"
