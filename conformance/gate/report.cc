#include "conformance/gate/report.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace azure_pricing::conformance {
namespace {

std::string Row(const SuiteSummary& s) {
  char line[200];
  std::snprintf(line, sizeof line, "  %-12s %7d %7d %7d  %7d %7d %7d %7d %8.1fs\n",
                s.suite.c_str(), s.required.passed, s.required.failed, s.required.known,
                s.recommended.passed, s.recommended.failed, s.recommended.known, s.skipped,
                s.seconds);
  return line;
}

void Add(LevelTally& total, const LevelTally& t) {
  total.passed += t.passed;
  total.failed += t.failed;
  total.known += t.known;
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
    LevelTally& t = r.level == Level::kRequired ? s.required : s.recommended;
    switch (r.verdict) {
      case Verdict::kPassed: ++t.passed; break;
      case Verdict::kFailed: ++t.failed; break;
      case Verdict::kKnown: ++t.known; break;
      case Verdict::kSkipped: ++s.skipped; break;
      case Verdict::kNotApplicable: break;
    }
    s.seconds += r.seconds;
  }
  for (SuiteSummary& s : out) {
    const auto it = suite_seconds.find(s.suite);
    if (it != suite_seconds.end()) s.seconds = it->second;
  }
  return out;
}

std::string SummaryTable(const std::vector<SuiteSummary>& summaries,
                         std::optional<double> wall_seconds) {
  char head[320];
  std::snprintf(head, sizeof head,
                "  %-12s %-23s  %-23s\n  %-12s %7s %7s %7s  %7s %7s %7s %7s %9s\n", "",
                "------- REQUIRED ------", "----- RECOMMENDED -----", "suite", "passed", "failed",
                "known", "passed", "failed", "known", "skipped", "time");
  std::string out = head;
  SuiteSummary total{.suite = "total"};
  for (const SuiteSummary& s : summaries) {
    out += Row(s);
    Add(total.required, s.required);
    Add(total.recommended, s.recommended);
    total.skipped += s.skipped;
    total.seconds += s.seconds;
  }
  if (wall_seconds) total.seconds = *wall_seconds;
  return out + Row(total);
}

RequirementCoverage ComputeRequirementCoverage(const std::vector<ImplementedId>& implemented,
                                               const std::vector<GateRecord>& records) {
  std::set<std::string> cited, failing;
  for (const GateRecord& r : records) {
    if (r.verdict == Verdict::kNotApplicable) continue;  // it checked nothing
    for (const std::string& id : r.requirements) {
      cited.insert(id);
      if (r.verdict != Verdict::kPassed) failing.insert(id);
    }
  }
  RequirementCoverage out;
  out.implemented = static_cast<int>(implemented.size());
  for (const ImplementedId& i : implemented) {
    if (cited.count(i.id) == 0) {
      out.not_covered.push_back(i.id);
      continue;
    }
    LevelCoverage& level = i.level == Level::kRequired ? out.required : out.recommended;
    level.covered.push_back(i.id);
    if (failing.count(i.id) == 0) level.passing.push_back(i.id);
  }
  return out;
}

std::string CoverageLine(const RequirementCoverage& coverage, bool list_uncovered) {
  // "all passing" only when there is something to pass: "REQUIRED 0, all passing" would claim a
  // verdict on nothing.
  const auto part = [](const char* level, const LevelCoverage& c, const char* verb) {
    const size_t covered = c.covered.size();
    const bool all = covered > 0 && c.passing.size() == covered;
    return std::string("; ") + level + " " + std::to_string(covered) + ", " +
           (all ? "all " : std::to_string(c.passing.size()) + " ") + verb;
  };
  std::string line = "requirements: " + std::to_string(coverage.Covered()) + " of " +
                     std::to_string(coverage.implemented) + " implemented ids covered by this run" +
                     part("REQUIRED", coverage.required, "passing") +
                     part("RECOMMENDED", coverage.recommended, "met");
  if (coverage.not_covered.empty() || !list_uncovered) return line;
  line += "; not covered:";
  for (const std::string& id : coverage.not_covered) line += " " + id;
  return line;
}

std::string FailureLine(const GateRecord& r) {
  std::string line = std::string(r.verdict == Verdict::kSkipped ? "SKIP " : "FAIL ") + r.suite +
                     "/" + r.id;
  if (r.level == Level::kRecommended) line += " (RECOMMENDED)";
  if (!r.requirements.empty()) {
    line += " [";
    for (size_t i = 0; i < r.requirements.size(); ++i) {
      line += (i == 0 ? "" : " ") + r.requirements[i];
    }
    line += "]";
  }
  // "<what differs>: expected X; got Y": the check's own words first, then both sides.
  std::string sides = r.expected.empty() ? "" : "expected " + r.expected;
  if (!r.actual.empty()) sides += (sides.empty() ? "got " : "; got ") + r.actual;
  // A case's detail ends each part with "; ", which would dangle before the two sides.
  std::string detail = r.detail;
  while (!detail.empty() && (detail.back() == ' ' || detail.back() == ';')) detail.pop_back();
  if (!detail.empty()) line += ": " + detail;
  return sides.empty() ? line : line + ": " + sides;
}

std::string InputsLines(const GateRecord& r, size_t limit) {
  if (r.inputs.empty()) return "";
  std::string shown = r.inputs;
  if (shown.size() > limit) shown = shown.substr(0, limit) + "... (whole in --json)";
  return "      inputs: " + shown + "\n";
}

int CountGateFailures(const std::vector<GateRecord>& records) {
  return static_cast<int>(std::count_if(records.begin(), records.end(), [](const GateRecord& r) {
    return (r.verdict == Verdict::kFailed && r.level == Level::kRequired) ||
           r.verdict == Verdict::kSkipped;
  }));
}

}  // namespace azure_pricing::conformance
