// The fake API against the documented contract (as recorded in
// fixtures/azmcp-3.0.0-beta.46/upstream-synthetic).
#include "fakes/prices_server/price_api.h"

#include <nlohmann/json.hpp>

#include "gtest/gtest.h"

namespace azure_pricing::fakes::prices {
namespace {

using Json = nlohmann::ordered_json;

std::string Item(int i, const std::string& service, const std::string& region, bool primary = true,
                 bool savings = false) {
  Json item = {{"currencyCode", "USD"},
               {"tierMinimumUnits", 0.0},
               {"retailPrice", 0.5},
               {"unitPrice", 0.5},
               {"armRegionName", region},
               {"location", "Somewhere"},
               {"effectiveStartDate", "2024-01-01T00:00:00Z"},
               {"meterId", "m-" + std::to_string(i)},
               {"meterName", "Meter " + std::to_string(i % 7)},
               {"productId", "P"},
               {"skuId", "P/S"},
               {"productName", "Product"},
               {"skuName", "Sku"},
               {"serviceName", service},
               {"serviceId", "S"},
               {"serviceFamily", "Compute"},
               {"unitOfMeasure", "1 Hour"},
               {"type", "Consumption"},
               {"isPrimaryMeterRegion", primary},
               {"armSkuName", "Standard_X"}};
  if (savings)
    item["savingsPlan"] =
        Json::array({{{"unitPrice", 0.3}, {"retailPrice", 0.3}, {"term", "1 Year"}}});
  return item.dump();
}

Catalog Make(int n) {
  std::string lines;
  for (int i = 0; i < n; ++i) {
    lines += Item(i, i % 2 == 0 ? "Virtual Machines" : "Bandwidth",
                  i % 3 == 0 ? "eastus" : "westus", i % 10 != 9, i % 4 == 0) +
             "\n";
  }
  Catalog c;
  std::string error;
  EXPECT_TRUE(c.Add(lines, &error)) << error;
  return c;
}

Json Get(const Catalog& c, const std::string& target, int want_status = 200) {
  HttpResponse r = HandlePrices(c, target);
  EXPECT_EQ(r.status, want_status) << target << " -> " << r.body;
  return Json::parse(r.body, nullptr, false);
}

TEST(PriceApiTest, PagesOfAThousandWithAbsoluteNextPageLinks) {
  Catalog c = Make(2500);
  Json p1 = Get(c, "/api/retail/prices?currencyCode=USD");
  EXPECT_EQ(p1["Count"], 1000);
  EXPECT_EQ(p1["Items"].size(), 1000u);
  EXPECT_EQ(p1["NextPageLink"],
            "https://prices.azure.com:443/api/retail/prices?currencyCode=USD&$skip=1000");
  std::vector<std::string> keys;
  for (const auto& [k, v] : p1.items()) keys.push_back(k);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"BillingCurrency", "CustomerEntityId", "CustomerEntityType",
                                      "Items", "NextPageLink", "Count"}));
  // Every version returns non-primary meter regions (a real page with no api-version holds
  // them: fixtures/real-price-rows/r2); meterRegion='primary' drops every tenth item.
  Json p3 = Get(c, "/api/retail/prices?currencyCode=USD&$skip=2000");
  EXPECT_EQ(p3["Count"], 500);
  EXPECT_TRUE(p3["NextPageLink"].is_null());
  Json default_primary =
      Get(c, "/api/retail/prices?currencyCode=USD&meterRegion='primary'&$skip=2000");
  EXPECT_EQ(default_primary["Count"], 250);
  Json preview =
      Get(c, "/api/retail/prices?api-version=2023-01-01-preview&currencyCode=USD&$skip=2000");
  EXPECT_EQ(preview["Count"], 500);
  Json primary =
      Get(c, "/api/retail/prices?api-version=2023-01-01-preview&meterRegion='primary'&$skip=2000");
  EXPECT_EQ(primary["Count"], 250);
}

TEST(PriceApiTest, NextPageLinkKeepsTheOriginalQuery) {
  Catalog c = Make(3000);
  Json p = Get(c,
               "/api/retail/prices?api-version=2023-01-01-preview&currencyCode=USD&$filter="
               "serviceName%20eq%20%27Bandwidth%27");
  EXPECT_EQ(p["Count"], 1000);
  EXPECT_EQ(p["NextPageLink"],
            "https://prices.azure.com:443/api/retail/prices?api-version=2023-01-01-preview&"
            "currencyCode=USD&$filter=serviceName%20eq%20%27Bandwidth%27&$skip=1000");
  Json last = Get(c,
                  "/api/retail/prices?api-version=2023-01-01-preview&currencyCode=USD&$filter="
                  "serviceName%20eq%20%27Bandwidth%27&$skip=1000");
  EXPECT_EQ(last["Count"], 500);
  for (const auto& item : last["Items"]) EXPECT_EQ(item["serviceName"], "Bandwidth");
}

