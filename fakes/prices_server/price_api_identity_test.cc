// The fast handler (items pre-serialised at load, candidates from the index's own lists) answers
// every request byte for byte as the handler before it did (price_api_oracle): over a generated
// catalog plus items shaped to catch the text splicing out (savingsPlan first, last or alone,
// escaped and non-ASCII strings, other currencies, odd numbers, duplicate keys), for filters,
// currencies, api versions, skips, meter regions and page sizes.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fakes/prices_server/catalog_generator.h"
#include "fakes/prices_server/price_api.h"
#include "fakes/prices_server/price_api_oracle.h"
#include "gtest/gtest.h"

namespace azure_pricing::fakes::prices {
namespace {

constexpr const char* kOddItems[] = {
    R"({"savingsPlan":[{"unitPrice":0.1,"term":"1 Year"}],"serviceName":"Odd","type":"Consumption","currencyCode":"USD","retailPrice":2})",
    R"({"savingsPlan":[]})",
    R"({"serviceName":"Odd","currencyCode":"USD","retailPrice":1.5,"unitPrice":1e300,"savingsPlan":{"nested":{"a":[1,2,{"b":null}]}}})",
    R"({"serviceName":"Odd","currencyCode":"EUR","retailPrice":-0.0,"unitPrice":12345678901234567890})",
    R"({"serviceName":"Odd","currencyCode":5,"retailPrice":1.5e-7,"unitPrice":"3"})",
    R"({"serviceName":"Odd \"quoted\" \\ name\u0001\t","meterName":"Zürich 東京 😀","location":"a\/b","currencyCode":"USD"})",
    R"({"serviceName":"odd","armRegionName":"EastUS","isPrimaryMeterRegion":"false","currencyCode":"USD"})",
    R"({"serviceName":"Odd","isPrimaryMeterRegion":false,"currencyCode":"USD","savingsPlan":[1]})",
    R"({"serviceName":"A","serviceName":"Odd","type":"Consumption","type":"Reservation"})",
    R"(  { "serviceName" : "Odd" , "meterId" : "odd-00001" , "skuName":"" }  )",
    R"({})",
    R"({"a{,:\"":"}],:\\\"{","serviceName":"Odd","savingsPlan":[{"x":"]},\"{"}],"meterId":"m,}{"})",
    R"({"serviceName":"Odd","nested":[[],{},[{}],"x"],"savingsPlan":"s","meterName":"{\"]"})",
};

std::string CatalogText() {
  std::string text;
  GenerateCatalog(5, 6000, [&](const std::string& line) { text += line + "\n"; });
  for (const char* item : kOddItems) text += std::string(item) + "\n";
  GenerateCatalog(6, 1500, [&](const std::string& line) { text += line + "\n"; });
  return text;
}

std::vector<std::string> Targets() {
  const std::vector<std::string> filters = {
      "",
      "&$filter=serviceName%20eq%20%27Odd%27",
      "&$filter=serviceName%20eq%20%27odd%27",
      "&$filter=priceType%20eq%20%27Consumption%27%20and%20serviceName%20eq%20%27Virtual%20"
      "Machines%27",
      "&$filter=armRegionName%20eq%20%27eastus%27%20or%20armRegionName%20eq%20%27westeurope%27"
      "%20or%20serviceName%20eq%20%27Odd%27",
      "&$filter=(serviceName eq 'Odd' or serviceName eq 'Bandwidth') and armRegionName eq "
      "'eastus'",
      "&$filter=serviceName eq 'Odd \"quoted\" \\ name%01%09'",
      "&$filter=contains(meterId,'00001')",
      "&$filter=contains(meterId,'}{') or contains(meterName,'\"]')",
      "&$filter=contains(meterName,'ürich') or serviceName eq 'Nothing'",
      "&$filter=meterId eq 'odd-00001' and serviceName eq 'Odd'",
      "&$filter=skuName eq '' and serviceName eq 'Odd'",
      "&$filter=serviceName eq 'Virtual Machines' and contains(armSkuName,'D8')",
      "&$filter=reservationTerm eq '3 Years'",
      "&$filter=serviceName eq",
      "&$filter=savingsPlan/any(p: p/term eq '1 Year')",
  };
  const std::vector<std::string> prefixes = {
      "currencyCode=USD",
      "api-version=2023-01-01-preview&currencyCode=%27USD%27",
      "currencyCode=EUR&api-version=2021-10-01-preview",
      "api-version=2023-01-01-preview&currencyCode=JPY&meterRegion=%27primary%27",
      "currencyCode=XYZ",
      "api-version=2099-01-01",
  };
  std::vector<std::string> out;
  for (const std::string& prefix : prefixes) {
    for (const std::string& filter : filters) {
      for (const char* skip : {"", "&$skip=1000", "&$skip=1", "&$skip=99999", "&$skip=x"}) {
        out.push_back("/api/retail/prices?" + prefix + filter + skip);
      }
    }
  }
  for (const char* other : {"/api/retail/prices", "/api/retail/prices?", "/api/other",
                            "/api/retail/prices?$skip=7&currencyCode&$filter="}) {
    out.push_back(other);
  }
  return out;
}

