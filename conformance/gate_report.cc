#include "conformance/gate_report.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace azure_pricing::conformance {
namespace {

std::string Row(const std::string& suite, int passed, int failed, int known, int skipped,
                double seconds) {
  char line[160];
  std::snprintf(line, sizeof line, "  %-12s %7d %7d %7d %7d %8.1fs\n", suite.c_str(), passed,
                failed, known, skipped, seconds);
  return line;
}

SuiteSummary& SummaryFor(std::vector<SuiteSummary>& out, const std::string& suite) {
  for (SuiteSummary& s : out) {
    if (s.suite == suite) return s;
  }
  out.push_back({.suite = suite});
  return out.back();
}

}  // namespace

std::vector<SuiteSummary> Summarize(const std::vector<GateRecord>& records,
                                    const std::map<std::string, double>& suite_seconds) {
  std::vector<SuiteSummary> out;
  for (const GateRecord& r : records) {
    SuiteSummary& s = SummaryFor(out, r.suite);
    switch (r.verdict) {
      case Verdict::kPassed: ++s.passed; break;
      case Verdict::kFailed: ++s.failed; break;
      case Verdict::kKnown: ++s.known; break;
      case Verdict::kSkipped: ++s.skipped; break;
    }
    s.seconds += r.seconds;
  }
  for (SuiteSummary& s : out) {
    const auto it = suite_seconds.find(s.suite);
    if (it != suite_seconds.end()) s.seconds = it->second;
  }
  return out;
}

std::string SummaryTable(const std::vector<SuiteSummary>& summaries) {
  char head[160];
  std::snprintf(head, sizeof head, "  %-12s %7s %7s %7s %7s %9s\n", "suite", "passed", "failed",
                "known", "skipped", "time");
  std::string out = head;
  SuiteSummary total{.suite = "total"};
  for (const SuiteSummary& s : summaries) {
    out += Row(s.suite, s.passed, s.failed, s.known, s.skipped, s.seconds);
    total.passed += s.passed;
    total.failed += s.failed;
    total.known += s.known;
    total.skipped += s.skipped;
    total.seconds += s.seconds;
  }
  return out + Row(total.suite, total.passed, total.failed, total.known, total.skipped,
                   total.seconds);
}

RequirementCoverage ComputeRequirementCoverage(const std::vector<std::string>& implemented_ids,
                                               const std::vector<GateRecord>& records) {
  std::set<std::string> cited, failing;
  for (const GateRecord& r : records) {
    for (const std::string& id : r.requirements) {
      cited.insert(id);
      if (r.verdict != Verdict::kPassed) failing.insert(id);
    }
  }
  RequirementCoverage out;
  out.implemented = static_cast<int>(implemented_ids.size());
  for (const std::string& id : implemented_ids) {
    if (cited.count(id) == 0) {
      out.not_covered.push_back(id);
      continue;
    }
    out.covered.push_back(id);
    if (failing.count(id) == 0) out.passing.push_back(id);
  }
  return out;
}

std::string CoverageLine(const RequirementCoverage& coverage, bool list_uncovered) {
  std::string line = "requirements: " + std::to_string(coverage.covered.size()) + " of " +
                     std::to_string(coverage.implemented) +
                     " implemented ids covered by this run, " +
                     std::to_string(coverage.passing.size()) + " passing";
  if (coverage.not_covered.empty() || !list_uncovered) return line;
  line += "; not covered:";
  for (const std::string& id : coverage.not_covered) line += " " + id;
  return line;
}

std::string FailureLine(const GateRecord& r) {
  std::string line = std::string(r.verdict == Verdict::kSkipped ? "SKIP " : "FAIL ") + r.suite +
                     "/" + r.id;
  if (!r.required) line += " (SHOULD only)";
  if (!r.requirements.empty()) {
    line += " [";
    for (size_t i = 0; i < r.requirements.size(); ++i) {
      line += (i == 0 ? "" : " ") + r.requirements[i];
    }
    line += "]";
  }
  if (!r.expected.empty()) line += " expected " + r.expected;
  if (!r.actual.empty()) line += (r.expected.empty() ? " actual " : ", actual ") + r.actual;
  if (!r.detail.empty()) line += ": " + r.detail;
  return line;
}

int CountGateFailures(const std::vector<GateRecord>& records) {
  return static_cast<int>(std::count_if(records.begin(), records.end(), [](const GateRecord& r) {
    return (r.verdict == Verdict::kFailed && r.required) || r.verdict == Verdict::kSkipped;
  }));
}

}  // namespace azure_pricing::conformance
