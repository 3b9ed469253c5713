// The conformance gate: runs the selected suites (conformance/gate/suites/, listed once in
// suites/suites.h) against the implementation under test and a sandbox backend, prints a
// summary table, requirement coverage and one line per failure, and exits non-zero unless every
// required check passed with zero skips. `tools/bazel run //conformance:gate [-- --help]`.
//
// Options in, suites run, records out, report printed.
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "conformance/catalog/catalog.h"
#include "conformance/gate/conclusion.h"
#include "conformance/gate/implementation.h"
#include "conformance/gate/options.h"
#include "conformance/gate/profile_version.h"
#include "conformance/gate/run.h"
#include "conformance/gate/run_suites.h"
#include "conformance/gate/suite_registry.h"
#include "ref/base/main_guard.h"
#include "ref/pricing/package.h"

namespace azure_pricing::conformance {
namespace {

constexpr char kCatalogPath[] = "conformance/requirements.json";

// The run's header after who is judged: the CLI it was modelled on, the filter and the shard.
void PrintRunHeader(const GateOptions& options) {
  std::printf("%s\n", kCliProvenanceLine);
  if (options.filter) std::printf("filter: %s\n", options.filter_text.c_str());
  if (options.shard_count > 1) {
    std::printf("shard: %llu of %llu\n", static_cast<unsigned long long>(options.shard_index),
                static_cast<unsigned long long>(options.shard_count));
  }
}

// The version of the profile whose demands this run applies (the cases read its facts from the
// same file), printed first so a reader of any transcript knows which change list applies.
void ReadProfileVersion(GateRun& run) {
  const StatusOr<std::string> version = LoadProfileVersion();
  if (!version.ok()) {
    std::printf("profile: %s, version unknown\n", judge::kProfilePath);
    run.GateFailure("profile-version", version.status().message());
    return;
  }
  run.profile_version = *version;
  std::printf("profile: %s version %s\n", judge::kProfilePath, version->c_str());
}

int Main(int argc, char** argv) {
  std::string problem;
  const StatusOr<GateOptions> options = ParseGateOptions(argc, argv, GateSuites(), &problem);
  if (!options.ok()) {
    std::fprintf(stderr, "gate: %s\n%s", problem.c_str(), GateUsage(GateSuites()).c_str());
    return 64;
  }
  if (options->help) {
    std::printf("%s", GateUsage(options->registry).c_str());
    return 0;
  }
  if (options->list_suites) {
    std::printf("%s", SuiteListing(options->registry).c_str());
    return 0;
  }
  std::printf("azure-pricing-conformance gate\n");
  GateRun run{.options = *options};
  ReadProfileVersion(run);
  const std::optional<Catalog> catalog = LoadCatalog(kCatalogPath);
  if (!catalog) run.GateFailure("catalog-file", std::string(kCatalogPath) + " is missing or malformed");
  for (const Requirement& r : catalog ? catalog->requirements : std::vector<Requirement>{}) {
    if (r.level == "SHOULD") run.should_only.insert(r.id);
  }
  run.catalog = catalog ? &*catalog : nullptr;
  std::unique_ptr<testee::TesteeProcess> testee = StartImplementation(run);
  PrintRunHeader(*options);
  const auto start = std::chrono::steady_clock::now();
  RunSuites(run, testee.get());
  run.wall_seconds = SecondsSince(start);
  testee.reset();  // its stop line is validated too
  ConcludeRun(run);
  return PrintVerdict(run);
}

}  // namespace
}  // namespace azure_pricing::conformance

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("gate", [&] { return azure_pricing::conformance::Main(argc, argv); });
}
