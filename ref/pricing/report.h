// The price report handed back to the model, and the fixed texts that go with it.
#ifndef REF_PRICING_REPORT_H_
#define REF_PRICING_REPORT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ref/pricing/envelope.h"
#include "ref/pricing/selection.h"

namespace azure_pricing {

struct Report {
  std::vector<PriceRow> prices;  // at most max_rows, in the CLI's order
  int64_t returned_rows = 0;
  int64_t received_rows = 0;
  bool truncated = false;
  bool upstream_limit_reached = false;  // received_rows reached the CLI's 5,000-row ceiling

  // Expanded queries only (region selection); absent otherwise, keeping the original shape.
  struct Expansion {
    std::string requested_region;
    int64_t selected_rows = 0;
    std::vector<std::string> selection_notes;
    std::vector<RowMatch> matches;  // parallel to prices
  };
  std::optional<Expansion> expansion;
};

Report BuildReport(std::vector<PriceRow> rows, int64_t max_rows);
// The report of an expanded query: truncation counts selected rows against max_rows, and the
// CLI's ceiling still always truncates.
Report BuildExpandedReport(Selection selection, int64_t received_rows,
                           const std::string& requested_region, int64_t max_rows);

// {"prices": [...], "returned_rows": N, "received_rows": N, "truncated": b,
//  "upstream_limit_reached": b}; rows keep the CLI's key order, reservationTerm only when
// present and savingsPlan only when non-empty.
std::string ReportToJson(const Report& report);
void AppendRowJson(std::string& out, const PriceRow& row);

// Fixed texts: the only ones a host may place in the trusted part of a result.
extern const char kCompletionMessage[];
extern const char kTruncationMessage[];
extern const char kUpstreamLimitMessage[];
extern const char kPricingGuidance[];

}  // namespace azure_pricing

#endif  // REF_PRICING_REPORT_H_
