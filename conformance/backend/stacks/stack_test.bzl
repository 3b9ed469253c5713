"""stack_test: one certified stack (conformance/backend/stacks/STACK) through stack_test.sh."""

load("//tools/build:azmcp.bzl", "REAL_AZMCP_DATA", "REAL_AZMCP_ENV")

def stack_test(name, stack, mode, pitfall = None, tags = []):
    """A stack_test.sh run of the gate's backend suite against one stack's adapter.

    A verdict on this host's kernel and Debian packages: never from a cache (the packages'
    versions key it through @host_stack_packages). Outside Bazel's sandbox, whose user namespace
    maps root alone, so squid could not drop to its user and firejail could not mount.

    Args:
      name: the test's name.
      stack: the stack's directory under conformance/backend/stacks.
      mode: whole, smoke, pitfall or pitfall-probe (stack_test.sh says what each asserts).
      pitfall: for the pitfall modes, [WEAKENING, PROBE, REGULAR_EXPRESSION]: the adapter's
        --weaken name, the probe that must fail and what its FAIL line must match.
      tags: more tags, written where the test is declared: "exhaustive" (tools/tiers/tiers.bzl
        lists it there, and its check reads the tag at the call).
    """
    tags = tags + ["no-remote-cache", "no-sandbox", "requires-real-azmcp", "requires-user-namespaces"]
    native.sh_test(
        name = name,
        size = "medium",
        srcs = ["stack_test.sh"],
        args = [
            "$(rootpath //conformance:gate)",
            "$(rootpath @host_stack_packages//:versions.txt)",
            stack,
            mode,
        ] + (pitfall or []),
        data = REAL_AZMCP_DATA + [
            ":stack_files",
            "//conformance:gate",
            "@host_stack_packages//:versions.txt",
        ],
        env = REAL_AZMCP_ENV,
        tags = sorted(tags),
    )
