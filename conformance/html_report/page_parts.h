// What the run page and the compare page share: the head with the inline style, the end with
// the inline script, the filter controls, a run's verdict lines and its facts.
#ifndef CONFORMANCE_HTML_REPORT_PAGE_PARTS_H_
#define CONFORMANCE_HTML_REPORT_PAGE_PARTS_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/gate/record.h"

namespace azure_pricing::conformance::html_report {

// "<!DOCTYPE html>..." up to and including <body>; `kind` is the page's data-page, "run" or
// "compare".
std::string PageStart(std::string_view kind, std::string_view title);
std::string PageEnd();

// The sticky filter bar: failed only, a suite, a level, and, on the compare page, differs only.
std::string FilterBar(const std::vector<std::string>& suites, bool with_differs);

// The lines the console ended the run with; for a report of an older gate, which did not record
// them, the same lines worked out from its records.
std::vector<std::string> VerdictLines(const JsonReport& report);

// "gate --suite kind --json r.json", quoted as a shell would need.
std::string CommandLine(const std::vector<std::string>& args);

// Implementation, backend, gate and profile versions, date and command line, as a <dl>; what a
// report of an older gate does not record says so.
std::string RunFacts(const JsonReport& report);

// A record's result as the page shows it: "passed", "FAILED", "known failure", ...
std::string ResultLabel(Verdict verdict, Level level);

// Anchors unique on the page: a second record of the same suite/id (the gate's own failures may
// repeat one) gets "~2", and so on.
class Anchors {
 public:
  std::string For(std::string_view suite, std::string_view id);

 private:
  std::map<std::string, int> seen_;
};

// The suites of `records`, in the order they first appear.
std::vector<std::string> SuitesOf(const std::vector<GateRecord>& records);

}  // namespace azure_pricing::conformance::html_report

#endif  // CONFORMANCE_HTML_REPORT_PAGE_PARTS_H_
