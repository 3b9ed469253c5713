// The conformance gate: runs every case against the implementation under test, checks the
// requirement catalog's coverage, prints what failed and a closing tally, and exits non-zero
// when anything is wrong. `tools/bazel run //conformance:gate [-- --verbose]`.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>

#include "conformance/case_runner.h"
#include "conformance/catalog.h"

namespace azure_pricing::conformance {
namespace {

int Main(int argc, char** argv) {
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--verbose") == 0) {
      verbose = true;
    } else if (std::strcmp(argv[i], "--help") == 0) {
      std::printf("usage: gate [--verbose]\nRuns the conformance cases and the catalog check.\n");
      return 0;
    } else {
      std::fprintf(stderr, "gate: unknown option %s\n", argv[i]);
      return 64;
    }
  }
  std::printf("azure-pricing-conformance gate\n");
  std::printf("implementation: reference (in process)\n\n");

  const std::optional<Catalog> catalog = LoadCatalog("conformance/requirements.json");
  if (!catalog) {
    std::printf("FAIL: conformance/requirements.json is missing or malformed\n");
    std::printf("0 passed, 1 failed\n");
    return 1;
  }

  int passed = 0, failed = 0;
  std::map<std::string, std::set<std::string>> citations;
  std::printf("cases\n");
  for (const std::string& file : CaseFiles()) {
    int file_passed = 0, file_failed = 0;
    for (const CaseResult& r : RunCaseFile(file)) {
      if (r.passed) {
        ++file_passed;
      } else {
        ++file_failed;
      }
      if (!r.passed || verbose) {
        std::printf("  %s %s: %s\n", r.passed ? "ok  " : "FAIL", r.id.c_str(),
                    r.passed ? "" : r.detail.c_str());
      }
      for (const std::string& id : r.requirements) citations["case " + r.id].insert(id);
    }
    std::printf("  %-36s %3d passed, %d failed\n", file.c_str(), file_passed, file_failed);
    passed += file_passed;
    failed += file_failed;
  }

  const TestCitations tests = ReadTestCitations(TestSourceFiles());
  citations.insert(tests.by_source.begin(), tests.by_source.end());
  const Coverage coverage = ComputeCoverage(*catalog, citations);

  int implemented = 0;
  std::map<int, int> pending_by_issue;
  for (const Requirement& r : catalog->requirements) {
    if (r.pending_issue) {
      ++pending_by_issue[*r.pending_issue];
    } else {
      ++implemented;
    }
  }
  std::printf("\nrequirements: %zu in the catalog\n", catalog->requirements.size());
  std::printf("  implemented %3d, cited by a case or test: %d\n", implemented,
              implemented - static_cast<int>(coverage.uncited.size()));
  std::string pending_text;
  for (const auto& [issue, count] : pending_by_issue) {
    if (!pending_text.empty()) pending_text += ", ";
    pending_text += "issue " + std::to_string(issue) + ": " + std::to_string(count);
  }
  std::printf("  pending     %3zu (%s)\n",
              catalog->requirements.size() - static_cast<size_t>(implemented),
              pending_text.c_str());
  if (verbose) {
    for (const Requirement& r : catalog->requirements) {
      const auto it = coverage.cited_by.find(r.id);
      std::printf("  %-12s %-6s %3zu citation(s)%s\n", r.id.c_str(), r.level.c_str(),
                  it == coverage.cited_by.end() ? 0 : it->second.size(),
                  r.pending_issue
                      ? (" (pending issue " + std::to_string(*r.pending_issue) + ")").c_str()
                      : "");
    }
  }
  // Catalog checks count like cases: each one that does not hold is a failure.
  for (const std::string& id : coverage.uncited) {
    std::printf("  FAIL %s is implemented but no case or test cites it\n", id.c_str());
    ++failed;
  }
  for (const std::string& id : coverage.unknown) {
    std::printf("  FAIL %s is cited but not in the catalog\n", id.c_str());
    ++failed;
  }
  for (const std::string& id : coverage.pending_but_cited) {
    std::printf("  FAIL %s is cited but marked pending: update the catalog\n", id.c_str());
    ++failed;
  }
  for (const std::string& problem : tests.problems) {
    std::printf("  FAIL malformed citation: %s\n", problem.c_str());
    ++failed;
  }
  const int catalog_checks = 4;
  const int catalog_failures =
      static_cast<int>(coverage.uncited.size() + coverage.unknown.size() +
                       coverage.pending_but_cited.size() + tests.problems.size());
  if (catalog_failures == 0) passed += catalog_checks;

  std::printf("\n%s\n", failed == 0 ? "gate: PASS" : "gate: FAIL");
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace
}  // namespace azure_pricing::conformance

int main(int argc, char** argv) { return azure_pricing::conformance::Main(argc, argv); }
