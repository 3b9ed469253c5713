#include "conformance/gate/conclusion.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "conformance/gate/known_failures.h"
#include "conformance/gate/record.h"
#include "conformance/gate/report.h"
#include "conformance/html_report/run_page.h"
#include "conformance/protocol_schema/validator.h"
#include "ref/pricing/package.h"

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

// The coverage line, or empty when the catalog did not load.
std::string CoverageText(const GateRun& run) {
  if (run.catalog == nullptr) return "";
  std::vector<ImplementedId> implemented;
  for (const Requirement& r : run.catalog->requirements) {
    implemented.push_back(
        {.id = r.id, .level = r.level == "SHOULD" ? Level::kRecommended : Level::kRequired});
  }
  // A partial run leaves ids out on purpose, and a backend-only run covers the backend's ids
  // only; listing the rest would be noise.
  return CoverageLine(ComputeRequirementCoverage(implemented, run.records),
                      !run.options.Partial() && !run.options.BackendOnly());
}

// What the verdict is about when it is not the whole conformance verdict on the reference.
std::string VerdictScope(const GateOptions& o) {
  if (o.Partial()) return " (partial run: not a conformance verdict)";
  if (!o.testee.empty() && !o.testee_is_reference) {
    return " (verdict on the testee: " + SuitesPhrase(o.registry, SuiteJudges::kImplementation) +
           ")";
  }
  if (o.BackendOnly()) {
    return " (verdict on the backend: " + SuitesPhrase(o.registry, SuiteJudges::kBackend) + ")";
  }
  return "";
}

// The closing lines: the RECOMMENDED tally, the backend's verdict, the gate's, and the count.
std::vector<std::string> VerdictLines(const GateRun& run) {
  int passed = 0, recommended_passed = 0, recommended_failed = 0;
  for (const GateRecord& r : run.records) {
    const bool required = r.level == Level::kRequired;
    passed += required && r.verdict == Verdict::kPassed ? 1 : 0;
    recommended_passed += !required && r.verdict == Verdict::kPassed ? 1 : 0;
    recommended_failed += !required && r.verdict == Verdict::kFailed ? 1 : 0;
  }
  std::vector<std::string> lines = {
      "RECOMMENDED checks (not counted in the verdict): " + std::to_string(recommended_passed) +
      " passed, " + std::to_string(recommended_failed) + " not met"};
  if (const std::optional<BackendVerdict> backend = JudgeBackend(run.records);
      backend && !run.options.filter && run.options.shard_count <= 1) {
    const std::string failed =
        backend->failed == 0 ? "" : ", " + std::to_string(backend->failed) + " failed";
    lines.push_back(std::string("backend: ") +
                    (backend->conformant ? "CONFORMANT" : "NOT CONFORMANT") + " (" +
                    std::to_string(backend->required) + " required probes" + failed + ")");
  }
  const int failures = CountGateFailures(run.records);
  lines.push_back(std::string("gate: ") + (failures == 0 ? "PASS" : "FAIL") +
                  VerdictScope(run.options));
  lines.push_back(std::to_string(passed) + " passed, " + std::to_string(failures) + " failed");
  return lines;
}

std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// What the report files say about the run beside its records: the same lines the console ends
// with, so a page and a log never disagree.
ReportHeader HeaderOf(const GateRun& run) {
  ReportHeader h = {.implementation = run.implementation,
                    .profile_version = run.profile_version,
                    .gate_version = kPackageVersion,
                    .date = UtcNow(),
                    .command_line = run.options.command_line,
                    .backend = run.backend,
                    .wall_seconds = run.wall_seconds,
                    .coverage_line = CoverageText(run),
                    .verdict_lines = VerdictLines(run)};
  for (const SuiteSummary& summary : Summarize(run.records, run.suite_seconds)) {
    h.suite_seconds.emplace_back(summary.suite, summary.seconds);
  }
  return h;
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
  const ReportHeader header = HeaderOf(run);
  if (!o.json_report.empty() && !WriteJsonReport(o.json_report, header, run.records).ok()) {
    run.GateFailure("reports", "cannot write --json " + o.json_report);
  }
  if (!o.junit_report.empty() && !WriteJUnitReport(o.junit_report, header, run.records).ok()) {
    run.GateFailure("reports", "cannot write --junit " + o.junit_report);
  }
  if (!o.html_report.empty()) {
    const Status written = html_report::WriteRunPage(
        o.html_report, {.header = header, .records = run.records}, run.catalog);
    if (!written.ok()) {
      run.GateFailure("reports", "cannot write --html " + o.html_report + ": " +
                                     std::string(written.message()));
    }
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
  std::printf("\nsummary\n%s",
              SummaryTable(Summarize(run.records, run.suite_seconds), run.wall_seconds).c_str());
  if (const std::string coverage = CoverageText(run); !coverage.empty()) {
    std::printf("%s\n", coverage.c_str());
  }
  PrintFailures(run.records);
  std::printf("\n");
  for (const std::string& line : VerdictLines(run)) std::printf("%s\n", line.c_str());
  return CountGateFailures(run.records) == 0 ? 0 : 1;
}

}  // namespace azure_pricing::conformance
