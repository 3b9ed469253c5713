"""The real azmcp as a declared input: the pinned npm tarball, checked against its sha256.

Tests that run the real CLI take it as `data = ["@azmcp//:dist"]` with
`env = {"AZURE_PRICING_AZMCP": "$(rootpath @azmcp//:azmcp)"}`, so its bytes are part of their
action keys and no cache can serve a result made with another build of the CLI. The tarball comes
through Bazel's repository cache (shared by every clone on a machine), from the npm registry
`npm config get registry` names, else registry.npmjs.org.
"""

load(":npm.bzl", "npm_tarball_urls")

def _pinned_sha256(rctx, version):
    for line in rctx.read(rctx.path(rctx.attr.pins)).splitlines():
        fields = line.split("\t")
        if not line.startswith("#") and len(fields) >= 2 and fields[0] == version:
            return fields[1]
    fail("%s records no sha256 for %s@%s (tools/image/pin %s)" %
         (rctx.attr.pins, rctx.attr.package, version, version))

def _azmcp_package_impl(rctx):
    version = rctx.attr.version
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
        "version": attr.string(mandatory = True),
    },
)

# For a test that runs the real CLI: `data = REAL_AZMCP_DATA + [...]`, `env = REAL_AZMCP_ENV`.
# The path is relative to the test's working directory (its runfiles tree).
REAL_AZMCP_DATA = ["@azmcp//:azmcp", "@azmcp//:dist"]
REAL_AZMCP_ENV = {"AZURE_PRICING_AZMCP": "$(rootpath @azmcp//:azmcp)"}
