// The conformance gate: runs every case against the implementation under test, checks the
// requirement catalog's coverage, lists the reason codes no case reaches, prints what failed and
// a closing tally, and exits non-zero when anything is wrong.
// `tools/bazel run //conformance:gate [-- --verbose]`.
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "conformance/case_runner.h"
#include "conformance/catalog.h"
#include "ref/pricing/package.h"
#include "ref/pricing/reasons.h"

namespace azure_pricing::conformance {
namespace {

constexpr char kCatalogPath[] = "conformance/requirements.json";

struct Options {
  bool verbose = false;
  bool help = false;
};

// nullopt (after saying why) for an unknown option.
std::optional<Options> ParseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--verbose") == 0) {
      options.verbose = true;
    } else if (std::strcmp(argv[i], "--help") == 0) {
      options.help = true;
    } else {
      std::fprintf(stderr, "gate: unknown option %s\n", argv[i]);
      return std::nullopt;
    }
  }
  return options;
}

// Checks count like cases: each that holds is a pass, each thing wrong a failure.
struct Tally {
  int passed = 0;
  int failed = 0;
  void Fail(const std::string& what) {
    std::printf("  FAIL %s\n", what.c_str());
    ++failed;
  }
};

using Citations = std::map<std::string, std::set<std::string>>;

// Runs every case file; adds each case's requirements to `citations` and its expected
// (outcome, reason) to `reached`.
void RunCases(const Options& options, Tally& tally, Citations& citations,
              std::set<std::pair<std::string, std::string>>& reached) {
  std::printf("cases\n");
  const std::vector<std::string> files = CaseFiles();
  if (files.empty()) tally.Fail(std::string("no case files in ") + kCaseDirectory);
  for (const std::string& file : files) {
    int file_passed = 0, file_failed = 0;
    for (const CaseResult& r : RunCaseFile(file)) {
      ++(r.passed ? file_passed : file_failed);
      if (!r.passed || options.verbose) {
        std::printf("  %s %s: %s\n", r.passed ? "ok  " : "FAIL", r.id.c_str(), r.detail.c_str());
      }
      for (const std::string& id : r.requirements) citations["case " + r.id].insert(id);
      reached.insert({r.expected_outcome, r.expected_reason});
    }
    std::printf("  %-36s %3d passed, %d failed\n", file.c_str(), file_passed, file_failed);
    tally.passed += file_passed;
    tally.failed += file_failed;
  }
}

// Informational: a reason no case expects is behaviour the cases do not pin down (unit tests may
// still cover it), not a failure of the implementation.
void PrintUnreachedReasons(const std::set<std::pair<std::string, std::string>>& reached) {
  std::string unreached;
  int count = 0;
  for (const reasons::ReasonCode& r : reasons::kAll) {
    const std::pair<std::string, std::string> key(OutcomeName(r.outcome), r.code);
    if (reached.count(key) != 0) continue;
    unreached += std::string(count++ == 0 ? "" : ", ") + key.first + "/" + key.second;
  }
  std::printf("\nreasons not reached by any case: %d of %zu%s%s\n", count, reasons::kAll.size(),
              count == 0 ? "" : ": ", unreached.c_str());
}

void PrintRequirements(const Catalog& catalog, const Coverage& coverage, bool verbose) {
  int implemented = 0;
  std::map<int, int> pending_by_issue;
  for (const Requirement& r : catalog.requirements) {
    if (r.pending_issue) {
      ++pending_by_issue[*r.pending_issue];
    } else {
      ++implemented;
    }
  }
  std::printf("\nrequirements: %zu in the catalog\n", catalog.requirements.size());
  std::printf("  implemented %3d, cited by a case or test: %d\n", implemented,
              implemented - static_cast<int>(coverage.uncited.size()));
  std::string pending_text;
  for (const auto& [issue, count] : pending_by_issue) {
    if (!pending_text.empty()) pending_text += ", ";
    pending_text += "issue " + std::to_string(issue) + ": " + std::to_string(count);
  }
  std::printf("  pending     %3zu (%s)\n",
              catalog.requirements.size() - static_cast<size_t>(implemented), pending_text.c_str());
  if (!verbose) return;
  for (const Requirement& r : catalog.requirements) {
    const auto it = coverage.cited_by.find(r.id);
    std::string notes;
    if (r.pending_issue) notes += " (pending issue " + std::to_string(*r.pending_issue) + ")";
    if (r.observed_on) notes += " (observed on " + *r.observed_on + ")";
    std::printf("  %-12s %-6s %3zu citation(s)%s\n", r.id.c_str(), r.level.c_str(),
                it == coverage.cited_by.end() ? 0 : it->second.size(), notes.c_str());
  }
}

// The catalog's four checks: every implemented id cited, every cited id known, no pending id
// claimed, every CITES declaration well formed.
void CheckCatalog(const Catalog& catalog, const Options& options, Citations citations,
                  Tally& tally) {
  const TestCitations tests = ReadTestCitations(TestSourceFiles());
  citations.insert(tests.by_source.begin(), tests.by_source.end());
  const Coverage coverage = ComputeCoverage(catalog, citations);
  PrintRequirements(catalog, coverage, options.verbose);
  const int failed_before = tally.failed;
  for (const std::string& id : coverage.uncited) {
    tally.Fail(id + " is implemented but no case or test cites it");
  }
  for (const std::string& id : coverage.unknown) tally.Fail(id + " is cited but not in the catalog");
  for (const std::string& id : coverage.pending_but_cited) {
    tally.Fail(id + " is cited but marked pending: update the catalog");
  }
  for (const std::string& problem : tests.problems) tally.Fail("malformed citation: " + problem);
  if (tally.failed == failed_before) tally.passed += 4;
}

int Main(int argc, char** argv) {
  const std::optional<Options> options = ParseOptions(argc, argv);
  if (!options) return 64;
  if (options->help) {
    std::printf("usage: gate [--verbose]\nRuns the conformance cases and the catalog check.\n");
    return 0;
  }
  std::printf("azure-pricing-conformance gate\n");
  std::printf("implementation: reference (in process), %s %s\n", kPackageName, kPackageVersion);
  std::printf("%s\n\n", kCliProvenanceLine);
  Tally tally;
  const std::optional<Catalog> catalog = LoadCatalog(kCatalogPath);
  if (!catalog) {
    tally.Fail(std::string(kCatalogPath) + " is missing or malformed");
  } else {
    Citations citations;
    std::set<std::pair<std::string, std::string>> reached;
    RunCases(*options, tally, citations, reached);
    PrintUnreachedReasons(reached);
    CheckCatalog(*catalog, *options, std::move(citations), tally);
  }
  std::printf("\n%s\n", tally.failed == 0 ? "gate: PASS" : "gate: FAIL");
  std::printf("%d passed, %d failed\n", tally.passed, tally.failed);
  return tally.failed == 0 ? 0 : 1;
}

}  // namespace
}  // namespace azure_pricing::conformance

int main(int argc, char** argv) { return azure_pricing::conformance::Main(argc, argv); }
