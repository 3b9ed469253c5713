#include "ref/zones/zones.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "conformance/citations/cites.h"

namespace azure_pricing::zones {
CITES("ZONE-001", "ZONE-002", "ZONE-003", "ZONE-004", "ZONE-012");
namespace {

const ZoneTable& Table() { return ZoneTable::Bundled(); }

TEST(ZonesTest, BundledCsvIsTheShippedFileByteForByte) {
  std::ifstream in("ref/zones/billing_zones.csv", std::ios::binary);
  std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(file.empty());
  // The file has CRLF line ends; compiling it in leaves LF.
  std::erase(file, '\r');
  EXPECT_TRUE(BundledCsv() == file) << "the compiled-in table differs from billing_zones.csv";
  EXPECT_STREQ(kMappingCheckDate, "2026-11-03");
}

TEST(ZonesTest, BundledTableHoldsItsInvariants) {
  // Parse checks every invariant; the bundled copy must pass all of them.
  const StatusOr<ZoneTable> parsed = ZoneTable::Parse(BundledCsv());
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->regions().size(), 73u);
  int nearest = 0, published = 0, sovereign_without_zones = 0;
  for (const RegionZones& z : parsed->regions()) {
    if (z.network && z.network->basis == "nearest_region") ++nearest;
    if (z.network && z.network->basis == "published_region") ++published;
    if (z.cloud != "public" && !z.network && !z.edge && !z.dns) ++sovereign_without_zones;
  }
  EXPECT_GT(nearest, 0);
  EXPECT_GT(published, nearest);
  EXPECT_EQ(sovereign_without_zones, 8);  // US DoD East/Central and six China regions
}

// Each family reads its own column: japaneast's edge zone (Zone 2, by geography) differs from its
// DNS zone (Zone 1, uniform for commercial regions), so a family that read another's column
// would select Front Door or DNS rows at the wrong zone.
TEST(ZonesTest, EachFamilyReadsItsOwnAssignment) {
  const RegionZones* japan = Table().Find("japaneast");
  ASSERT_NE(japan, nullptr);
  ASSERT_TRUE(japan->For(ZoneFamily::kNetwork).has_value());
  ASSERT_TRUE(japan->For(ZoneFamily::kEdge).has_value());
  ASSERT_TRUE(japan->For(ZoneFamily::kDns).has_value());
  EXPECT_EQ(japan->For(ZoneFamily::kNetwork)->zone, "Zone 2");
  EXPECT_EQ(japan->For(ZoneFamily::kEdge)->zone, "Zone 2");
  EXPECT_EQ(japan->For(ZoneFamily::kEdge)->basis, "geography");
  EXPECT_EQ(japan->For(ZoneFamily::kDns)->zone, "Zone 1");
  EXPECT_EQ(japan->For(ZoneFamily::kDns)->basis, "uniform_commercial");
  // A region whose network and edge zones differ tells those two apart as well.
  const RegionZones* australia = Table().Find("australiaeast");
  ASSERT_NE(australia, nullptr);
  EXPECT_EQ(australia->For(ZoneFamily::kNetwork)->zone, "Zone 2");
  EXPECT_EQ(australia->For(ZoneFamily::kEdge)->zone, "Zone 4");
}

TEST(ZonesTest, KnownRegionsSelectTheirZones) {
  const RegionZones* eastus = Table().Find("eastus");
  ASSERT_NE(eastus, nullptr);
  EXPECT_EQ(eastus->network->zone, "Zone 1");
  EXPECT_EQ(eastus->network->basis, "published_region");
  EXPECT_EQ(eastus->network->reference_region, "eastus");
  EXPECT_EQ(eastus->edge->zone, "Zone 1");
  EXPECT_EQ(eastus->edge->basis, "geography");
  EXPECT_EQ(eastus->dns->zone, "Zone 1");
  EXPECT_EQ(eastus->dns->basis, "uniform_commercial");

  const RegionZones* australia = Table().Find("australiaeast");
  ASSERT_NE(australia, nullptr);
  EXPECT_EQ(australia->network->zone, "Zone 2");
  EXPECT_EQ(australia->edge->zone, "Zone 4");

  const RegionZones* qatar = Table().Find("qatarcentral");  // missing from the FAQ table
  ASSERT_NE(qatar, nullptr);
  EXPECT_EQ(qatar->network->basis, "nearest_region");
  EXPECT_EQ(qatar->network->reference_region, "uaecentral");
  EXPECT_EQ(qatar->network->zone, Table().Find("uaecentral")->network->zone);

  const RegionZones* gov = Table().Find("usgovvirginia");
  ASSERT_NE(gov, nullptr);
  EXPECT_EQ(gov->network->zone, "US Gov Zone 1");
  EXPECT_EQ(gov->dns->basis, "published_region");

  const RegionZones* china = Table().Find("chinaeast2");
  ASSERT_NE(china, nullptr);
  EXPECT_FALSE(china->network.has_value());
  EXPECT_FALSE(china->edge.has_value());
  EXPECT_FALSE(china->dns.has_value());
}

TEST(ZonesTest, LookupIsCaseInsensitiveAndNeverGuesses) {
  EXPECT_EQ(Table().Find("EastUS"), Table().Find("eastus"));
  EXPECT_EQ(Table().Find("marsnorth"), nullptr);
  EXPECT_EQ(Table().Find("east us"), nullptr);
  EXPECT_EQ(Table().Find(""), nullptr);
}

TEST(ZonesTest, FamiliesAndZoneNames) {
  EXPECT_EQ(FamilyOf("Virtual Network", "p"), ZoneFamily::kNetwork);
  EXPECT_EQ(FamilyOf("VPN Gateway", "p"), ZoneFamily::kNetwork);
  EXPECT_EQ(FamilyOf("Bandwidth", "p"), ZoneFamily::kNetwork);
  EXPECT_EQ(FamilyOf("Azure Front Door Service", "p"), ZoneFamily::kEdge);
  EXPECT_EQ(FamilyOf("Azure Front Door Service", "Azure Front Door Service"), ZoneFamily::kEdge);
  EXPECT_EQ(FamilyOf("Azure Front Door Service", "Azure Front Door"), std::nullopt);
  EXPECT_TRUE(IsFrontDoorStandardPremium("Azure Front Door Service", "Azure Front Door"));
  EXPECT_FALSE(IsFrontDoorStandardPremium("Azure Front Door Service", "Azure Front Door Service"));
  EXPECT_FALSE(IsFrontDoorStandardPremium("Content Delivery Network", "Azure Front Door"));
  EXPECT_EQ(FamilyOf("Content Delivery Network", "p"), ZoneFamily::kEdge);
  EXPECT_EQ(FamilyOf("Azure DNS", "p"), ZoneFamily::kDns);
  EXPECT_EQ(FamilyOf("ExpressRoute", "p"), std::nullopt);
  EXPECT_EQ(FamilyOf("virtual network", "p"), std::nullopt);  // price-list values are exact
  EXPECT_TRUE(IsBillingZone("Zone 9"));
  EXPECT_TRUE(IsBillingZone("US Gov Zone 2"));
  for (const char* not_a_zone :
       {"Global", "eastus", "1", "Zone 10", "zone 1", "DE Zone 1", "CN Zone 1"}) {
    EXPECT_FALSE(IsBillingZone(not_a_zone)) << not_a_zone;
  }
}

std::string Csv(const std::string& rows) {
  return "region,display_name,geography_group,cloud,network_zone,network_basis,"
         "network_reference_region,edge_zone,edge_basis,dns_zone,dns_basis,notes\n" +
         rows;
}

TEST(ZonesTest, ParseRefusesBrokenTables) {
  const std::string good =
      "eastus,East US,US,public,Zone 1,published_region,eastus,Zone 1,geography,Zone "
      "1,uniform_commercial,\n";
  ASSERT_TRUE(ZoneTable::Parse(Csv(good)).ok());
  const char* broken[] = {
      // duplicate region
      "eastus,East US,US,public,Zone 1,published_region,eastus,Zone 1,geography,Zone "
      "1,uniform_commercial,\n",
      // estimate borrowing from a region that is not published
      "newregion,New,US,public,Zone 1,nearest_region,nowhere,Zone 1,geography,Zone "
      "1,uniform_commercial,\n",
      // estimate disagreeing with its reference's zone
      "newregion,New,US,public,Zone 2,nearest_region,eastus,Zone 1,geography,Zone "
      "1,uniform_commercial,\n",
      // zone outside the expansion list
      "westus,West US,US,public,Zone 10,published_region,westus,Zone 1,geography,Zone "
      "1,uniform_commercial,\n",
      // sovereign region mapped by proximity
      "usdodeast,DoD,US Government,usgov,US Gov Zone 1,nearest_region,eastus,,,,,\n",
      // sovereign region mapped into commercial zones
      "chinaeast,China East,China,china,,,,Zone 2,geography,,,\n",
      // commercial DNS that is not uniform
      "westus,West US,US,public,Zone 1,published_region,westus,Zone 1,geography,Zone "
      "1,published_region,\n",
      // wrong field count, and an unterminated quote
      "westus,West US,US,public\n",
      "westus,West US,US,public,Zone 1,published_region,westus,Zone 1,geography,Zone "
      "1,uniform_commercial,\"open\n",
  };
  for (const char* row : broken) {
    EXPECT_FALSE(ZoneTable::Parse(Csv(good + row)).ok()) << row;
  }
  EXPECT_FALSE(ZoneTable::Parse("region,name\neastus,x\n").ok());
}

TEST(ZonesTest, QuotedFieldsWithCommasAreRead) {
  const StatusOr<ZoneTable> t =
      ZoneTable::Parse(Csv("eastus,East US,US,public,Zone 1,published_region,eastus,Zone "
                           "1,geography,Zone 1,uniform_commercial,\"a, \"\"b\"\"\"\n"));
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->regions()[0].notes, "a, \"b\"");
}

}  // namespace
}  // namespace azure_pricing::zones
