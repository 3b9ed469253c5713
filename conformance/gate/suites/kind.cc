// The kind suite: every case of conformance/cases/*.json, through the implementation.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "conformance/cases/case_runner.h"
#include "conformance/gate/run.h"
#include "conformance/gate/suites/suites.h"
#include "ref/pricing/reasons.h"

namespace azure_pricing::conformance::suites {
namespace {

GateRecord CaseRecord(const CaseResult& r) {
  const std::string expected =
      r.expected_outcome + (r.expected_reason.empty() ? "" : "/" + r.expected_reason);
  return {.suite = "kind",
          .id = r.id,
          .file = r.file,
          .requirements = r.requirements,
          .verdict = r.passed ? Verdict::kPassed : Verdict::kFailed,
          .expected = expected,
          .actual = r.actual,
          .detail = r.detail,
          .inputs = r.inputs,
          .expected_value = r.expected_value,
          .actual_value = r.actual_value};
}

GateRecord WordingRecord(const CaseResult& r) {
  GateRecord record = CaseRecord(r);
  record.id += kWordingSuffix;
  record.requirements = {kWordingRequirement};
  record.verdict = r.wording_passed ? Verdict::kPassed : Verdict::kFailed;
  record.detail = r.wording_detail;
  record.level = Level::kRecommended;
  return record;
}

bool CaseSelected(const GateOptions& o, const std::string& id) {
  return o.Selected("kind", id) || o.Selected("kind", id + kWordingSuffix);
}

struct FileTally {
  int passed = 0, failed = 0, wording = 0, wording_met = 0;
};

// Adds the records of one case that ran and the run selected, each with its share of the time.
void AddCaseRecords(GateRun& run, const CaseResult& r, double seconds, FileTally& tally) {
  std::vector<GateRecord> records;
  if (run.options.Selected("kind", r.id)) records.push_back(CaseRecord(r));
  if (r.has_wording && run.options.Selected("kind", r.id + kWordingSuffix)) {
    records.push_back(WordingRecord(r));
  }
  for (GateRecord& record : records) {
    if (run.options.verbose) {
      std::printf("  %s %s\n", record.verdict == Verdict::kPassed ? "ok  " : "FAIL",
                  record.id.c_str());
    }
    record.seconds = seconds / static_cast<double>(records.size());
    run.Add(std::move(record));
    const GateRecord& added = run.records.back();
    const bool ok = added.verdict == Verdict::kPassed;
    if (added.level == Level::kRequired) ++(ok ? tally.passed : tally.failed);
    if (added.level == Level::kRecommended) {
      ++tally.wording;
      tally.wording_met += ok ? 1 : 0;
    }
  }
}

// Runs every case file; adds each case's expected (outcome, reason) to `reached`.
void RunCases(GateRun& run, std::set<std::pair<std::string, std::string>>& reached) {
  std::printf("\nkind\n");
  const std::vector<std::string> files = CaseFiles();
  if (files.empty())
    run.GateFailure("case-files", std::string("no case files in ") + kCaseDirectory);
  // The counts line up in one column whatever the longest file name.
  int width = 0;
  for (const std::string& file : files) width = std::max(width, static_cast<int>(file.size()));
  for (size_t f = 0; f < files.size(); ++f) {
    run.progress.Show("kind", f, files.size(), files[f]);
    const auto start = std::chrono::steady_clock::now();
    const std::vector<CaseResult> results =
        RunCaseFile(files[f], run.execute,
                    [&run](const std::string& id) { return CaseSelected(run.options, id); });
    size_t ran = 0;
    for (const CaseResult& r : results) ran += r.ran ? 1 : 0;
    const double each = ran == 0 ? 0 : SecondsSince(start) / static_cast<double>(ran);
    FileTally tally;
    run.progress.Clear();
    for (const CaseResult& r : results) {
      reached.insert({r.expected_outcome, r.expected_reason});
      if (r.ran) AddCaseRecords(run, r, each, tally);
    }
    // REQUIRED records, before any known-failures list is applied; RECOMMENDED ones after ';'.
    const std::string recommended = tally.wording == 0
                                        ? ""
                                        : "; RECOMMENDED " + std::to_string(tally.wording_met) +
                                              " of " + std::to_string(tally.wording) + " met";
    std::printf("  %-*s %3d passed, %d failed%s\n", width, files[f].c_str(), tally.passed,
                tally.failed, recommended.c_str());
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
  std::printf("  reasons not reached by any case: %d of %zu%s%s\n", count, reasons::kAll.size(),
              count == 0 ? "" : ": ", unreached.c_str());
}

void RunKind(GateRun& run) {
  std::set<std::pair<std::string, std::string>> reached;
  RunCases(run, reached);
  PrintUnreachedReasons(reached);
}

}  // namespace

const Suite kKind = {.name = "kind",
                     .description = "the cases in conformance/cases, through the implementation",
                     .in_all = true,
                     .judges = SuiteJudges::kImplementation,
                     .alias = "cases",
                     .run = RunKind};

}  // namespace azure_pricing::conformance::suites
