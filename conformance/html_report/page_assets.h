// The report pages' one stylesheet and one script, inlined into every page so it needs no
// network, no CDN and no other file.
#ifndef CONFORMANCE_HTML_REPORT_PAGE_ASSETS_H_
#define CONFORMANCE_HTML_REPORT_PAGE_ASSETS_H_

namespace azure_pricing::conformance::html_report {

extern const char kPageStyle[];
// Filters from the query (?failed, ?suite=, ?level=, ?differs) and the page's controls; a click
// on a marked passage lists its checks; ?layout-check reports the page's width and any cell whose
// text overflows it, for the browser tests (docs/gate.md, "The report page").
extern const char kPageScript[];

}  // namespace azure_pricing::conformance::html_report

#endif  // CONFORMANCE_HTML_REPORT_PAGE_ASSETS_H_
