#include "conformance/stack/catalog_summary.h"

#include <string>

#include "gtest/gtest.h"

namespace azure_pricing::conformance::stack {
namespace {

std::string Item(const std::string& service, const std::string& region) {
  return R"({"serviceName":")" + service + R"(","armRegionName":")" + region + "\"}\n";
}

TEST(DescribeCatalogTest, ListsServicesAndRegionsMostFirst) {
  const std::string jsonl = Item("Virtual Machines", "eastus") +
                            Item("Virtual Machines", "westeurope") +
                            Item("Virtual Machines", "westeurope") + Item("Bandwidth", "eastus") +
                            Item("Bandwidth", "westeurope");
  EXPECT_EQ(DescribeCatalog(jsonl, "fixtures/x/PROVENANCE.md"),
            "local stack: offline catalog of 5 rows; 2 services: Virtual Machines, Bandwidth; "
            "2 regions: westeurope, eastus (fixtures/x/PROVENANCE.md)");
}

TEST(DescribeCatalogTest, TiesGoByNameAndEmptyRegionsAreLeftOut) {
  const std::string jsonl = Item("B", "") + Item("A", "Zone 1") + Item("C", "") + "\n";
  EXPECT_EQ(DescribeCatalog(jsonl, "s"),
            "local stack: offline catalog of 3 rows; 3 services: A, B, C; 1 region: Zone 1 (s)");
}

TEST(DescribeCatalogTest, LongListsEndWithHowManyMore) {
  std::string jsonl;
  for (char c = 'a'; c < 'a' + 11; ++c) jsonl += Item("S", std::string(1, c));
  jsonl += Item("S", "k");  // 12 rows; k has two
  EXPECT_EQ(DescribeCatalog(jsonl, "s"),
            "local stack: offline catalog of 12 rows; 1 service: S; "
            "11 regions: k, a, b, c, d, e, f, g and 3 more (s)");
}

TEST(DescribeCatalogTest, CountsGroupThousandsAndSkipLinesThatAreNoObject) {
  std::string jsonl = "not json\n[1]\n";
  for (int i = 0; i < 1234; ++i) jsonl += Item("S", "eastus");
  const std::string last_without_newline = R"({"serviceName":"S","armRegionName":"eastus"})";
  EXPECT_EQ(DescribeCatalog(jsonl + last_without_newline, "s"),
            "local stack: offline catalog of 1,235 rows; 1 service: S; 1 region: eastus (s)");
}

TEST(DescribeCatalogTest, AnEmptyCatalogSaysSo) {
  EXPECT_EQ(DescribeCatalog("", "s"),
            "local stack: offline catalog of 0 rows; 0 services; 0 regions (s)");
}

}  // namespace
}  // namespace azure_pricing::conformance::stack
