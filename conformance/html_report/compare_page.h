// Several gate runs side by side (`gate_report --compare A.json B.json ... -o FILE`), in
// Bowtie's shape: a matrix of checks by run, aligned by suite/id, with per-requirement totals
// and a "differs only" filter. Self-contained like the run page.
#ifndef CONFORMANCE_HTML_REPORT_COMPARE_PAGE_H_
#define CONFORMANCE_HTML_REPORT_COMPARE_PAGE_H_

#include <string>
#include <vector>

#include "conformance/catalog/catalog.h"
#include "conformance/gate/record.h"
#include "ref/status/status.h"

namespace azure_pricing::conformance::html_report {

struct NamedRun {
  std::string name;  // the file it came from, as the user gave it
  JsonReport report;
};

// A program error: the runs did not run the same suites, so their checks cannot be lined up.
inline constexpr Reason kRunsOfDifferentSuites = "runs_of_different_suites";

// Empty when every run ran the same suites; else one line naming each run's suites, for the
// error the caller prints: "a.json ran kind, backend; b.json ran kind".
std::string SuiteMismatch(const std::vector<NamedRun>& runs);

// Runs written by different gate or profile versions are lined up by suite/id all the same;
// each such difference is one warning line, also shown on the page.
std::vector<std::string> VersionWarnings(const std::vector<NamedRun>& runs);

// kRunsOfDifferentSuites when SuiteMismatch is not empty; `catalog` may be null (the totals then
// list only the ids the runs cite).
StatusOr<std::string> ComparePage(const std::vector<NamedRun>& runs, const Catalog* catalog);

}  // namespace azure_pricing::conformance::html_report

#endif  // CONFORMANCE_HTML_REPORT_COMPARE_PAGE_H_
