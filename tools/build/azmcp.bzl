"""The real azmcp as a declared input: the pinned npm tarball, checked against its sha256.

Tests that run the real CLI take it as `data = ["@azmcp//:dist"]` with
`env = {"AZURE_PRICING_AZMCP": "$(rootpath @azmcp//:azmcp)"}`, so its bytes are part of their
action keys and no cache can serve a result made with another build of the CLI. The tarball comes
through Bazel's repository cache (shared by every clone on a machine), from the npm registry
`npm config get registry` names, else registry.npmjs.org.
"""

load(":npm.bzl", "npm_tarball_urls")

_VERSION_FILE = "//tools/image:azmcp-version"

def azmcp_versions(text):
    """The current and previous azmcp versions that tools/image/azmcp-version names.

    Args:
      text: the file's text: `#` comment lines, and `current<TAB>VERSION` and
        `previous<TAB>VERSION` lines.

    Returns:
      {"current": VERSION, "previous": VERSION}; fails when either is missing.
    """
    versions = {}
    for line in text.splitlines():
        fields = line.split("\t")
        if line and not line.startswith("#") and len(fields) == 2:
            versions[fields[0]] = fields[1]
    for which in ("current", "previous"):
        if not versions.get(which):
            fail("tools/image/azmcp-version names no %s version" % which)
    return versions

def _pinned_sha256(rctx, version):
    for line in rctx.read(rctx.path(rctx.attr.pins)).splitlines():
        fields = line.split("\t")
        if not line.startswith("#") and len(fields) >= 2 and fields[0] == version:
            return fields[1]
    fail("%s records no sha256 for %s@%s (tools/image/pin %s)" %
         (rctx.attr.pins, rctx.attr.package, version, version))

def _azmcp_package_impl(rctx):
    version = azmcp_versions(rctx.read(rctx.path(rctx.attr.version_file)))[rctx.attr.which]
    scope, _, name = rctx.attr.package.partition("/")
    path = "%s/%s/-/%s-%s.tgz" % (scope, name, name, version)
    rctx.download_and_extract(
        url = npm_tarball_urls(rctx, path),
        sha256 = _pinned_sha256(rctx, version),
        stripPrefix = "package",
        type = "tar.gz",
    )
    rctx.file("BUILD.bazel", """\
# %s@%s, unpacked from the npm tarball whose sha256 tools/image/azmcp-pins.tsv records.
package(default_visibility = ["//visibility:public"])

exports_files(["dist/azmcp"])

filegroup(
    name = "azmcp",
    srcs = ["dist/azmcp"],
)

# The binary and what ships beside it (the sandbox image copies the whole directory).
filegroup(
    name = "dist",
    srcs = glob(["dist/**"]),
)
""" % (rctx.attr.package, version))

azmcp_package = repository_rule(
    implementation = _azmcp_package_impl,
    attrs = {
        "package": attr.string(default = "@azure/mcp-linux-x64"),
        "pins": attr.label(default = "//tools/image:azmcp-pins.tsv", allow_single_file = True),
        "version_file": attr.label(default = _VERSION_FILE, allow_single_file = True),
        # Which version of tools/image/azmcp-version: "current" (@azmcp) or "previous".
        "which": attr.string(default = "current", values = ["current", "previous"]),
    },
)

def _azmcp_version_impl(rctx):
    versions = azmcp_versions(rctx.read(rctx.path(rctx.attr.version_file)))
    rctx.file("version.bzl", """\
# From tools/image/azmcp-version (tools/build/azmcp.bzl); never edit: move it with tools/cli_upgrade.
AZMCP_VERSION = "%s"
AZMCP_PREVIOUS_VERSION = "%s"
""" % (versions["current"], versions["previous"]))
    rctx.file("cli_version.h", """\
// From tools/image/azmcp-version (tools/build/azmcp.bzl): the @azure/mcp-linux-x64 version this
// tree runs and models, for string-literal concatenation ("azmcp " AZMCP_CLI_VERSION).
#ifndef AZMCP_CLI_VERSION
#define AZMCP_CLI_VERSION "%s"
#endif
""" % versions["current"])
    rctx.file("BUILD.bazel", """\
package(default_visibility = ["//visibility:public"])

exports_files(["version.bzl"])

cc_library(
    name = "cli_version",
    hdrs = ["cli_version.h"],
    include_prefix = "azmcp",
)
""")

# @azmcp_version: the current and previous versions as Starlark (version.bzl) and C++
# (`#include "azmcp/cli_version.h"`), read from tools/image/azmcp-version. Nothing is
# downloaded, so a BUILD file may load it without fetching @azmcp; an edit of the file
# re-runs the rule, since it is read through a label.
azmcp_version = repository_rule(
    implementation = _azmcp_version_impl,
    attrs = {
        "version_file": attr.label(default = _VERSION_FILE, allow_single_file = True),
    },
)

# For a test that runs the real CLI: `data = REAL_AZMCP_DATA + [...]`, `env = REAL_AZMCP_ENV`.
# The path is relative to the test's working directory (its runfiles tree).
REAL_AZMCP_DATA = ["@azmcp//:azmcp", "@azmcp//:dist"]
REAL_AZMCP_ENV = {"AZURE_PRICING_AZMCP": "$(rootpath @azmcp//:azmcp)"}

# The previous version's CLI, for //tools/cli_diff's test that compares it with the current one.
PREVIOUS_AZMCP_DATA = ["@azmcp_previous//:azmcp", "@azmcp_previous//:dist"]