TEST(PriceApiTest, ApiVersionsAndSavingsPlans) {
  Catalog c = Make(8);
  EXPECT_EQ(Get(c, "/api/retail/prices?api-version=2023-01-01", 400)["Error"]["Message"],
            "Unsupported API version");
  Json stable = Get(c, "/api/retail/prices");
  for (const auto& item : stable["Items"]) EXPECT_FALSE(item.contains("savingsPlan"));
  Json old = Get(c, "/api/retail/prices?api-version=2021-10-01-preview");
  for (const auto& item : old["Items"]) EXPECT_FALSE(item.contains("savingsPlan"));
  Json preview = Get(c, "/api/retail/prices?api-version=2023-01-01-preview");
  EXPECT_TRUE(preview["Items"][0].contains("savingsPlan"));
}

TEST(PriceApiTest, RecordedErrorBodies) {
  Catalog c = Make(8);
  const Json odata = Get(c, "/api/retail/prices?$filter=termType%20eq%20%271%20Year%27", 400);
  EXPECT_EQ(odata.dump(),
            R"({"Error":{"Code":"BadRequest","Message":"Invalid OData parameters supplied"}})");
  EXPECT_EQ(Get(c, "/api/retail/prices?$filter=savingsPlan/any(t:%20t/term%20eq%20%271%20Year%27)",
                400)["Error"]["Message"],
            "Invalid parameters supplied");
  EXPECT_EQ(Get(c, "/api/retail/prices?$skip=9", 400)["Error"]["Message"],
            "Skip value 9 is greater than the total count 8");
  EXPECT_EQ(HandlePrices(c, "/api/retail/prices?$filter=" + std::string(2100, 'a')).status, 404);
  EXPECT_EQ(HandlePrices(c, "/api/other").status, 404);
}

TEST(PriceApiTest, CaseSensitiveFromThe2023PreviewOn) {
  Catalog c = Make(8);
  const std::string f = "$filter=serviceName%20eq%20%27bandwidth%27";
  EXPECT_EQ(Get(c, "/api/retail/prices?" + f)["Count"], 4);
  EXPECT_EQ(Get(c, "/api/retail/prices?api-version=2023-01-01-preview&" + f)["Count"], 0);
}

TEST(PriceApiTest, CurrencyConvertsPricesAndLabelsThePage) {
  Catalog c = Make(2);
  Json eur = Get(c, "/api/retail/prices?currencyCode=EUR");
  EXPECT_EQ(eur["BillingCurrency"], "EUR");
  EXPECT_EQ(eur["Items"][0]["currencyCode"], "EUR");
  EXPECT_DOUBLE_EQ(eur["Items"][0]["retailPrice"].get<double>(), 0.5 * 0.92);
  EXPECT_EQ(Get(c, "/api/retail/prices?currencyCode='EUR'")["BillingCurrency"], "EUR");
}

TEST(PriceApiTest, IndexedAnswersEqualAFullScan) {
  Catalog c = Make(5000);
  // `contains` forces a scan; OR-ing it with an impossible indexed clause keeps the meaning.
  for (const std::string& clause :
       {std::string("serviceName eq 'Bandwidth' and armRegionName eq 'eastus'"),
        std::string("(armRegionName eq 'eastus' or armRegionName eq 'westus') and meterName eq "
                    "'Meter 3'"),
        std::string("meterName eq 'Meter 3' or serviceName eq 'Bandwidth'")}) {
    std::string encoded;
    for (char ch : clause) {
      if (ch == ' ')
        encoded += "%20";
      else if (ch == '\'')
        encoded += "%27";
      else
        encoded += ch;
    }
    std::string scan = "(" + clause + ") and contains(meterId,'m-')";
    std::string scan_encoded;
    for (char ch : scan) {
      if (ch == ' ')
        scan_encoded += "%20";
      else if (ch == '\'')
        scan_encoded += "%27";
      else
        scan_encoded += ch;
    }
    for (int skip = 0;; skip += 1000) {
      Json a = Get(c, "/api/retail/prices?$filter=" + encoded + "&$skip=" + std::to_string(skip));
      Json b =
          Get(c, "/api/retail/prices?$filter=" + scan_encoded + "&$skip=" + std::to_string(skip));
      EXPECT_EQ(a["Items"], b["Items"]) << clause;
      if (a["NextPageLink"].is_null()) break;
    }
  }
}

TEST(CatalogTest, LoadsPagesAndJsonLinesAndRefusesOtherText) {
  Catalog c;
  std::string error;
  EXPECT_TRUE(c.Add(R"({"BillingCurrency":"USD","Items":[{"a":1},{"a":2}],"Count":2})", &error));
  EXPECT_TRUE(c.Add("{\"a\":3}\n\n{\"a\":4}\n", &error));
  EXPECT_EQ(c.size(), 4u);
  EXPECT_FALSE(c.Add("{\"a\":5}\nnot json\n", &error));
  EXPECT_EQ(error, "line 2 is not a JSON object");
  EXPECT_FALSE(c.Add("[1,2]", &error));
}

}  // namespace
}  // namespace azure_pricing::fakes::prices
