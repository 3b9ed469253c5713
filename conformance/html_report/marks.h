// How a run's records mark the requirements they cite: one status per requirement id, for the
// annotated specification and the profile's rules on the report page (docs/gate.md, "The report
// page").
#ifndef CONFORMANCE_HTML_REPORT_MARKS_H_
#define CONFORMANCE_HTML_REPORT_MARKS_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/gate/record.h"

namespace azure_pricing::conformance::html_report {

// Worst first: a passage citing several ids takes the first of these any of them has.
enum class Mark {
  kFailed,      // a REQUIRED check citing it failed or was skipped
  kKnown,       // else a check citing it failed as the known-failures list says
  kNotMet,      // else a RECOMMENDED check citing it failed
  kNotCovered,  // no check of this run cites it
  kPassed,      // every check citing it passed (or did not apply)
};

// "failed", "known", "not-met", "not-covered", "passed": the page's data-status values.
std::string_view MarkName(Mark mark);
// What a reader sees beside the mark: "failed", "known failure", "RECOMMENDED, not met", ...
std::string_view MarkLabel(Mark mark);

struct RequirementMarks {
  std::map<std::string, Mark> by_id;  // ids some record cites; the others are kNotCovered
  // The records citing each id, as indices into the records, in the run's order.
  std::map<std::string, std::vector<size_t>> checks_by_id;

  Mark Of(const std::string& id) const;
  // The worst mark of `ids`; kNotCovered for none.
  Mark Worst(const std::vector<std::string>& ids) const;
};

RequirementMarks MarkRequirements(const std::vector<GateRecord>& records);

}  // namespace azure_pricing::conformance::html_report

#endif  // CONFORMANCE_HTML_REPORT_MARKS_H_
