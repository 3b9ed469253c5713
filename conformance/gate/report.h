// What the gate prints after the checks: one row per suite (passed, failed, known, skipped,
// time), the requirement ids the run covered and those whose every check passed, and one line
// per failure with its requirement ids, expected and actual. Pure functions over the records, so
// the exact text is tested without running a suite.
#ifndef CONFORMANCE_GATE_REPORT_H_
#define CONFORMANCE_GATE_REPORT_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "conformance/gate/record.h"

namespace azure_pricing::conformance {

struct LevelTally {
  int passed = 0;
  int failed = 0;
  int known = 0;
};

struct SuiteSummary {
  std::string suite;
  LevelTally required;
  LevelTally recommended;
  int skipped = 0;  // of either level: a skip fails the gate whatever it would have checked
  double seconds = 0;
};

// One summary per suite, in the order the suites first appear in `records`; `seconds` is the
// suite's wall time where the gate measured it, else the sum of its records' times.
std::vector<SuiteSummary> Summarize(const std::vector<GateRecord>& records,
                                    const std::map<std::string, double>& suite_seconds);

// The table, with a total row:
//                 ------- REQUIRED -------  ----- RECOMMENDED ----
//   suite          passed  failed   known   passed  failed   known skipped      time
//   kind              245       0       0       34       3       0       0      3.1s
// The total row's time is `wall_seconds` when given (the gate runs some suites side by side, so
// their times overlap), else the suites' sum.
std::string SummaryTable(const std::vector<SuiteSummary>& summaries,
                         std::optional<double> wall_seconds = std::nullopt);

// An implemented catalog id and the level of the checks it makes: REQUIRED for a MUST,
// RECOMMENDED for a SHOULD (docs/profile.md, PROFILE-012).
struct ImplementedId {
  std::string id;
  Level level = Level::kRequired;
};

// The ids of one level a check of this run cites, and those all of whose checks passed.
struct LevelCoverage {
  std::vector<std::string> covered;
  std::vector<std::string> passing;
};

struct RequirementCoverage {
  int implemented = 0;  // ids the catalog marks implemented
  LevelCoverage required;
  LevelCoverage recommended;
  std::vector<std::string> not_covered;

  int Covered() const {
    return static_cast<int>(required.covered.size() + recommended.covered.size());
  }
};

// Checks of the gate itself (suite "gate") and the catalog check cite nothing.
RequirementCoverage ComputeRequirementCoverage(const std::vector<ImplementedId>& implemented,
                                               const std::vector<GateRecord>& records);

// The levels apart, so a RECOMMENDED id not met never reads as something REQUIRED failing:
// "requirements: 153 of 156 implemented ids covered by this run; REQUIRED 140, all passing;
// RECOMMENDED 13, 12 met", then (when `list_uncovered`) "; not covered: ID ID ...".
std::string CoverageLine(const RequirementCoverage& coverage, bool list_uncovered = true);

// One line for a failed record:
//   FAIL kind/arg-missing-filter [ARG-001 ARG-002] expected refused/missing_filter, actual
//   completed: <detail>
// A RECOMMENDED record says so after its id.
std::string FailureLine(const GateRecord& record);

// The lines under a failure line that let a reader judge it without the case file: what the
// check gave the implementation ("inputs: {...}"), cut at `limit` bytes, with where the whole
// value is. Empty when the record has no inputs.
std::string InputsLines(const GateRecord& record, size_t limit = 600);

// The records that fail the gate: failed and REQUIRED, or skipped.
int CountGateFailures(const std::vector<GateRecord>& records);

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_GATE_REPORT_H_
