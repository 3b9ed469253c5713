#include "ref/pricing/region_plan.h"

#include "ref/zones/location_values.h"

namespace azure_pricing {
namespace {

bool IsIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// An OData string literal: quotes doubled.
std::string Literal(std::string_view value) {
  std::string out = "'";
  for (const char c : value) {
    out.push_back(c);
    if (c == '\'') out.push_back('\'');
  }
  out.push_back('\'');
  return out;
}

}  // namespace

bool FilterNamesArmRegionName(std::string_view filter) {
  constexpr std::string_view kField = "armRegionName";
  const std::string outside = BlankLiterals(filter).text;
  for (size_t i = 0; i < outside.size(); ++i) {
    if (!IsIdentifierChar(outside[i]) || (i > 0 && IsIdentifierChar(outside[i - 1]))) continue;
    size_t end = i;
    while (end < outside.size() && IsIdentifierChar(outside[end])) ++end;
    // Any letter case: an ASCII case-insensitive compare, as for region names.
    if (zones::SameRegionName(std::string_view(outside).substr(i, end - i), kField)) return true;
    i = end - 1;
  }
  return false;
}

RegionPlan PlanRegion(const ToolArguments& args, const zones::ZoneTable& table) {
  RegionPlan plan;
  if (!args.region.has_value()) return plan;
  const std::string& region = *args.region;
  // Global and every other non-ARM location value keep the CLI's exact behaviour.
  if (zones::IsLocationValue(region)) return plan;
  if (args.filter.has_value() && FilterNamesArmRegionName(*args.filter)) return plan;
  plan.expanded = true;
  plan.known = table.Find(region);
  plan.requested_region = plan.known != nullptr ? plan.known->region : region;
  std::string set =
      "armRegionName eq " + Literal(plan.requested_region) + " or armRegionName eq 'Global'";
  for (std::string_view zone : zones::kExpansionZones) {
    set += " or armRegionName eq " + Literal(zone);
  }
  plan.filter = "(" + set + ")";
  if (args.filter.has_value()) plan.filter += " and (" + *args.filter + ")";
  return plan;
}

}  // namespace azure_pricing
