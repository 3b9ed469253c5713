// The gate's suites as data: each suite says its name, what it judges and how it runs, and the
// gate's command line (--suite, its error, the usage text, --list-suites), its dispatch and the
// Bazel targets (conformance/gate/suite_tests.bzl, held to --list-suites by a test) all read this
// one list. Adding a suite is a file in conformance/gate/suites/, its two lines in suites/suites.h
// and a line in suite_tests.bzl.
#ifndef CONFORMANCE_GATE_SUITE_REGISTRY_H_
#define CONFORMANCE_GATE_SUITE_REGISTRY_H_

#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace azure_pricing::conformance {

struct GateRun;  // conformance/gate/run.h: what a suite reads (the options) and adds to

// What a suite judges, which decides what the gate starts for it and whose verdict it is part of.
enum class SuiteJudges {
  // The tool: the reference in process, or the --testee process. These suites together are a
  // testee's whole verdict, and a broken testee skips them.
  kImplementation,
  // A sandbox backend: the reference bubblewrap adapter, or --backend-adapter. A run of these
  // suites alone is the backend's verdict, and judges no implementation.
  kBackend,
  // The reference tool on the local stack (bubblewrap, the egress proxy, azmcp, the fake API).
  kStack,
  // The harness itself (the requirement catalog): it starts nothing.
  kHarness,
};

struct Suite {
  std::string_view name;
  // One line for the usage text and --list-suites: at most kMaxDescription bytes, so that the
  // usage text stays within 100 columns.
  std::string_view description;
  bool in_all;  // run by `--suite all`, the default
  SuiteJudges judges;
  std::string_view alias;  // another accepted spelling of the name; empty for none
  // Prints the suite's heading and lines and adds its records; the gate times it.
  void (*run)(GateRun& run);
};

inline constexpr size_t kMaxDescription = 68;

// The suites in the order the gate runs and reports them.
using SuiteList = std::span<const Suite* const>;

// The gate's suites (suites::kAll, conformance/gate/suites/suites.h).
SuiteList GateSuites();

const Suite* FindSuite(SuiteList suites, std::string_view name_or_alias);

// The names a --suite value selects: `all` (every suite in_all), names and aliases, separated by
// commas. An unknown word sets `problem` to SuiteListProblem.
std::set<std::string> ParseSuiteList(SuiteList suites, std::string_view text, std::string& problem);

// "--suite is all, or a comma-separated list of kind, catalog, ..."
std::string SuiteListProblem(SuiteList suites);

// The usage text's lines for --suite, each ending in a newline.
std::string SuiteUsage(SuiteList suites);

// --list-suites: one line per suite, `NAME<TAB>DESCRIPTION`, in order; a suite `all` leaves out
// says so after its description, as " (not in all)".
std::string SuiteListing(SuiteList suites);

// "the kind and properties suites": the suites of `suites` that judge `judges`.
std::string SuitesPhrase(SuiteList suites, SuiteJudges judges);
// "the backend suite", "the backend and catalog suites": `names`, in their order.
std::string SuitesPhrase(const std::vector<std::string_view>& names);

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_GATE_SUITE_REGISTRY_H_
