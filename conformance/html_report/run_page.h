// One gate run as a page to read (`gate --html FILE`, `gate_report RUN.json -o FILE`): the
// verdict as the console printed it, the summary, the specification with each requirement
// marked by the run's results, the profile's rules, every failure with its inputs and where the
// values differ, the backend's probes, and every check with an anchor. Self-contained: inline
// style and script, no network. docs/gate.md, "The report page", shows one.
#ifndef CONFORMANCE_HTML_REPORT_RUN_PAGE_H_
#define CONFORMANCE_HTML_REPORT_RUN_PAGE_H_

#include <string>
#include <string_view>

#include "conformance/catalog/catalog.h"
#include "conformance/gate/record.h"
#include "ref/status/status.h"

namespace azure_pricing::conformance::html_report {

// The specification the catalog quotes, as the gate's and the tool's runfiles hold it.
inline constexpr char kSpecPath[] = "conformance/spec/maf-sandbox-azure-pricing.txt";

// A program error: a page cannot be written (the path's directory is missing or not writable).
inline constexpr Reason kPageWriteFailed = "page_write_failed";

// `catalog` may be null (requirements.json did not load): the page then says the specification
// cannot be annotated, and shows everything else.
std::string RunPage(const JsonReport& report, const Catalog* catalog, std::string_view spec_text);

// Reads the specification from kSpecPath (a page without it says so), renders, and writes the
// page to a temporary file beside `path` that is renamed into place: never half a page.
Status WriteRunPage(const std::string& path, const JsonReport& report, const Catalog* catalog);

}  // namespace azure_pricing::conformance::html_report

#endif  // CONFORMANCE_HTML_REPORT_RUN_PAGE_H_
