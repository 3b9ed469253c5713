"""@host_browser: the host chromium's version as a file, so that it keys the browser tests.

The report pages are tested in Debian's chromium, read from the host like the compilers, not
declared. tools/bazel passes its package version as --repo_env=AZURE_PRICING_BROWSER on every
build, test and run; this rule writes it into version.txt, which the browser tests take as data.
A chromium upgrade therefore changes those tests' keys (they run again, locally and against a
shared cache) and nothing else's. The harness compares the file with the chromium it starts, so
a run that bypassed tools/bazel fails instead of passing under another browser's key.
"""

def _host_browser_impl(rctx):
    version = rctx.os.environ.get("AZURE_PRICING_BROWSER", "")
    rctx.file("version.txt", (version or "unknown: not run through tools/bazel") + "\n")
    rctx.file("BUILD.bazel", """\
# Written by tools/build/host_browser.bzl from AZURE_PRICING_BROWSER (tools/bazel sets it).
package(default_visibility = ["//visibility:public"])

exports_files(["version.txt"])
""")

host_browser = repository_rule(
    implementation = _host_browser_impl,
    environ = ["AZURE_PRICING_BROWSER"],
)
