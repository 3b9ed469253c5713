// The few pieces of HTML the report pages are made of, escaped once here.
#ifndef CONFORMANCE_HTML_REPORT_HTML_H_
#define CONFORMANCE_HTML_REPORT_HTML_H_

#include <string>
#include <string_view>

namespace azure_pricing::conformance::html_report {

// Text for an element's content or a double-quoted attribute: & < > " ' escaped. Bytes that are
// not UTF-8 become U+FFFD, so a CLI's stray byte cannot break the page's encoding.
std::string Escape(std::string_view text);

// A value to show: inline when short and on one line, else folded in <details> whose summary
// names it and its size, so a long value never widens or lengthens the page until asked for.
std::string Value(std::string_view label, std::string_view text, size_t fold_over = 160);

// JSON text pretty-printed for reading; the text itself when it is not JSON.
std::string PrettyJson(std::string_view text);

// "kind/refuse-service-without-sku": a check's anchor on the page.
std::string CheckAnchor(std::string_view suite, std::string_view id);

// "req-INTRO-002": a requirement's anchor in the page's requirement index.
std::string RequirementAnchor(std::string_view id);

// "1.2 kB", "812 B".
std::string Size(size_t bytes);

}  // namespace azure_pricing::conformance::html_report

#endif  // CONFORMANCE_HTML_REPORT_HTML_H_
