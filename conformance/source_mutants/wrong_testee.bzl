"""wrong_testee: the reference testee built with one mutant of mutants.json applied;
wrong_testees_test: the gate must reject each of a list of them; one_per_area: the fast tier's list.

The mutated copy of the source is compiled into the binary itself; the binary's own objects
come before the libraries on the link line, so the linker never pulls the original object
(which defines exactly the same symbols) out of its library.
"""

load("//tools/build:azmcp.bzl", "REAL_AZMCP_DATA", "REAL_AZMCP_ENV")

def wrong_testee(mutant, src):  # buildifier: disable=unnamed-macro
    """Declares :wrong_testee_<mutant> (testonly).

    The target's name is derived from the mutant, so the macro takes no `name`.

    Args:
      mutant: the mutant's id in mutants.json.
      src: the label of the source file the mutant rewrites.

    Returns:
      Nothing; it declares rules.
    """
    name = "wrong_testee_" + mutant.replace("-", "_")
    basename = src.split(":")[-1].split("/")[-1]
    native.genrule(
        name = name + "_src",
        testonly = True,
        srcs = [
            src,
            ":mutants.json",
            "//tools/mutants:apply_mutant.py",
        ],
        outs = ["mutated/" + mutant + "/" + basename],
        cmd = "python3 $(location //tools/mutants:apply_mutant.py) $(location :mutants.json) " +
              mutant + " $(location " + src + ") $@",
    )
    native.cc_binary(
        name = name,
        testonly = True,
        srcs = [
            "//conformance/testee:testee_main.cc",
            ":" + name + "_src",
        ],
        deps = [
            "//conformance/backend/protocol",
            "//conformance/line_protocol:core",
            "//conformance/line_protocol:line_io",
            "//conformance/host:scripted_host",
            "//conformance/testee:protocol",
            "//ref/base:main_guard",
            "//ref/pricing:package",
        ],
    )
    return name

def wrong_testees_test(name, testees, shard_count, tags):
    """An sh_test: the gate must FAIL each of `testees` on a case mutants.json names.

    Args:
      name: the test's name.
      testees: names wrong_testee returned.
      shard_count: the test's shards (a shard judges every Nth testee).
      tags: the test's tags (tools/tiers reads `exhaustive` here, where it is declared).
    """
    native.sh_test(
        name = name,
        size = "medium",
        srcs = ["wrong_testees_test.sh"],
        args = [
            "$(rootpath //conformance:gate)",
            "$(rootpath mutants.json)",
        ] + ["$(rootpath :%s)" % t for t in testees],
        data = REAL_AZMCP_DATA + [
            "mutants.json",
            "wrong_testees_test.py",
            "//conformance:gate",
        ] + [":" + t for t in testees],
        env = REAL_AZMCP_ENV,
        shard_count = shard_count,
        tags = tags,
    )

def one_per_area(testees):
    """The fast tier's sample of wrong testees: the first of each area, in the list's order.

    A mutant's area here is its id's first word (args, envelope, host, labels, select, ...);
    the exhaustive tier runs every wrong testee.

    Args:
      testees: the names wrong_testee returned.

    Returns:
      The names of the sample.
    """
    seen = {}
    sample = []
    for testee in testees:
        area = testee[len("wrong_testee_"):].split("_")[0]
        if area not in seen:
            seen[area] = True
            sample.append(testee)
    return sample
