#include "conformance/html_report/marks.h"

#include <algorithm>

namespace azure_pricing::conformance::html_report {
namespace {

// What one record says about each id it cites.
Mark MarkOfRecord(const GateRecord& r) {
  switch (r.verdict) {
    case Verdict::kPassed:
    case Verdict::kNotApplicable:
      return Mark::kPassed;
    case Verdict::kKnown:
      return Mark::kKnown;
    case Verdict::kSkipped:
      return Mark::kFailed;
    case Verdict::kFailed:
      return r.level == Level::kRequired ? Mark::kFailed : Mark::kNotMet;
  }
  return Mark::kFailed;
}

}  // namespace

std::string_view MarkName(Mark mark) {
  switch (mark) {
    case Mark::kFailed:
      return "failed";
    case Mark::kKnown:
      return "known";
    case Mark::kNotMet:
      return "not-met";
    case Mark::kNotCovered:
      return "not-covered";
    case Mark::kPassed:
      return "passed";
  }
  return "failed";
}

std::string_view MarkLabel(Mark mark) {
  switch (mark) {
    case Mark::kFailed:
      return "failed";
    case Mark::kKnown:
      return "known failure";
    case Mark::kNotMet:
      return "RECOMMENDED, not met";
    case Mark::kNotCovered:
      return "not covered by this run";
    case Mark::kPassed:
      return "passed";
  }
  return "failed";
}

Mark RequirementMarks::Of(const std::string& id) const {
  const auto it = by_id.find(id);
  return it == by_id.end() ? Mark::kNotCovered : it->second;
}

Mark RequirementMarks::Worst(const std::vector<std::string>& ids) const {
  Mark worst = ids.empty() ? Mark::kNotCovered : Mark::kPassed;
  for (const std::string& id : ids) worst = std::min(worst, Of(id));
  return worst;
}

RequirementMarks MarkRequirements(const std::vector<GateRecord>& records) {
  RequirementMarks marks;
  for (size_t i = 0; i < records.size(); ++i) {
    const Mark mark = MarkOfRecord(records[i]);
    for (const std::string& id : records[i].requirements) {
      std::vector<size_t>& checks = marks.checks_by_id[id];
      if (!checks.empty() && checks.back() == i) continue;  // an id cited twice by one check
      checks.push_back(i);
      const auto [it, added] = marks.by_id.emplace(id, mark);
      if (!added) it->second = std::min(it->second, mark);
    }
  }
  return marks;
}

}  // namespace azure_pricing::conformance::html_report
