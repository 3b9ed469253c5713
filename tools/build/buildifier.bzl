"""buildifier from the npm registry (@bazel/buildifier ships its binaries inside the tarball).

The tarball is checked against the sha256 recorded here, fetched through Bazel's repository
cache from the registry `npm config get registry` names, else registry.npmjs.org, like @azmcp.
`tools/lint/check` runs it on every BUILD, .bzl and WORKSPACE file.
"""

load(":npm.bzl", "npm_tarball_urls")

# version -> sha256 of the npm tarball (`npm pack @bazel/buildifier@VERSION`, 2026-12-03).
_PINS = {
    "8.2.1": "b96ea9b13003036c801f52bee6f9b0314738f8432e5cb9d814c89f59292604ee",
}

def _buildifier_impl(rctx):
    version = rctx.attr.version
    if version not in _PINS:
        fail("tools/build/buildifier.bzl records no sha256 for @bazel/buildifier@%s" % version)
    rctx.download_and_extract(
        url = npm_tarball_urls(rctx, "@bazel/buildifier/-/buildifier-%s.tgz" % version),
        sha256 = _PINS[version],
        stripPrefix = "package",
        type = "tar.gz",
    )
    rctx.file("BUILD.bazel", """\
# @bazel/buildifier@%s, unpacked from the npm tarball whose sha256 tools/build/buildifier.bzl records.
package(default_visibility = ["//visibility:public"])

exports_files(["buildifier-linux_amd64"])
""" % version)

buildifier_package = repository_rule(
    implementation = _buildifier_impl,
    attrs = {"version": attr.string(mandatory = True)},
)
