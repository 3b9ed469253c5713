"""One fuzz target as three rules: NAME_target, NAME_corpus_test and NAME_fuzzer."""

def fuzz_target(name, srcs, deps, corpus):
    """Declares NAME_target, NAME_corpus_test and NAME_fuzzer.

    The library holds LLVMFuzzerTestOneInput; the test replays `corpus` (labels of files) with
    corpus_main.cc under any compiler; the libFuzzer binary is manual, since it links only with
    --config=clang --config=fuzz.

    Args:
      name: the target's base name.
      srcs: the sources defining LLVMFuzzerTestOneInput.
      deps: their dependencies.
      corpus: the seed files the corpus test replays.
    """
    native.cc_library(
        name = name + "_target",
        srcs = srcs,
        deps = deps,
        alwayslink = True,
    )
    native.cc_test(
        name = name + "_corpus_test",
        size = "small",
        srcs = ["corpus_main.cc"],
        args = ["$(locations %s)" % label for label in corpus],
        data = corpus,
        deps = [
            ":" + name + "_target",
            "//ref/base:files",
        ],
    )
    native.cc_binary(
        name = name + "_fuzzer",
        tags = ["manual"],
        deps = [":" + name + "_target"],
    )
