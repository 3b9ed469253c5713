"""The gate's suites as Bazel tests: one line per suite the gate registers.

Each suite of the gate (suites::kAll in conformance/gate/suites/suites.h, `gate --list-suites`) is
also a sharded, hermetic Bazel test, //conformance/gate:<suite>_suite_test (conformance/gate/suite_test.sh),
so a team can run the gate on a remote-execution cluster: `tools/bazel test --config=remote
//conformance/gate:suite_tests`. //conformance/gate:suite_list_test fails when this list and the
gate's registry disagree, naming the file to edit.
"""

# One line per registered suite: its test's size, shards and tags.
GATE_SUITES = [
    struct(name = "kind", size = "small", shards = 4, tags = []),
    struct(name = "catalog", size = "small", shards = 1, tags = []),
    struct(name = "properties", size = "medium", shards = 3, tags = []),
    # Bubblewrap needs user namespaces on the worker; the probes share one backend per shard.
    # The verdict certifies this host's sandbox, so no cache may serve it from another machine.
    struct(
        name = "backend",
        size = "medium",
        shards = 2,
        tags = ["requires-user-namespaces", "no-remote-cache"],
    ),
    struct(name = "stack", size = "medium", shards = 2, tags = ["requires-user-namespaces"]),
    struct(name = "live", size = "medium", shards = 1, tags = ["requires-user-namespaces"]),
]

def gate_suite_tests(name, gate, data = [], env = {}, tags = []):
    """gate_<suite>_test per GATE_SUITES line, the test_suite `name` of them all, and `name`_registry_test.

    Args:
      name: the test_suite's name.
      gate: the gate binary's label.
      data: more runfiles every suite's test needs (the real azmcp).
      env: the environment every suite's test runs with.
      tags: more tags for every suite's test (what it needs from the machine).
    """
    for suite in GATE_SUITES:
        native.sh_test(
            name = "%s_suite_test" % suite.name,
            size = suite.size,
            srcs = ["suite_test.sh"],
            args = [
                "$(rootpath %s)" % gate,
                suite.name,
            ],
            data = data + [gate],
            env = env,
            shard_count = suite.shards,
            tags = tags + suite.tags,
        )
    native.test_suite(
        name = name,
        tests = [":%s_suite_test" % suite.name for suite in GATE_SUITES],
    )
    native.sh_test(
        name = "suite_list_test",
        size = "small",
        srcs = ["suite_list_test.sh"],
        args = ["$(rootpath %s)" % gate] + [suite.name for suite in GATE_SUITES],
        data = [gate],
    )
