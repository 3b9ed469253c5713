// What the page tests read a rendered page with: its elements' ids and internal links, counted
// with plain text searches so the tests do not share the renderer's code.
#ifndef CONFORMANCE_HTML_REPORT_PAGE_TEST_SUPPORT_H_
#define CONFORMANCE_HTML_REPORT_PAGE_TEST_SUPPORT_H_

#include <regex>
#include <set>
#include <string>
#include <vector>

namespace azure_pricing::conformance::html_report {

inline int Count(const std::string& page, const std::string& needle) {
  int n = 0;
  for (size_t at = page.find(needle); at != std::string::npos; at = page.find(needle, at + 1)) ++n;
  return n;
}

inline std::vector<std::string> Captures(const std::string& page, const std::string& pattern) {
  std::vector<std::string> out;
  const std::regex re(pattern);
  for (auto it = std::sregex_iterator(page.begin(), page.end(), re); it != std::sregex_iterator();
       ++it) {
    out.push_back((*it)[1].str());
  }
  return out;
}

// Internal links (href="#...") whose target id the page does not hold.
inline std::vector<std::string> DanglingLinks(const std::string& page) {
  const std::vector<std::string> ids = Captures(page, R"re( id="([^"]*)")re");
  const std::set<std::string> targets(ids.begin(), ids.end());
  std::vector<std::string> dangling;
  for (const std::string& link : Captures(page, R"re(href="#([^"]*)")re")) {
    if (targets.count(link) == 0) dangling.push_back(link);
  }
  return dangling;
}

}  // namespace azure_pricing::conformance::html_report

#endif  // CONFORMANCE_HTML_REPORT_PAGE_TEST_SUPPORT_H_
