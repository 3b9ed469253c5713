"""The exhaustive test tier: one list, each test with the fast-tier test that covers it.

`tools/bazel test //...` is the fast tier: .bazelrc leaves out tests tagged `exhaustive`, which
re-prove facts that cannot change per change. `tools/bazel test --config=exhaustive //...` runs
both tiers (CI's .ci/run does). A test is tagged `exhaustive` where it is declared, and listed
here with its companion: a fast-tier test that keeps the same behaviour checked on every change.
//tools/tiers:tiers_test fails when a tagged test is not listed, a listed one is not tagged, or a
companion is missing or exhaustive itself (docs/development.md, "Two test tiers").
"""

EXHAUSTIVE_TESTS = {
    "//conformance/backend/broken_backends:broken_backends_test": struct(
        companion = "//conformance/backend/broken_backends:broken_backends_sample_test",
        why = "Mutation testing of the backend suite: every broken backend against its probe. " +
              "The companion runs the first of each probe group, and the control (the " +
              "unweakened adapter passes every aimed probe) in full.",
    ),
    "//conformance/backend/stacks:bubblewrap_mitmproxy_test": struct(
        companion = "//conformance/backend/stacks:bubblewrap_mitmproxy_smoke_test",
        why = "Every probe against the bubblewrap + mitmproxy stack: a verdict on packages that " +
              "change only with Debian's versions (which key the test). The companion runs " +
              "exec, isolation and egress probes through the same adapter and proxy.",
    ),
    "//conformance/backend/stacks:bubblewrap_squid_test": struct(
        companion = "//conformance/backend/stacks:bubblewrap_squid_smoke_test",
        why = "Every probe against the bubblewrap + squid stack. The companion runs exec, " +
              "isolation and egress probes through the same adapter and squid.conf.",
    ),
    "//conformance/backend/stacks:firejail_failed_bind_pitfall_test": struct(
        companion = "//conformance/backend/stacks:firejail_failed_bind_pitfall_probe_test",
        why = "The whole verdict on firejail binding /tmp before the image's /etc; the " +
              "companion runs isolation.host_files alone.",
    ),
    "//conformance/backend/stacks:firejail_mitmproxy_test": struct(
        companion = "//conformance/backend/stacks:firejail_squid_smoke_test",
        why = "Every probe against the firejail + mitmproxy stack. The companion runs exec, " +
              "isolation and egress probes through the same firejail sandbox; " +
              "bubblewrap_mitmproxy_smoke_test does the same through the same mitmproxy addon.",
    ),
    "//conformance/backend/stacks:firejail_no_chroot_pitfall_test": struct(
        companion = "//conformance/backend/stacks:firejail_no_chroot_pitfall_probe_test",
        why = "The whole verdict on firejail over the host's root; the companion runs " +
              "isolation.host_files alone.",
    ),
    "//conformance/backend/stacks:firejail_squid_test": struct(
        companion = "//conformance/backend/stacks:firejail_squid_smoke_test",
        why = "Every probe against the firejail + squid stack: a verdict on packages that " +
              "change only with Debian's versions (which key the test). The companion runs " +
              "exec, isolation and egress probes through the same adapter and proxy.",
    ),
    "//conformance/backend/stacks:mitmproxy_normalized_method_pitfall_test": struct(
        companion = "//conformance/backend/stacks:mitmproxy_normalized_method_pitfall_probe_test",
        why = "The whole verdict on the weakened addon; the companion runs the probe that " +
              "catches it, egress.method_case, alone.",
    ),
    "//conformance/backend/stacks:squid_relaxed_header_parser_pitfall_test": struct(
        companion = "//conformance/backend/stacks:squid_relaxed_header_parser_pitfall_probe_test",
        why = "The whole verdict on squid with relaxed_header_parser on; the companion runs " +
              "egress.method_case alone.",
    ),
    "//conformance/backend/stacks:squid_via_pitfall_test": struct(
        companion = "//conformance/backend/stacks:squid_via_pitfall_probe_test",
        why = "The whole verdict on squid adding Via and X-Cache; the companion runs " +
              "egress.response_unchanged alone.",
    ),
    "//conformance/gate:lax_adapter_test": struct(
        companion = "//conformance/gate:lax_adapter_protocol_test",
        why = "A lax protocol server judged by all 62 probes, for the backend's whole verdict. " +
              "The companion runs the protocol probes that catch it (--filter); the verdict on " +
              "a failing adapter is held by docs/certify-sandbox.md's example-adapter run.",
    ),
    "//conformance/html_report/browser:recorded_runs_browser_test": struct(
        companion = "//conformance/html_report/browser:report_pages_browser_test",
        why = "The report pages of five real gate runs in chromium: its cost is the runs (a " +
              "whole gate run and four kind runs through testees), not the browser. The " +
              "companion renders written reports holding every result, both levels, three " +
              "suites, long values and runs that differ, and makes the same checks.",
    ),
    "//conformance/source_mutants:wrong_testees_test": struct(
        companion = "//conformance/source_mutants:wrong_testees_sample_test",
        why = "Mutation testing of the gate: 13 wrong testees measure how well the cases catch " +
              "slips. The companion runs one per area (one_per_area in wrong_testee.bzl), " +
              "and the gate's own behaviour is held by the kind and catalog tests.",
    ),
    "//conformance/stack:stack_load_test": struct(
        companion = "//conformance/stack:stack_concurrency_test",
        why = "1,000 lookups buy no fact that 64 at the same concurrency (16) do not: the " +
              "companion makes the same checks (no cross-talk, nothing left behind).",
    ),
    "//conformance/stack:upstream_faults_real_cli_test": struct(
        companion = "//conformance/stack:upstream_faults_test",
        why = "Every fault through the whole stack with the pinned real CLI. The companion runs " +
              "every fault through the same stack with the fake CLI, which the sampled " +
              "differential holds to the real one under each kind of fault.",
    ),
    "//fakes/azmcp:differential_test": struct(
        companion = "//fakes/azmcp:differential_sample_test",
        why = "176 starts of the real CLI, pinned by sha256: only a pin change can change what " +
              "they prove. The companion runs one scenario per category against the real CLI, " +
              "and //fakes/azmcp:recorded_differential_test holds the fake to every recording.",
    ),
    "//tools/cli_versions:cli_diff_pinned_test": struct(
        companion = "//tools/cli_versions:cli_diff_test",
        why = "352 starts of the previous and the current real CLI, both pinned by sha256: only " +
              "a pin change can change what the comparison finds. The companion holds the " +
              "report's form, its exit statuses and bad inputs on folders it writes, and " +
              "//fakes/azmcp:differential_sample_test runs the real CLI on every change.",
    ),
}
