// Strict acceptance of what the CLI printed. A result is accepted only when every check holds;
// each failure has a stable reason code and a fixed message that never quotes the CLI.
#ifndef REF_PRICING_ENVELOPE_H_
#define REF_PRICING_ENVELOPE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ref/pricing/messages.h"
#include "ref/status/status.h"

namespace azure_pricing {

// What one bounded execution of the CLI gave back.
struct CliResult {
  std::string stdout_bytes;
  std::string stderr_bytes;
  int exit_code = 0;
  bool timed_out = false;              // the sandbox killed the CLI at the time limit
  bool output_limit_exceeded = false;  // the sandbox stopped reading at the byte budget
};

struct SavingsPlanPrice {
  std::string term;
  double unit_price = 0;
  double retail_price = 0;
};

// One validated row, holding exactly the keys the tool forwards (the CLI's, in its order).
struct PriceRow {
  std::string arm_sku_name;
  std::string sku_name;
  std::string product_name;
  std::string service_name;
  std::string service_family;
  std::string region;
  std::string location;
  double retail_price = 0;
  double unit_price = 0;
  std::string currency_code;
  std::string unit_of_measure;
  std::string price_type;
  std::optional<std::string> reservation_term;
  std::string effective_start_date;
  std::string meter_name;
  std::string meter_id;
  bool is_primary_meter_region = false;
  std::vector<SavingsPlanPrice> savings_plan;  // empty when the CLI printed none

  bool operator==(const PriceRow&) const = default;
};

inline bool operator==(const SavingsPlanPrice& a, const SavingsPlanPrice& b) {
  return a.term == b.term && a.unit_price == b.unit_price && a.retail_price == b.retail_price;
}

// The fixed guidance returned with `upstream_filter_rejected`.
using messages::kFilterCorrectionGuidance;

StatusOr<std::vector<PriceRow>> ValidateCliResult(const CliResult& result,
                                                  int64_t max_output_bytes);

namespace internal {
// The two halves of ValidateCliResult, exposed for the differential test that keeps them in
// step. The streaming reader accepts a clean success envelope without building a document and
// returns false for anything else; the document path then names what is wrong.
bool ReadSuccessEnvelope(std::string_view stdout_bytes, std::vector<PriceRow>& rows);
StatusOr<std::vector<PriceRow>> ValidateByDocument(const CliResult& result);
}  // namespace internal

}  // namespace azure_pricing

#endif  // REF_PRICING_ENVELOPE_H_
