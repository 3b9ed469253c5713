"""wrong_testee: the reference testee built with one mutant of mutants.json applied.

The mutated copy of the source is compiled into the binary itself; the binary's own objects
come before the libraries on the link line, so the linker never pulls the original object
(which defines exactly the same symbols) out of its library.
"""

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
