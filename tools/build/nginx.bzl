"""nginx from Debian's `nginx` package, unpacked (never installed) as a declared input.

Installing the package would start a system service on port 80; the loopback remote cache
(tools/remote_cache/serve) and its test only need the binary. `apt-get download` verifies the
package against the archive's signed index; the version fetched is recorded in the BUILD file.
"""

def _debian_nginx_impl(rctx):
    apt_get = rctx.which("apt-get")
    if not apt_get:
        fail("apt-get not found: @nginx comes from Debian's nginx package")
    result = rctx.execute([apt_get, "download", "-q", "nginx"], timeout = 300)
    if result.return_code != 0:
        fail("apt-get download nginx failed (refresh the package lists with `apt-get update` " +
             "as root):\n" + result.stderr)
    debs = [f for f in rctx.path(".").readdir() if f.basename.startswith("nginx_")]
    if len(debs) != 1:
        fail("apt-get download nginx left %d packages" % len(debs))
    result = rctx.execute(["dpkg-deb", "-x", str(debs[0]), "unpacked"], timeout = 120)
    if result.return_code != 0:
        fail("dpkg-deb -x %s failed:\n%s" % (debs[0].basename, result.stderr))
    rctx.file("BUILD.bazel", """\
# Debian's %s, unpacked by tools/build/nginx.bzl.
package(default_visibility = ["//visibility:public"])

exports_files(["unpacked/usr/sbin/nginx"])
""" % debs[0].basename)
    rctx.delete(str(debs[0]))

debian_nginx = repository_rule(implementation = _debian_nginx_impl)
