#include "ref/pricing/selection.h"

#include <gtest/gtest.h>

#include "conformance/citations/cites.h"
#include "ref/pricing/region_plan.h"
#include "ref/zones/zones.h"

namespace azure_pricing {
CITES("REGION-009", "SELECT-002", "SELECT-003", "SELECT-004", "SELECT-005", "SELECT-006",
      "SELECT-007", "SELECT-008", "SELECT-009", "SELECT-010", "SELECT-011", "SELECT-014",
      "SELECT-015", "SELECT-016", "ZONE-005", "ZONE-006", "ZONE-007", "ZONE-008", "ZONE-009",
      "ZONE-010", "ZONE-011", "BOUND-023");
namespace {

PriceRow Row(std::string region, std::string service, std::string product, std::string meter,
             std::string id) {
  PriceRow r;
  r.region = std::move(region);
  r.service_name = std::move(service);
  r.product_name = std::move(product);
  r.meter_name = std::move(meter);
  r.meter_id = std::move(id);
  r.price_type = "Consumption";
  return r;
}

RegionPlan Plan(const std::string& region) {
  ToolArguments args;
  args.region = region;
  return PlanRegion(args, zones::ZoneTable::Bundled());
}

std::vector<std::string> Ids(const Selection& s) {
  std::vector<std::string> ids;
  for (size_t i = 0; i < s.rows.size(); ++i) {
    ids.push_back(s.rows[i].meter_id + ":" + s.matches[i].matched_by);
  }
  return ids;
}

bool HasNote(const Selection& s, const char* note) {
  return std::find(s.notes.begin(), s.notes.end(), note) != s.notes.end();
}

TEST(SelectionTest, RegionalZoneAndGlobalFallback) {
  const std::vector<PriceRow> rows = {
      Row("eastus", "Virtual Machines", "D", "D4s v5", "r1"),
      Row("westus", "Virtual Machines", "D", "D4s v5", "foreign"),
      Row("Zone 1", "Bandwidth", "Rtn", "Egress", "z1"),
      Row("Zone 2", "Bandwidth", "Rtn", "Egress", "z2"),
      Row("Global", "Bandwidth", "Rtn", "Egress", "g-suppressed"),
      Row("Global", "Virtual Network", "Private Link", "Standard Private Endpoint", "g-kept"),
      Row("eastus", "Virtual Machines", "D", "D4s v5", "r2"),  // another band of the same meter
  };
  const Selection s = SelectRows(rows, Plan("eastus"), false);
  EXPECT_EQ(Ids(s),
            (std::vector<std::string>{"r1:region", "z1:zone", "g-kept:global", "r2:region"}));
  EXPECT_EQ(s.matches.size(), s.rows.size());
  EXPECT_EQ(s.rows[1].region, "Zone 1");  // the CLI's own value is kept
  const RowMatch& zone = s.matches[1];
  EXPECT_EQ(zone.zone, "Zone 1");
  EXPECT_EQ(zone.zone_family, "network");
  EXPECT_EQ(zone.zone_basis, "published_region");
  EXPECT_EQ(zone.zone_reference_region, "eastus");
  EXPECT_FALSE(s.matches[0].zone.has_value());
  EXPECT_TRUE(s.notes.empty());
}

TEST(SelectionTest, EdgeAndDnsFamiliesUseTheirOwnZones) {
  const std::vector<PriceRow> rows = {
      Row("Zone 2", "Content Delivery Network", "CDN", "Data Transfer", "cdn-z2"),
      Row("Zone 4", "Content Delivery Network", "CDN", "Data Transfer", "cdn-z4"),
      Row("Zone 1", "Azure DNS", "DNS", "Zone", "dns-z1"),
      Row("Zone 2", "Virtual Network", "Peering", "Egress", "vnet-z2"),
  };
  const Selection s = SelectRows(rows, Plan("australiaeast"), false);
  EXPECT_EQ(Ids(s), (std::vector<std::string>{"cdn-z4:zone", "dns-z1:zone", "vnet-z2:zone"}));
  EXPECT_EQ(s.matches[0].zone_family, "edge");
  EXPECT_EQ(s.matches[0].zone_basis, "geography");
  EXPECT_FALSE(s.matches[0].zone_reference_region.has_value());
  EXPECT_EQ(s.matches[1].zone_basis, "uniform_commercial");
  EXPECT_TRUE(HasNote(s, kNoteEdgeZone));
}

TEST(SelectionTest, NearestRegionEstimatesAreNoted) {
  const Selection s =
      SelectRows({Row("Zone 3", "Bandwidth", "Rtn", "Egress", "z3")}, Plan("qatarcentral"), false);
  ASSERT_EQ(s.rows.size(), 1u);
  EXPECT_EQ(s.matches[0].zone_basis, "nearest_region");
  EXPECT_EQ(s.matches[0].zone_reference_region, "uaecentral");
  EXPECT_TRUE(HasNote(s, kNoteNearestRegion));
  EXPECT_FALSE(HasNote(s, kNoteEdgeZone));
}

TEST(SelectionTest, UnknownRegionKeepsRegionalAndGlobalAndOmitsZones) {
  const std::vector<PriceRow> rows = {
      Row("marsnorth", "Virtual Machines", "D", "D4s v5", "r"),
      Row("Zone 1", "Bandwidth", "Rtn", "Egress", "z"),
      Row("Global", "Bandwidth", "Rtn", "Egress", "g"),
  };
  const Selection s = SelectRows(rows, Plan("marsnorth"), false);
  EXPECT_EQ(Ids(s), (std::vector<std::string>{"r:region", "g:global"}));
  EXPECT_TRUE(HasNote(s, kNoteUnknownRegion));
  EXPECT_TRUE(HasNote(s, kNoteNotProofOfAbsence));
  // Even with no zone rows at all, an unknown region says zones could not be selected.
  EXPECT_TRUE(HasNote(SelectRows({}, Plan("marsnorth"), false), kNoteUnknownRegion));
}

TEST(SelectionTest, SovereignRegionsSelectNoCommercialZone) {
  const std::vector<PriceRow> rows = {Row("Zone 1", "Bandwidth", "Rtn", "Egress", "z"),
                                      Row("Global", "Bandwidth", "Rtn", "Egress", "g")};
  const Selection s = SelectRows(rows, Plan("chinaeast2"), false);
  EXPECT_EQ(Ids(s), (std::vector<std::string>{"g:global"}));
  EXPECT_TRUE(HasNote(s, kNoteNoAssignment));
}

TEST(SelectionTest, ExpressRouteAndUnknownFamiliesAreOmittedWithNotes) {
  const std::vector<PriceRow> rows = {
      Row("Zone 1", "ExpressRoute", "ER", "Metered Data", "er"),
      Row("Zone 1", "Azure Firewall", "FW", "Data", "fw"),
  };
  const Selection s = SelectRows(rows, Plan("eastus"), false);
  EXPECT_TRUE(s.rows.empty());
  EXPECT_TRUE(HasNote(s, kNoteExpressRoute));
  EXPECT_TRUE(HasNote(s, kNoteUnknownFamily));
  EXPECT_TRUE(HasNote(s, kNoteNotProofOfAbsence));
}

// The two Front Door product lines share a service but not their zones: classic Front Door and
// CDN bill in the CDN zones 1 to 5; Standard/Premium bills in Zones 1 to 8 whose geographies the
// mapping does not know, so none of its rows is selected, not even the Zone 1 the classic line
// selects, and a Global row of its meter survives.
TEST(SelectionTest, FrontDoorStandardPremiumZonesAreOmittedWithANote) {
  const std::vector<PriceRow> rows = {
      Row("Zone 1", "Azure Front Door Service", "Azure Front Door Service",
          "Standard Data Transfer Out", "classic-z1"),
      Row("Zone 1", "Azure Front Door Service", "Azure Front Door", "Standard Data Transfer Out",
          "premium-z1"),
      Row("Zone 6", "Azure Front Door Service", "Azure Front Door", "Standard Data Transfer Out",
          "premium-z6"),
      Row("Zone 8", "Azure Front Door Service", "Azure Front Door", "Premium Requests",
          "premium-z8"),
      Row("Global", "Azure Front Door Service", "Azure Front Door", "Premium Requests",
          "premium-global"),
      Row("Zone 1", "Content Delivery Network", "Azure CDN from Microsoft",
          "Standard Data Transfer", "cdn-z1"),
      Row("Zone 4", "Content Delivery Network", "Azure CDN from Microsoft",
          "Standard Data Transfer", "cdn-z4"),
  };
  const Selection west = SelectRows(rows, Plan("westeurope"), false);
  EXPECT_EQ(Ids(west), (std::vector<std::string>{"classic-z1:zone", "premium-global:global",
                                                 "cdn-z1:zone"}));
  EXPECT_TRUE(HasNote(west, kNoteFrontDoorStandardPremium));
  EXPECT_TRUE(HasNote(west, kNoteEdgeZone));
  EXPECT_TRUE(HasNote(west, kNoteNotProofOfAbsence));
  const Selection australia = SelectRows(rows, Plan("australiaeast"), false);
  EXPECT_EQ(Ids(australia),
            (std::vector<std::string>{"premium-global:global", "cdn-z4:zone"}));
  EXPECT_TRUE(HasNote(australia, kNoteFrontDoorStandardPremium));
}

TEST(SelectionTest, ClassicFrontDoorAloneGetsNoStandardPremiumNote) {
  const std::vector<PriceRow> rows = {Row("Zone 1", "Azure Front Door Service",
                                          "Azure Front Door Service", "Standard Data Transfer Out",
                                          "classic-z1")};
  const Selection s = SelectRows(rows, Plan("eastus"), false);
  EXPECT_EQ(Ids(s), (std::vector<std::string>{"classic-z1:zone"}));
  EXPECT_FALSE(HasNote(s, kNoteFrontDoorStandardPremium));
  EXPECT_FALSE(HasNote(s, kNoteNotProofOfAbsence));
}

TEST(SelectionTest, IncompleteIdentitiesNeverSuppressGlobalRows) {
  const std::vector<PriceRow> rows = {
      Row("eastus", "Virtual Network", "", "Standard Private Endpoint", "r-incomplete"),
      Row("Global", "Virtual Network", "", "Standard Private Endpoint", "g"),
  };
  const Selection s = SelectRows(rows, Plan("eastus"), false);
  EXPECT_EQ(Ids(s), (std::vector<std::string>{"r-incomplete:region", "g:global"}));
}

TEST(SelectionTest, GlobalVnetPeeringWithArmRegionsMatchesAsRegional) {
  const std::vector<PriceRow> rows = {
      Row("eastus", "Virtual Network", "Global VNet Peering", "Inbound data transfer", "p"),
      Row("Global", "Virtual Network", "Global VNet Peering", "Inbound data transfer", "g"),
  };
  EXPECT_EQ(Ids(SelectRows(rows, Plan("EastUS"), false)), (std::vector<std::string>{"p:region"}));
}

TEST(SelectionTest, GlobalFallbackFromATruncatedResultSaysSo) {
  const std::vector<PriceRow> rows = {Row("Global", "Bandwidth", "Rtn", "Egress", "g")};
  EXPECT_TRUE(HasNote(SelectRows(rows, Plan("eastus"), true), kNoteGlobalFromTruncated));
  EXPECT_FALSE(HasNote(SelectRows(rows, Plan("eastus"), false), kNoteGlobalFromTruncated));
}

}  // namespace
}  // namespace azure_pricing
