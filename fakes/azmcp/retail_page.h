// One page of the price API as the real azmcp 3.0.0-beta.46 reads it: the generated model
// (RetailPricesResponse, RetailPriceItem, SavingsPlan) deserialised from a JsonDocument, then
// PricingService.MapToPriceItem for each row. Every failure is the .NET exception the CLI
// reports, with the status its HandleException maps it to. Observed behaviour, pinned by the
// differential scenarios: fields are read in document order, so the first bad one wins and a
// repeated one is converted each time with the last kept; unmodelled fields are never looked
// at; a missing serviceFamily or type takes the enum's default member (Analytics,
// Reservation); strings that are null or missing are left out of the row.
#ifndef FAKES_AZMCP_RETAIL_PAGE_H_
#define FAKES_AZMCP_RETAIL_PAGE_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "fakes/azmcp/stj_document.h"

namespace azure_pricing::fakes::azmcp {

struct SavingsPlanModel {
  std::optional<std::string> term;
  double unit_price = 0, retail_price = 0;
};

struct PriceItemModel {
  std::optional<std::string> arm_sku_name, sku_name, product_name, service_name, arm_region_name,
      location, currency_code, unit_of_measure, reservation_term, meter_name, meter_id;
  double retail_price = 0, unit_price = 0;
  const char* service_family = "Analytics";  // the enum member name
  const char* price_type = "Reservation";
  std::string effective_start_date = "0001-01-01T00:00:00+00:00";  // as the CLI writes it
  bool is_primary_meter_region = false;
  // Null elements stay null until the mapping dereferences them.
  std::optional<std::vector<std::optional<SavingsPlanModel>>> savings_plan;
};

struct PageModel {
  bool null_root = false;
  std::optional<std::vector<std::optional<PriceItemModel>>> items;
  std::optional<std::string> next_page_link;
};

// The status PricingGetCommand's HandleException gives an exception type.
int StatusForException(const std::string& type);

// The member name of a price-list serviceFamily (matched ignoring case), or nullptr.
const char* ServiceFamilyMember(const std::string& value);

std::optional<stj::DotnetError> DeserializePage(const stj::Element& root, PageModel& page);

// MapToPriceItem: the output row in the CLI's key order. A null item or savings plan is a
// NullReferenceException, as in the CLI.
std::optional<stj::DotnetError> MapRow(const std::optional<PriceItemModel>& item,
                                       nlohmann::ordered_json& row);

stj::DotnetError NullReference();

}  // namespace azure_pricing::fakes::azmcp

#endif  // FAKES_AZMCP_RETAIL_PAGE_H_
