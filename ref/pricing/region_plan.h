// How the region argument shapes the one CLI query. An ARM region expands the query to that
// region, Global and every billing zone, so that selection (selection.h) can keep the rows that
// apply; a non-ARM location value (Global, any billing-zone name, zones/location_values.h), no
// region, or a raw filter that names armRegionName keep the CLI's exact behaviour.
#ifndef REF_PRICING_REGION_PLAN_H_
#define REF_PRICING_REGION_PLAN_H_

#include <optional>
#include <string>
#include <string_view>

#include "ref/pricing/arguments.h"
#include "ref/zones/zones.h"

namespace azure_pricing {

struct RegionPlan {
  bool expanded = false;
  // Expanded plans only:
  std::string requested_region;               // the canonical name when known, else as given
  const zones::RegionZones* known = nullptr;  // nullptr for a region the mapping lacks
  std::string filter;                         // the --filter value that replaces the raw one
};

// True when `filter` names the armRegionName field outside OData string literals (any letter
// case, as a whole word). Occurrences inside '...' literals, including '' escapes, do not count.
bool FilterNamesArmRegionName(std::string_view filter);

RegionPlan PlanRegion(const ToolArguments& args, const zones::ZoneTable& table);

}  // namespace azure_pricing

#endif  // REF_PRICING_REGION_PLAN_H_
