// The catalog suite: conformance/requirements.json against every id the cases, the backend
// suite's probes, the properties and the test sources cite. It judges the harness, not an
// implementation, so it starts nothing and reads the cases without running them.
#include "conformance/catalog.h"

#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "conformance/backend/suite.h"
#include "conformance/case_runner.h"
#include "conformance/gate_run.h"
#include "conformance/properties/gate_properties.h"
#include "conformance/suites/suites.h"

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
  // Selecting no case reads each one's requirements without making a call.
  const CallExecutor never = nullptr;
  const auto none = [](const std::string&) { return false; };
  for (const std::string& file : CaseFiles()) {
    for (const CaseResult& r : RunCaseFile(file, never, none)) {
      for (const std::string& id : r.requirements) citations["case " + r.id].insert(id);
      if (r.has_wording) citations["case " + r.id + kWordingSuffix].insert(kWordingRequirement);
    }
  }
  return citations;
}

void PrintCatalog(const Catalog& catalog, const Coverage& coverage, bool verbose) {
  int implemented = 0;
  for (const Requirement& r : catalog.requirements) implemented += r.pending_issue ? 0 : 1;
  std::printf("  %zu requirements, %d implemented, %d cited by a case, probe, property or test\n",
              catalog.requirements.size(), implemented,
              implemented - static_cast<int>(coverage.uncited.size()));
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

// The catalog's four checks, each a record: every implemented id cited, every cited id known,
// no pending id claimed, every CITES declaration well formed. A catalog that did not load is
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
  check("catalog-implemented-ids-cited", coverage.uncited,
        " is implemented but no case or test cites it");
  check("catalog-cited-ids-known", coverage.unknown, " is cited but not in the catalog");
  check("catalog-pending-ids-not-claimed", coverage.pending_but_cited,
        " is cited but marked pending: update the catalog");
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
