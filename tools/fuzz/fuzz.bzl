"""One fuzz target as three rules: NAME_target, NAME_corpus_test and NAME_fuzzer."""

def fuzz_target(name, srcs, deps, corpus):
    """The library holding LLVMFuzzerTestOneInput, a test that replays `corpus` (labels of files)
    with corpus_main.cc under any compiler, and the libFuzzer binary (manual: it links only with
    --config=clang --config=fuzz)."""
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
