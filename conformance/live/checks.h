// The live check's canonical queries (checks.json, checked against checks.schema.json): each is
// one call of the tool with the contract's expectations of it.
#ifndef CONFORMANCE_LIVE_CHECKS_H_
#define CONFORMANCE_LIVE_CHECKS_H_

#include <optional>
#include <string>
#include <vector>

#include "ref/status/status.h"

namespace azure_pricing::conformance::live {

// Program errors (ProgramError()), each with a fixed message.
inline constexpr Reason kMalformedChecks = "malformed_checks";
inline constexpr Reason kChecksMissing = "checks_missing";

struct Expectation {
  std::string outcome;                  // completed | failed
  std::string reason;                   // for failed
  std::optional<int> min_rows;          // rows the tool returned
  std::optional<int> min_regions;       // distinct ARM regions among the CLI's rows
  std::string savings_plan;             // some | none | "" (not judged)
  std::string price_type;               // every row's priceType
  bool reservation_term_all = false;    // every row has a reservationTerm
  bool empty_arm_sku_all = false;       // every row's armSkuName is ""
  bool arm_sku_some_named = false;      // some row's armSkuName is not "" (empty_arm_sku not_all)
  std::vector<std::string> matched_by;  // every returned row's matched_by is one of these
  std::string zone_family;              // network | edge | dns | expressroute
  std::string zone_rows;                // required | if_received | omitted_with_note
  std::optional<int> upstream_status;   // the first upstream response's status
  bool ceiling = false;                 // the 5,000-row ceiling is reached
};

struct LiveCheck {
  std::string id;
  std::string what;
  std::string arguments;  // the tool arguments, JSON text
  std::vector<std::string> requirements;
  Expectation expect;
  // Why the expectation rests on no recorded real response ("" when one holds it). The live
  // output marks such a check "expectation unverified until recorded";
  // tools/fixtures/import_live_recording.py clears it from a live recording that passed.
  std::string unverified;
};

// conformance/live/checks.json from the runfiles.
StatusOr<std::string> BundledChecksJson();

// The list, checked against the bundled schema; ids are unique.
StatusOr<std::vector<LiveCheck>> LoadChecks(const std::string& checks_json);

// BundledChecksJson, loaded.
StatusOr<std::vector<LiveCheck>> LoadBundledChecks();

}  // namespace azure_pricing::conformance::live

#endif  // CONFORMANCE_LIVE_CHECKS_H_
