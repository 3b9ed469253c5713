#include "conformance/gate/conclusion.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "conformance/gate/known_failures.h"
#include "conformance/gate/record.h"
#include "conformance/gate/report.h"
#include "conformance/protocol_schema/validator.h"

namespace azure_pricing::conformance {
namespace {

// --validate-protocol's line, the first violations under it; any violation fails the run.
void ReportProtocolValidation(GateRun& run) {
  if (!run.options.protocol_recorder) return;
  const protocol_schema::LineRecorder::Tally tally = run.options.protocol_recorder->tally();
  std::printf("\n%s\n", protocol_schema::SummaryLine(tally).c_str());
  for (const std::string& described : tally.described) std::printf("  %s\n", described.c_str());
  if (tally.violations == 0) return;
  const std::string lines = tally.violations == 1
                                ? "1 protocol line breaks"
                                : std::to_string(tally.violations) + " protocol lines break";
  run.GateFailure("protocol-validation",
                  lines + " the JSON Schemas; the first: " + tally.described.front());
}

// Failures the list names, failing exactly as it says, become known; an entry that no longer
// holds is a failure of its own, with the command that rewrites the list.
void ApplyKnownFailureList(GateRun& run) {
  const GateOptions& o = run.options;
  if (o.known_failures.empty()) return;
  std::printf("\nknown failures: %s\n", o.known_failures_text.c_str());
  const StatusOr<KnownFailureList> known = LoadKnownFailures(o.known_failures);
  if (!known.ok()) {
    run.GateFailure("known-failures", known.status().message());
    return;
  }
  if (const std::string moved = ProfileMovedNotice(known->profile_version, run.profile_version);
      !moved.empty()) {
    std::printf("  %s\n", moved.c_str());
  }
  // A listed id of a suite this run left out, or that --filter excludes, is not held against it.
  const auto selected = [&run](const std::string& id) {
    for (const GateRecord& r : run.records) {
      if (r.id == id) return true;
    }
    return !run.options.Partial();
  };
  const std::vector<std::string> problems =
      ApplyKnownFailures(known->failures, run.records, selected);
  std::printf("  %zu listed, %zu do not hold\n", known->failures.size(), problems.size());
  for (const std::string& problem : problems) run.GateFailure("known-failures", problem);
  if (!problems.empty()) {
    std::printf("  rewrite it: rerun with --write-known-failures %s\n",
                o.known_failures_text.c_str());
  }
}

// The report files; one that cannot be written is a failure of the run, not a silent loss.
void WriteReports(GateRun& run) {
  const GateOptions& o = run.options;
  if (!o.write_known_failures.empty()) {
    if (WriteKnownFailures(o.write_known_failures, run.implementation, run.profile_version,
                           run.records)
            .ok()) {
      const auto listed =
          std::count_if(run.records.begin(), run.records.end(), ListedAsKnownFailure);
      std::printf("\nwrote %td known failures to %s (this run's verdict is unchanged)\n", listed,
                  o.write_known_failures.c_str());
    } else {
      run.GateFailure("reports", "cannot write --write-known-failures " + o.write_known_failures);
    }
  }
  const ReportHeader header = {.implementation = run.implementation,
                               .profile_version = run.profile_version};
  if (!o.json_report.empty() && !WriteJsonReport(o.json_report, header, run.records).ok()) {
    run.GateFailure("reports", "cannot write --json " + o.json_report);
  }
  if (!o.junit_report.empty() && !WriteJUnitReport(o.junit_report, header, run.records).ok()) {
    run.GateFailure("reports", "cannot write --junit " + o.junit_report);
  }
}

// One line per failure (with the case's inputs under it): first what fails the gate, then the
// RECOMMENDED checks not met, which do not.
void PrintFailures(const std::vector<GateRecord>& records) {
  for (const Level level : {Level::kRequired, Level::kRecommended}) {
    int listed = 0;
    for (const GateRecord& r : records) {
      const bool shown = r.verdict == Verdict::kSkipped
                             ? level == Level::kRequired
                             : r.verdict == Verdict::kFailed && r.level == level;
      if (!shown) continue;
      if (listed++ == 0) {
        std::printf("\n%s\n", level == Level::kRequired
                                   ? "failures"
                                   : "RECOMMENDED checks not met (they do not fail the gate)");
      }
      std::printf("  %s\n%s", FailureLine(r).c_str(), InputsLines(r).c_str());
    }
  }
}

}  // namespace

void ConcludeRun(GateRun& run) {
  ReportProtocolValidation(run);
  if (run.options.filter && run.records.empty()) {
    run.GateFailure("filter", "--filter " + run.options.filter_text + " selected no check");
  }
  ApplyKnownFailureList(run);
  WriteReports(run);
}

int PrintVerdict(const GateRun& run) {
  const Catalog* catalog = run.catalog;
  std::printf("\nsummary\n%s",
              SummaryTable(Summarize(run.records, run.suite_seconds), run.wall_seconds).c_str());
  if (catalog != nullptr) {
    std::vector<ImplementedId> implemented;
    for (const Requirement& r : catalog->requirements) {
      implemented.push_back(
          {.id = r.id, .level = r.level == "SHOULD" ? Level::kRecommended : Level::kRequired});
    }
    // A partial run leaves ids out on purpose, and a backend-only run covers the backend's ids
    // only; listing the rest would be noise.
    std::printf("%s\n", CoverageLine(ComputeRequirementCoverage(implemented, run.records),
                                     !run.options.Partial() && !run.options.BackendOnly())
                             .c_str());
  }
  PrintFailures(run.records);
  const int failures = CountGateFailures(run.records);
  int passed = 0, recommended_passed = 0, recommended_failed = 0;
  for (const GateRecord& r : run.records) {
    const bool required = r.level == Level::kRequired;
    passed += required && r.verdict == Verdict::kPassed ? 1 : 0;
    recommended_passed += !required && r.verdict == Verdict::kPassed ? 1 : 0;
    recommended_failed += !required && r.verdict == Verdict::kFailed ? 1 : 0;
  }
  const GateOptions& o = run.options;
  std::string scope;
  if (o.Partial()) {
    scope = " (partial run: not a conformance verdict)";
  } else if (!o.testee.empty() && !o.testee_is_reference) {
    scope =
        " (verdict on the testee: " + SuitesPhrase(o.registry, SuiteJudges::kImplementation) + ")";
  } else if (o.BackendOnly()) {
    scope = " (verdict on the backend: " + SuitesPhrase(o.registry, SuiteJudges::kBackend) + ")";
  }
  std::printf("\nRECOMMENDED checks (not counted in the verdict): %d passed, %d not met\n",
              recommended_passed, recommended_failed);
  if (const std::optional<BackendVerdict> backend = JudgeBackend(run.records);
      backend && !run.options.filter && run.options.shard_count <= 1) {
    const std::string failed =
        backend->failed == 0 ? "" : ", " + std::to_string(backend->failed) + " failed";
    std::printf("backend: %s (%d required probes%s)\n",
                backend->conformant ? "CONFORMANT" : "NOT CONFORMANT", backend->required,
                failed.c_str());
  }
  std::printf("gate: %s%s\n", failures == 0 ? "PASS" : "FAIL", scope.c_str());
  std::printf("%d passed, %d failed\n", passed, failures);
  return failures == 0 ? 0 : 1;
}

}  // namespace azure_pricing::conformance
