"""The documents whose transcripts a test holds to the programs' output: one registry.

Each entry makes a py_test that runs docs/transcript_check.py on the document, with every
program its commands name (`tools/bazel run LABEL` in a transcript runs LABEL's binary of this
build). An entry's `replays` names, per program, recorded runs of it (recorded_run in
tools/build/recorded_run.bzl): a command with a record's exact arguments reads that record
instead of running again, so a run that several tests need happens once per build.
//docs:transcript_lint_test reads the same list, so a document with a transcript that no
entry holds fails the lint. `tools/docs/refresh_transcripts` refreshes every entry.
"""

load("//tools/build:azmcp.bzl", "REAL_AZMCP_DATA", "REAL_AZMCP_ENV")

DOC_TRANSCRIPTS = {
    # Two backend-only gate runs (the reference in bubblewrap, the Python skeleton): about 35 s.
    "backend_protocol_doc_test": struct(
        doc = "//conformance/backend/protocol:PROTOCOL.md",
        bins = ["//conformance/backend/protocol:print_transcript"],
        # `bazel run` passes print_transcript the adapter it drives; the test does the same.
        bin_args = {"//conformance/backend/protocol:print_transcript": ["//conformance/backend/protocol:fake_adapter"]},
        data = ["//conformance/backend/protocol:fake_adapter"],
        size = "small",
        tags = [],
    ),
    # The reference's backend run is the record adapter_suite_test reads too; the example
    # adapter's run is this page's own.
    "certify_sandbox_test": struct(
        doc = "//docs:certify-sandbox.md",
        bins = ["//conformance:gate"],
        replays = {"//conformance:gate": ["//conformance/gate:backend_run"]},
        data = ["//conformance/backend/protocol:example_adapter.py"],
        size = "medium",
        tags = ["requires-user-namespaces"],
    ),
    "components_doc_test": struct(
        doc = "//docs:components.md",
        bins = ["//fakes/prices_server:generate_catalog", "//fakes/prices_server:prices_server"],
        data = [],
        size = "medium",
        tags = [],
    ),
    "development_doc_test": struct(
        doc = "//docs:development.md",
        bins = ["//conformance:gate", "//tools:azure_pricing"],
        data = [],
        size = "small",
        tags = [],
    ),
    # The whole gate, every suite, as a user runs it: the record stack_suite_test reads too
    # (conformance/BUILD says why it runs outside Bazel's sandbox).
    "gate_doc_test": struct(
        doc = "//docs:gate.md",
        bins = ["//conformance:gate"],
        replays = {"//conformance:gate": ["//conformance/gate:whole_run"]},
        data = [],
        size = "small",
        tags = ["requires-user-namespaces"],  # the record's
    ),
    # Six gate runs over a pipe to a Python process, two of them the kind and properties suites
    # through the reference and the variant testee: about 90 s on 2 cores.
    "implementers_test": struct(
        doc = "//docs:implementers.md",
        bins = ["//conformance:gate", "//conformance/testee:reference_testee"],
        data = [
            "//conformance/testee/python:minimal_testee.py",
            "//conformance/testee/variant:variant_testee.py",
        ],
        size = "large",
        tags = [],
    ),
    # The whole dry run is the record live_check_test judges.
    "live_check_doc_test": struct(
        doc = "//docs:live-check.md",
        bins = ["//tools:live_check", "//tools:zone_drift"],
        replays = {"//tools:live_check": ["//tools:live_check_dry_run"]},
        data = [],
        size = "small",
        tags = ["requires-user-namespaces"],
    ),
    # The example's run against its known-failures list is the record minimal_testee_test
    # judges.
    "protocols_doc_test": struct(
        doc = "//docs:protocols.md",
        bins = ["//conformance:gate", "//conformance/testee:print_transcript"],
        replays = {"//conformance:gate": ["//conformance/testee/python:known_failures_gate_run"]},
        # `bazel run` passes print_transcript the testee it talks to; the test does the same.
        bin_args = {"//conformance/testee:print_transcript": ["//conformance/testee:reference_testee"]},
        data = [
            "//conformance/testee:reference_testee",
            "//conformance/testee/python:known_failures.json",
            "//conformance/testee/python:minimal_testee.py",
        ],
        size = "medium",
        tags = [],
    ),
    "reference_doc_test": struct(
        doc = "//docs:reference.md",
        bins = ["//tools:azure_pricing", "//tools:zones"],
        data = [
            "//fixtures:azmcp_recordings",
            "//fixtures:azmcp_out_of_memory_recording",
        ],
        size = "medium",
        tags = ["requires-user-namespaces"],
    ),
    "testee_protocol_doc_test": struct(
        doc = "//conformance/testee:PROTOCOL.md",
        bins = ["//conformance:gate", "//conformance/testee:print_transcript"],
        bin_args = {"//conformance/testee:print_transcript": ["//conformance/testee:reference_testee"]},
        data = ["//conformance/testee:reference_testee"],
        size = "medium",
        tags = [],
    ),
}

# Documents the lint reads besides those above: the front door and every page of docs/.
LINTED_DOCS = ["//:README.md"]

def doc_transcript_tests(name = "transcript_lint_test"):
    """Declares a transcript test per DOC_TRANSCRIPTS entry, and the lint.

    Args:
      name: the lint test's name.
    """
    for test, t in DOC_TRANSCRIPTS.items():
        native.py_test(
            name = test,
            size = t.size,
            srcs = ["transcript_check.py"],
            main = "transcript_check.py",
            args = ["--doc", "$(rootpath %s)" % t.doc] + [
                "--bin=%s=%s" % (b, ",".join(["$(rootpath %s)" % x for x in [b] + getattr(t, "bin_args", {}).get(b, [])]))
                for b in t.bins
            ] + [
                # The azmcp versions read <azmcp version> (transcript_check.py, azmcp_masks).
                "--azmcp-version=$(rootpath //tools/image:azmcp-version)",
                "--azmcp-pins=$(rootpath //tools/image:azmcp-pins.tsv)",
            ] + [
                "--replay=%s=$(rootpath %s.argv)" % (b, record)
                for b, records in getattr(t, "replays", {}).items()
                for record in records
            ],
            data = [t.doc] + t.bins + t.data + REAL_AZMCP_DATA + [
                "//tools/image:azmcp-pins.tsv",
                "//tools/image:azmcp-version",
            ] + [
                file
                for records in getattr(t, "replays", {}).values()
                for record in records
                for file in [record, record + ".argv"]
            ],
            env = REAL_AZMCP_ENV,
            python_version = "PY3",
            tags = ["requires-real-azmcp", "transcript"] + t.tags,
        )
    docs = LINTED_DOCS + native.glob(["*.md"]) + [
        t.doc
        for t in DOC_TRANSCRIPTS.values()
        if not t.doc.startswith("//docs:")
    ]
    native.py_test(
        name = name,
        size = "small",
        srcs = ["transcript_check.py"],
        main = "transcript_check.py",
        args = [
            "--lint",
            "--front=$(rootpath //:README.md)",
            "--held=" + ",".join(["$(rootpath %s)" % t.doc for t in DOC_TRANSCRIPTS.values()]),
        ] + ["$(rootpath %s)" % d for d in docs],
        data = docs,
        python_version = "PY3",
    )
