// Properties of billing-zone selection over generated rows and requested regions.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "conformance/citations/cites.h"
#include "ref/pricing/region_plan.h"
#include "ref/pricing/selection.h"
#include "ref/zones/zones.h"

namespace azure_pricing {
CITES("REGION-009", "SELECT-003", "SELECT-004", "SELECT-005", "SELECT-006", "SELECT-007",
      "ZONE-012", "BOUND-020", "BOUND-022");
namespace {

const char* const kServices[] = {
    "Virtual Network",          "VPN Gateway", "Bandwidth",    "Azure Front Door Service",
    "Content Delivery Network", "Azure DNS",   "ExpressRoute", "Virtual Machines"};
const char* const kLocations[] = {"eastus",     "westus",        "australiaeast", "qatarcentral",
                                  "chinaeast2", "Global",        "Zone 1",        "Zone 2",
                                  "Zone 3",     "Zone 4",        "Zone 5",        "US Gov Zone 1",
                                  "marsnorth",  "usgovvirginia", "DE Zone 1",     "CN Zone 1"};
const char* const kRequested[] = {"eastus",     "EastUS",        "australiaeast", "qatarcentral",
                                  "chinaeast2", "usgovvirginia", "usdodeast",     "marsnorth"};

rc::Gen<PriceRow> GenRow() {
  return rc::gen::exec([] {
    PriceRow r;
    r.region =
        *rc::gen::elementOf(std::vector<std::string>(std::begin(kLocations), std::end(kLocations)));
    r.service_name =
        *rc::gen::elementOf(std::vector<std::string>(std::begin(kServices), std::end(kServices)));
    // Few products and meters, so keys collide across locations; sometimes empty.
    r.product_name = *rc::gen::element<std::string>("P1", "P2", "");
    r.meter_name = *rc::gen::element<std::string>("M1", "M2", "");
    r.price_type = *rc::gen::element<std::string>("Consumption", "Reservation");
    r.meter_id = "id-" + std::to_string(*rc::gen::inRange(0, 1000000));
    return r;
  });
}

using Key = std::tuple<std::string, std::string, std::string>;
Key KeyOf(const PriceRow& r) { return {r.service_name, r.product_name, r.meter_name}; }
bool Complete(const PriceRow& r) {
  return !r.service_name.empty() && !r.product_name.empty() && !r.meter_name.empty();
}

// The oracle is written out here, independently of the reference's code: the spec's zone
// families by service, the billing zones an expansion asks for, and the zones each requested
// region selects, copied from billing_zones.csv (the data, not the code that reads it).
const std::map<std::string, std::string> kFamilyOfService = {{"Virtual Network", "network"},
                                                             {"VPN Gateway", "network"},
                                                             {"Bandwidth", "network"},
                                                             {"Azure Front Door Service", "edge"},
                                                             {"Content Delivery Network", "edge"},
                                                             {"Azure DNS", "dns"}};
const std::set<std::string> kBillingZones = {"Zone 1", "Zone 2",        "Zone 3",       "Zone 4",
                                             "Zone 5", "Zone 6",        "Zone 7",       "Zone 8",
                                             "Zone 9", "US Gov Zone 1", "US Gov Zone 2"};
// region -> family -> zone; regions absent here (marsnorth) are unknown to the mapping.
const std::map<std::string, std::map<std::string, std::string>> kSelectedZones = {
    {"eastus", {{"network", "Zone 1"}, {"edge", "Zone 1"}, {"dns", "Zone 1"}}},
    {"australiaeast", {{"network", "Zone 2"}, {"edge", "Zone 4"}, {"dns", "Zone 1"}}},
    {"qatarcentral", {{"network", "Zone 3"}, {"edge", "Zone 1"}, {"dns", "Zone 1"}}},
    {"usgovvirginia",
     {{"network", "US Gov Zone 1"}, {"edge", "US Gov Zone 1"}, {"dns", "US Gov Zone 1"}}},
    {"usdodeast", {}},
    {"chinaeast2", {}}};

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// What the requested region selects for a row's zone.
std::optional<std::string> SelectedZone(const std::string& requested, const std::string& service) {
  const auto region = kSelectedZones.find(Lower(requested));
  const auto family = kFamilyOfService.find(service);
  if (region == kSelectedZones.end() || family == kFamilyOfService.end()) return std::nullopt;
  const auto zone = region->second.find(family->second);
  if (zone == region->second.end()) return std::nullopt;
  return zone->second;
}

bool IsBillingZone(const std::string& location) { return kBillingZones.count(location) != 0; }

bool SameRow(const PriceRow& a, const PriceRow& b) {
  return a.meter_id == b.meter_id && a.region == b.region;
}

RC_GTEST_PROP(SelectionProperties, KeepsExactlyWhatTheRulesSay, ()) {
  const std::vector<PriceRow> rows = *rc::gen::container<std::vector<PriceRow>>(
      static_cast<size_t>(*rc::gen::inRange(0, 40)), GenRow());
  ToolArguments args;
  args.region =
      *rc::gen::elementOf(std::vector<std::string>(std::begin(kRequested), std::end(kRequested)));
  const RegionPlan plan = PlanRegion(args, zones::ZoneTable::Bundled());
  RC_ASSERT(plan.expanded);
  const Selection s = SelectRows(rows, plan, false);
  const std::string requested = plan.requested_region;
  auto is_requested = [&](const std::string& region) {
    return region.size() == requested.size() &&
           std::equal(region.begin(), region.end(), requested.begin(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) ==
                    std::tolower(static_cast<unsigned char>(b));
           });
  };
  // Independent expectation of which rows are preferred (regional or selected zone).
  auto preferred = [&](const PriceRow& r) {
    if (is_requested(r.region)) return true;
    const auto zone = SelectedZone(args.region.value(), r.service_name);
    return IsBillingZone(r.region) && zone && *zone == r.region;
  };
  std::set<Key> preferred_keys;
  for (const PriceRow& r : rows) {
    if (preferred(r) && Complete(r)) preferred_keys.insert(KeyOf(r));
  }
  std::vector<const PriceRow*> expected;
  for (const PriceRow& r : rows) {
    const bool keep = preferred(r) || (r.region == "Global" && preferred_keys.count(KeyOf(r)) == 0);
    if (keep) expected.push_back(&r);
  }
  // Exactly the expected rows, in the CLI's order.
  RC_ASSERT(s.rows.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) RC_ASSERT(SameRow(s.rows[i], *expected[i]));
  RC_ASSERT(s.matches.size() == s.rows.size());
  for (const PriceRow& k : s.rows) {
    // Nothing outside {requested region, selected zones, Global}.
    RC_ASSERT(is_requested(k.region) || k.region == "Global" || IsBillingZone(k.region));
    // Unknown regions and sovereign regions without a mapping never select a zone.
    if (IsBillingZone(k.region)) {
      RC_ASSERT(SelectedZone(args.region.value(), k.service_name) == k.region);
    }
    // Every row of a kept meter at the same location is kept too (all terms and bands).
    for (const PriceRow& r : rows) {
      if (KeyOf(r) == KeyOf(k) && r.region == k.region) {
        RC_ASSERT(std::any_of(s.rows.begin(), s.rows.end(),
                              [&](const PriceRow& x) { return SameRow(x, r); }));
      }
    }
  }
}

RC_GTEST_PROP(SelectionProperties, IndependentOfRowOrderExceptOutputOrder, ()) {
  std::vector<PriceRow> rows = *rc::gen::container<std::vector<PriceRow>>(
      static_cast<size_t>(*rc::gen::inRange(0, 30)), GenRow());
  ToolArguments args;
  args.region =
      *rc::gen::elementOf(std::vector<std::string>(std::begin(kRequested), std::end(kRequested)));
  const RegionPlan plan = PlanRegion(args, zones::ZoneTable::Bundled());
  std::vector<PriceRow> shuffled = rows;
  const std::vector<size_t> order =
      *rc::gen::container<std::vector<size_t>>(rows.size(), rc::gen::inRange<size_t>(0, 1000000));
  std::vector<size_t> idx(rows.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return order[a] < order[b]; });
  for (size_t i = 0; i < idx.size(); ++i) shuffled[i] = rows[idx[i]];
  auto kept = [](const Selection& s) {
    std::multiset<std::string> ids;
    for (size_t i = 0; i < s.rows.size(); ++i) {
      ids.insert(s.rows[i].meter_id + "@" + s.rows[i].region + "#" + s.matches[i].matched_by);
    }
    return ids;
  };
  const Selection a = SelectRows(rows, plan, false);
  const Selection b = SelectRows(shuffled, plan, false);
  RC_ASSERT(kept(a) == kept(b));
  RC_ASSERT(std::multiset<std::string>(a.notes.begin(), a.notes.end()) ==
            std::multiset<std::string>(b.notes.begin(), b.notes.end()));
}

}  // namespace
}  // namespace azure_pricing
