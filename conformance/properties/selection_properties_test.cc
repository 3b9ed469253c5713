// Properties of billing-zone selection over generated rows and requested regions.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <set>
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
const char* const kLocations[] = {"eastus",     "westus",       "australiaeast", "qatarcentral",
                                  "chinaeast2", "Global",       "Zone 1",        "Zone 2",
                                  "Zone 3",     "Zone 4",       "Zone 5",        "US Gov Zone 1",
                                  "marsnorth",  "usgovvirginia"};
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

// What the requested region selects for a row's zone, computed from the table directly.
std::optional<std::string> SelectedZone(const zones::RegionZones* known,
                                        const std::string& service) {
  if (known == nullptr || service == "ExpressRoute") return std::nullopt;
  const auto family = zones::FamilyOfService(service);
  if (!family) return std::nullopt;
  const auto& a = known->For(*family);
  if (!a) return std::nullopt;
  return a->zone;
}

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
    const auto zone = SelectedZone(plan.known, r.service_name);
    return zones::IsBillingZone(r.region) && zone && *zone == r.region;
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
  for (size_t i = 0; i < expected.size(); ++i) RC_ASSERT(SameRow(s.rows[i].row, *expected[i]));
  for (const SelectedRow& k : s.rows) {
    // Nothing outside {requested region, selected zones, Global}.
    RC_ASSERT(is_requested(k.row.region) || k.row.region == "Global" ||
              zones::IsBillingZone(k.row.region));
    // Sovereign and unknown regions never select a zone.
    if (plan.known == nullptr || plan.known->cloud != "public") {
      if (zones::IsBillingZone(k.row.region))
        RC_ASSERT(plan.known != nullptr && plan.known->cloud == "usgov");
    }
    // Every row of a kept meter at the same location is kept too (all terms and bands).
    for (const PriceRow& r : rows) {
      if (KeyOf(r) == KeyOf(k.row) && r.region == k.row.region) {
        RC_ASSERT(std::any_of(s.rows.begin(), s.rows.end(),
                              [&](const SelectedRow& x) { return SameRow(x.row, r); }));
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
    for (const SelectedRow& r : s.rows)
      ids.insert(r.row.meter_id + "@" + r.row.region + "#" + r.matched_by);
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
