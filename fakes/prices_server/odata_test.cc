// The filter subset and its refusals, from the documented and recorded behaviour of
// prices.azure.com (as recorded in fixtures/azmcp-3.0.0-beta.46/upstream-synthetic).
#include "fakes/prices_server/odata.h"

#include <map>

#include "gtest/gtest.h"

namespace azure_pricing::fakes::prices {
namespace {

FilterError ErrorOf(std::string_view text) { return ParseFilter(text).error; }

TEST(ParseFilterTest, AcceptsTheDocumentedSubset) {
  for (const char* text : {
           "serviceName eq 'Virtual Machines'",
           "armRegionName eq 'eastus' and priceType eq 'Consumption'",
           "(armRegionName eq 'northeurope' or armRegionName eq 'Zone 1') and serviceName eq "
           "'Bandwidth'",
           "contains(meterName, 'Spot')",
           "contains(productName,'DSv3')",
           "reservationTerm eq '1 Year'",
           "armRegionName eq ''",
           "Location eq 'US East' and productid eq 'DZH318Z0BQ4L'",
           "skuName eq 'O''Brien'",
           "priceType eq 'SavingsPlan'",
           "  serviceFamily eq 'Compute'  ",
       }) {
    EXPECT_EQ(ErrorOf(text), FilterError::kNone) << text;
  }
}

TEST(ParseFilterTest, RefusesWhatTheApiRefuses) {
  for (const char* text : {
           "termType eq '1 Year'",
           "armSkuName in ('a','b')",
           "not contains(productName,'Windows')",
           "not(contains(productName,'Windows'))",
           "retailPrice gt 1",
           "serviceName ne 'x'",
           "startswith(productName,'Virtual')",
           "priceType eq 'OnDemand'",
           "priceType eq 'Spot'",
           "priceType eq 'consumption'",
           "serviceName eq 'unterminated",
           "(serviceName eq 'x'",
           "serviceName eq 'x')",
           "serviceName eq 'x' and",
           "serviceName eq \"x\"",
           "serviceName EQ 'x'",
           "",
       }) {
    EXPECT_EQ(ErrorOf(text), FilterError::kInvalidOData) << text;
  }
  EXPECT_EQ(ErrorOf("savingsPlan/any(t: t/term eq '1 Year')"), FilterError::kInvalidParameters);
}

TEST(ParseFilterTest, TwentyComparisonsAtMost) {
  std::string text = "armSkuName eq 'a0'";
  for (int i = 1; i < 20; ++i) text += " or armSkuName eq 'a" + std::to_string(i) + "'";
  ParsedFilter twenty = ParseFilter(text);
  EXPECT_EQ(twenty.error, FilterError::kNone);
  EXPECT_EQ(twenty.comparisons, 20);
  EXPECT_EQ(ErrorOf(text + " or armSkuName eq 'a20'"), FilterError::kInvalidOData);
}

// A few thousand '(' once overflowed the parser's stack (tools/fuzz/corpus/odata/regression-*).
TEST(ParseFilterTest, DeepNestingIsRefusedNotACrash) {
  const auto nested = [](int depth) {
    return std::string(depth, '(') + "armSkuName eq 'a'" + std::string(depth, ')');
  };
  EXPECT_EQ(ErrorOf(nested(kMaxNesting)), FilterError::kNone);
  EXPECT_EQ(ErrorOf(nested(kMaxNesting + 1)), FilterError::kInvalidOData);
  EXPECT_EQ(ErrorOf(std::string(100000, '(')), FilterError::kInvalidOData);
}

TEST(PrintFilterTest, CanonicalTextParenthesizesOnlyWhereNeeded) {
  ParsedFilter f = ParseFilter("((a_x eq 'x'))");
  EXPECT_EQ(f.error, FilterError::kInvalidOData);  // unknown field
  f = ParseFilter("(serviceName eq 'a' or serviceName eq 'b') and (skuName eq 'c''d')");
  ASSERT_EQ(f.error, FilterError::kNone);
  EXPECT_EQ(PrintFilter(*f.expr),
            "(serviceName eq 'a' or serviceName eq 'b') and skuName eq 'c''d'");
  f = ParseFilter("serviceName eq 'a' or (serviceName eq 'b' or serviceName eq 'c')");
  ASSERT_EQ(f.error, FilterError::kNone);
  EXPECT_EQ(PrintFilter(*f.expr),
            "serviceName eq 'a' or (serviceName eq 'b' or serviceName eq 'c')");
}

TEST(MatchesTest, CaseSensitivityFollowsTheApiVersion) {
  std::map<std::string, std::string> item = {
      {"serviceName", "Virtual Machines"}, {"type", "Consumption"}, {"meterName", "D2s v5 Spot"}};
  FieldReader read = [&](std::string_view k) -> std::optional<std::string_view> {
    auto it = item.find(std::string(k));
    if (it == item.end()) return std::nullopt;
    return it->second;
  };
  ParsedFilter lower = ParseFilter("serviceName eq 'virtual machines'");
  EXPECT_FALSE(Matches(*lower.expr, read, /*case_sensitive=*/true));
  EXPECT_TRUE(Matches(*lower.expr, read, /*case_sensitive=*/false));
  ParsedFilter spot = ParseFilter("contains(meterName,'Spot') and priceType eq 'Consumption'");
  EXPECT_TRUE(Matches(*spot.expr, read, true));
  ParsedFilter missing = ParseFilter("reservationTerm eq '1 Year'");
  EXPECT_FALSE(Matches(*missing.expr, read, false));
  ParsedFilter empty = ParseFilter("armRegionName eq ''");
  EXPECT_FALSE(Matches(*empty.expr, read, true));  // absent is not empty
  item["armRegionName"] = "";
  EXPECT_TRUE(Matches(*empty.expr, read, true));
}

}  // namespace
}  // namespace azure_pricing::fakes::prices
