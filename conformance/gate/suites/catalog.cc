// The catalog suite: conformance/requirements.json against every id the cases, the backend
// suite's probes, the properties and the test sources cite. It judges the harness, not an
// implementation, so it starts nothing and reads the cases without running them.
#include "conformance/catalog/catalog.h"

#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "conformance/backend/suite.h"
#include "conformance/cases/case_runner.h"
#include "conformance/gate/run.h"
#include "conformance/gate/suites/suites.h"
#include "conformance/properties/gate_properties.h"

namespace azure_pricing::conformance::suites {
namespace {

using Citations = std::map<std::string, std::set<std::string>>;

// Every case's requirements (and its wording record's, for a case that states the wording),
// every probe's and every property's, whichever suites this run runs.
Citations CheckCitations() {
  Citations citations;
  for (const backend::ProbeInfo& probe : backend::BackendProbes()) {
    for (const std::string& id : probe.requirements) citations["probe " + probe.id].insert(id);
  }
  for (const properties::GatePropertyInfo& p : properties::GateProperties()) {
    for (const std::string& id : p.requirements) citations["property " + p.id].insert(id);
  }
  // Each case's requirements, read from the loaded case without running it.
  for (const std::string& file : CaseFiles()) {
    for (const CaseResult& r : DescribeCaseFile(file)) {
      for (const std::string& id : r.requirements) citations["case " + r.id].insert(id);
      if (r.has_wording) citations["case " + r.id + kWordingSuffix].insert(kWordingRequirement);
    }
  }
  return citations;
}

void PrintCatalog(const Catalog& catalog, const Coverage& coverage, bool verbose) {
  const size_t total = catalog.requirements.size();
  std::printf("  %zu requirements, %zu cited by a case, probe, property or test\n", total,
              total - coverage.uncited.size());
  if (!verbose) return;
  for (const Requirement& r : catalog.requirements) {
    const auto it = coverage.cited_by.find(r.id);
    std::string notes;
    if (r.observed_on) notes += " (observed on " + *r.observed_on + ")";
    std::printf("  %-12s %-6s %3zu citation(s)%s\n", r.id.c_str(), r.level.c_str(),
                it == coverage.cited_by.end() ? 0 : it->second.size(), notes.c_str());
  }
}

// The catalog's three checks, each a record: every id cited, every cited id known, every CITES
// declaration well formed. A catalog that did not load is
// already a failure of the gate's own.
void RunCatalog(GateRun& run) {
  if (run.catalog == nullptr) return;
  std::printf("\ncatalog\n");
  Citations citations = CheckCitations();
  const TestCitations tests = ReadTestCitations(TestSourceFiles());
  citations.insert(tests.by_source.begin(), tests.by_source.end());
  const Coverage coverage = ComputeCoverage(*run.catalog, citations);
  PrintCatalog(*run.catalog, coverage, run.options.verbose);
  auto check = [&run](const char* id, const std::vector<std::string>& problems,
                      const std::string& what) {
    if (!run.options.Selected("catalog", id)) return;
    std::string detail;
    for (const std::string& p : problems) detail += (detail.empty() ? "" : "; ") + p + what;
    run.Add({.suite = "catalog",
             .id = id,
             .verdict = problems.empty() ? Verdict::kPassed : Verdict::kFailed,
             .detail = detail});
  };
  check("catalog-implemented-ids-cited", coverage.uncited, " is in the catalog but nothing cites it");
  check("catalog-cited-ids-known", coverage.unknown, " is cited but not in the catalog");
  check("catalog-citations-well-formed", tests.problems, "");
}

}  // namespace

const Suite kCatalog = {
    .name = "catalog",
    .description = "the requirement catalog against the ids the cases and tests cite",
    .in_all = true,
    .judges = SuiteJudges::kHarness,
    .run = RunCatalog};

}  // namespace azure_pricing::conformance::suites
