"""buildifier from the npm registry (@bazel/buildifier ships its binaries inside the tarball).

The tarball is checked against the sha256 recorded here, fetched through Bazel's repository
cache from the registry `npm config get registry` names, else registry.npmjs.org, like @azmcp.
`tools/lint/check` runs it on every BUILD, .bzl and WORKSPACE file.
"""

# version -> sha256 of the npm tarball (`npm pack @bazel/buildifier@VERSION`, 2026-12-03).
_PINS = {
    "8.2.1": "b96ea9b13003036c801f52bee6f9b0314738f8432e5cb9d814c89f59292604ee",
}

def _registries(rctx):
    registries = []
    npm = rctx.which("npm")
    if npm:
        result = rctx.execute([npm, "config", "get", "registry"], timeout = 30)
        configured = result.stdout.strip().rstrip("/")
        if result.return_code == 0 and configured.startswith("http"):
            registries.append(configured)
    if "https://registry.npmjs.org" not in registries:
        registries.append("https://registry.npmjs.org")
    return registries

def _buildifier_impl(rctx):
    version = rctx.attr.version
    if version not in _PINS:
        fail("tools/build/buildifier.bzl records no sha256 for @bazel/buildifier@%s" % version)
    rctx.download_and_extract(
        url = ["%s/@bazel/buildifier/-/buildifier-%s.tgz" % (r, version) for r in _registries(rctx)],
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
