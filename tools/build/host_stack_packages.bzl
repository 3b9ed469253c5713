"""@host_stack_packages: the versions of the Debian packages the certified stacks run, as a file.

The stacks' tests (conformance/backend/stacks) run the host's squid and mitmproxy, read from the
host, not declared. tools/bazel installs them only for test and coverage and passes their
versions as --repo_env=AZURE_PRICING_STACK_PACKAGES; this rule writes the value into
versions.txt, which those tests take as data. A package upgrade therefore changes their keys (they
run again) and nothing else's, as @host_browser does for chromium. The tests compare the file with
dpkg at run time, so a run that bypassed tools/bazel fails instead of passing under another key.
"""

def _host_stack_packages_impl(rctx):
    value = rctx.os.environ.get("AZURE_PRICING_STACK_PACKAGES", "")
    text = "\n".join(value.split(";")) if value else "unknown: not run through tools/bazel"
    rctx.file("versions.txt", text + "\n")
    rctx.file("BUILD.bazel", """\
# Written by tools/build/host_stack_packages.bzl from AZURE_PRICING_STACK_PACKAGES (tools/bazel).
package(default_visibility = ["//visibility:public"])

exports_files(["versions.txt"])
""")

host_stack_packages = repository_rule(
    implementation = _host_stack_packages_impl,
    environ = ["AZURE_PRICING_STACK_PACKAGES"],
)