// The answer, or a marker when the handler throws (as nlohmann does for some odd items).
std::string Answer(const auto& catalog, const std::string& target, int page_size, auto handle) {
  try {
    const HttpResponse r = handle(catalog, target, page_size);
    return std::to_string(r.status) + " " + r.content_type + "\n" + r.body;
  } catch (const std::exception& e) {
    return std::string("threw ") + e.what();
  }
}

TEST(PriceApiIdentityTest, EveryAnswerIsTheOraclesByteForByte) {
  const std::string text = CatalogText();
  Catalog fast;
  oracle::Catalog slow;
  std::string error;
  ASSERT_TRUE(fast.Add(text, &error)) << error;
  ASSERT_TRUE(slow.Add(text, &error)) << error;
  ASSERT_EQ(fast.size(), slow.size());
  int pages = 0;
  for (const std::string& target : Targets()) {
    for (int page_size : {kPageSize, 7}) {
      const std::string want = Answer(slow, target, page_size, [](auto& c, auto& t, int n) {
        return oracle::HandlePrices(c, t, n);
      });
      const std::string got = Answer(fast, target, page_size, [](auto& c, auto& t, int n) {
        return HandlePrices(c, t, n);
      });
      ASSERT_EQ(got, want) << target << " (page size " << page_size << ")";
      pages += want.find("\"Count\":") != std::string::npos &&
               want.find("\"Count\":0}") == std::string::npos;
    }
  }
  EXPECT_GT(pages, 200);  // the comparisons are not all of empty pages or errors
  // The odd items' values are found where the texts hold them.
  const std::string odd = HandlePrices(fast,
                                       "/api/retail/prices?$filter=contains(meterId,'}{') or "
                                       "contains(meterName,'\"]')")
                              .body;
  EXPECT_NE(odd.find(R"("meterId":"m,}{")"), std::string::npos) << odd;
  EXPECT_NE(odd.find(R"("Count":2})"), std::string::npos) << odd;
}

TEST(PriceApiIdentityTest, ItemsThatAreNotObjectsAnswerAsBefore) {
  const std::string text = R"({"Items": [1, "two", [3], {"serviceName": "Odd"}, null]})";
  Catalog fast;
  oracle::Catalog slow;
  ASSERT_TRUE(fast.Add(text, nullptr));
  ASSERT_TRUE(slow.Add(text, nullptr));
  for (const char* target :
       {"/api/retail/prices", "/api/retail/prices?api-version=2023-01-01-preview",
        "/api/retail/prices?api-version=2023-01-01-preview&currencyCode=EUR",
        "/api/retail/prices?api-version=2023-01-01-preview&$filter=serviceName eq 'Odd'"}) {
    const std::string want = Answer(slow, target, kPageSize, [](auto& c, auto& t, int n) {
      return oracle::HandlePrices(c, std::string(t), n);
    });
    const std::string got = Answer(fast, target, kPageSize, [](auto& c, auto& t, int n) {
      return HandlePrices(c, std::string(t), n);
    });
    EXPECT_EQ(got, want) << target;
  }
}

}  // namespace
}  // namespace azure_pricing::fakes::prices
