#include "fakes/prices_server/catalog_generator.h"

#include <nlohmann/json.hpp>
#include <set>

#include "fakes/prices_server/price_api.h"
#include "gtest/gtest.h"

namespace azure_pricing::fakes::prices {
namespace {

using Json = nlohmann::ordered_json;

std::vector<std::string> Generate(uint64_t seed, int64_t n) {
  std::vector<std::string> lines;
  GenerateCatalog(seed, n, [&](const std::string& l) { lines.push_back(l); });
  return lines;
}

TEST(CatalogGeneratorTest, SameSeedSameCatalogOtherSeedOtherCatalog) {
  EXPECT_EQ(Generate(7, 500), Generate(7, 500));
  EXPECT_NE(Generate(7, 500), Generate(8, 500));
}

TEST(CatalogGeneratorTest, HasTheShapesOfTheRealPriceList) {
  std::set<std::string> regions, types, terms;
  int empty_sku = 0, savings = 0, tiers = 0, non_primary = 0;
  std::set<std::string> ids;
  for (const std::string& line : Generate(42, 5000)) {
    Json item = Json::parse(line);
    regions.insert(item["armRegionName"].get<std::string>());
    types.insert(item["type"].get<std::string>());
    if (item.contains("reservationTerm")) terms.insert(item["reservationTerm"].get<std::string>());
    empty_sku += item["armSkuName"] == "";
    savings += item.contains("savingsPlan");
    tiers += item["tierMinimumUnits"].get<double>() > 0;
    non_primary += !item["isPrimaryMeterRegion"].get<bool>();
    EXPECT_TRUE(ids.insert(item["meterId"].get<std::string>()).second);
  }
  for (const char* r : {"Global", "Zone 1", "Zone 9", "US Gov Zone 2", "eastus", ""}) {
    EXPECT_EQ(regions.count(r), 1u) << r;
  }
  EXPECT_EQ(types, (std::set<std::string>{"Consumption", "Reservation", "DevTestConsumption"}));
  EXPECT_EQ(terms, (std::set<std::string>{"1 Year", "3 Years"}));
  EXPECT_GT(empty_sku, 0);
  EXPECT_GT(savings, 0);
  EXPECT_GT(tiers, 0);
  EXPECT_GT(non_primary, 0);
}

TEST(CatalogGeneratorTest, LoadsIntoTheFakeApi) {
  std::string text;
  for (const std::string& line : Generate(3, 3000)) text += line + "\n";
  Catalog c;
  std::string error;
  ASSERT_TRUE(c.Add(text, &error)) << error;
  HttpResponse r = HandlePrices(c, "/api/retail/prices?api-version=2023-01-01-preview");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(Json::parse(r.body)["Count"], 1000);
}

}  // namespace
}  // namespace azure_pricing::fakes::prices
