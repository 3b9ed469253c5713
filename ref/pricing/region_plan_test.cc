#include "ref/pricing/region_plan.h"

#include <gtest/gtest.h>

#include <string>

#include "conformance/citations/cites.h"
#include "ref/zones/zones.h"

namespace azure_pricing {
CITES("REGION-001", "REGION-002", "REGION-003", "REGION-004", "REGION-006", "REGION-009");
namespace {

// The expansion's location set as the spec lists it (REGION-001), written out here rather than
// built from zones::kExpansionZones, so that a change of that list fails this test.
constexpr char kZoneTerms[] =
    " or armRegionName eq 'Global' or armRegionName eq 'Zone 1' or armRegionName eq 'Zone 2'"
    " or armRegionName eq 'Zone 3' or armRegionName eq 'Zone 4' or armRegionName eq 'Zone 5'"
    " or armRegionName eq 'Zone 6' or armRegionName eq 'Zone 7' or armRegionName eq 'Zone 8'"
    " or armRegionName eq 'Zone 9' or armRegionName eq 'US Gov Zone 1'"
    " or armRegionName eq 'US Gov Zone 2'";

RegionPlan Plan(std::optional<std::string> region, std::optional<std::string> filter = {}) {
  ToolArguments args;
  args.region = std::move(region);
  args.filter = std::move(filter);
  return PlanRegion(args, zones::ZoneTable::Bundled());
}

TEST(RegionPlanTest, AKnownArmRegionExpandsUnderItsCanonicalName) {
  const RegionPlan plan = Plan("EastUS");
  ASSERT_TRUE(plan.expanded);
  ASSERT_NE(plan.known, nullptr);
  EXPECT_EQ(plan.requested_region, "eastus");
  EXPECT_EQ(plan.filter, std::string("(armRegionName eq 'eastus'") + kZoneTerms + ")");
}

TEST(RegionPlanTest, AnUnknownRegionExpandsAsGivenWithItsQuotesDoubled) {
  const RegionPlan plan = Plan("mars'north");
  ASSERT_TRUE(plan.expanded);
  EXPECT_EQ(plan.known, nullptr);
  EXPECT_EQ(plan.requested_region, "mars'north");
  EXPECT_EQ(plan.filter, std::string("(armRegionName eq 'mars''north'") + kZoneTerms + ")");
}

TEST(RegionPlanTest, TheRawFilterIsAndedInParentheses) {
  const RegionPlan plan = Plan("westeurope", "meterName eq 'A' or meterName eq 'B'");
  ASSERT_TRUE(plan.expanded);
  EXPECT_EQ(plan.filter, std::string("(armRegionName eq 'westeurope'") + kZoneTerms +
                             ") and (meterName eq 'A' or meterName eq 'B')");
}

TEST(RegionPlanTest, LocationValuesAndNoRegionKeepTheClisBehaviour) {
  for (const char* value : {"Global", "Zone 1", "Zone 9", "US Gov Zone 2", "DE Zone 1",
                            "CN Zone 1", "Zone 1 (China)", "US Gov"}) {
    EXPECT_FALSE(Plan(value).expanded) << value;
  }
  EXPECT_FALSE(Plan(std::nullopt, "armRegionName eq 'eastus'").expanded);
  // Only the exact spelling is a location value; a near miss is an ARM region name to expand.
  EXPECT_TRUE(Plan("zone1").expanded);
}

TEST(RegionPlanTest, AnArmRegionNameFieldInTheFilterDisablesExpansionInAnyLetterCase) {
  EXPECT_FALSE(Plan("eastus", "armRegionName eq 'westus'").expanded);
  EXPECT_FALSE(Plan("eastus", "ARMREGIONNAME eq 'westus'").expanded);
  EXPECT_FALSE(Plan("eastus", "(meterName eq 'x') and armregionname eq ''").expanded);
}

TEST(RegionPlanTest, ArmRegionNameInsideALiteralOrAnotherWordDoesNotCount) {
  EXPECT_FALSE(FilterNamesArmRegionName("meterName eq 'armRegionName'"));
  EXPECT_FALSE(FilterNamesArmRegionName("meterName eq 'it''s armRegionName eq x'"));
  EXPECT_FALSE(FilterNamesArmRegionName("xarmRegionName eq 'a' or armRegionNames eq 'b'"));
  EXPECT_TRUE(FilterNamesArmRegionName("meterName eq 'a''b' and armRegionName eq 'c'"));
  EXPECT_TRUE(Plan("eastus", "meterName eq 'armRegionName eq eastus'").expanded);
}

}  // namespace
}  // namespace azure_pricing
