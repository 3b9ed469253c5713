#include "ref/pricing/schema.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "conformance/citations/cites.h"
#include "ref/json/json.h"
#include "ref/pricing/arguments.h"

namespace azure_pricing {
CITES("ARG-001", "ARG-002", "SCHEMA-001", "SCHEMA-002", "SCHEMA-003", "SCHEMA-004", "SCHEMA-005",
      "SCHEMA-006", "SCHEMA-007", "REGION-007");
namespace {

class SchemaTest : public testing::Test {
 protected:
  void SetUp() override {
    text_ = ParameterSchemaJson();
    parsed_ = json::ParseStrict(text_);
    ASSERT_EQ(parsed_.error, json::ParseError::kNone);
    props_ = parsed_.value.Find("properties");
    ASSERT_NE(props_, nullptr);
  }
  std::string Description(const char* name) {
    return props_->Find(name)->Find("description")->as_string();
  }
  std::string text_;
  json::ParseResult parsed_;
  const json::Value* props_ = nullptr;
};

TEST_F(SchemaTest, HasExactlyTheEightArgumentsAndNoOthers) {
  std::vector<std::string> names;
  for (const json::Member& m : props_->members()) names.push_back(m.key);
  EXPECT_EQ(names, std::vector<std::string>(kArgumentNames.begin(), kArgumentNames.end()));
  EXPECT_FALSE(parsed_.value.Find("additionalProperties")->as_bool());
  EXPECT_EQ(props_->Find("currency")->Find("default")->as_string(), "USD");
  EXPECT_FALSE(props_->Find("include_savings_plan")->Find("default")->as_bool());
}

TEST_F(SchemaTest, EnumsMatchWhatTheValidatorAccepts) {
  const json::Value* types = props_->Find("price_type")->Find("enum");
  ASSERT_EQ(types->items().size(), kPriceTypes.size() + 1);  // + null
  for (size_t i = 0; i < kPriceTypes.size(); ++i) {
    EXPECT_EQ(types->items()[i].as_string(), kPriceTypes[i]);
  }
  const json::Value* families = props_->Find("service_family")->Find("enum");
  ASSERT_EQ(families->items().size(), kServiceFamilies.size() + 1);
  EXPECT_EQ(families->items()[14].as_string(), "Management and Governance");
  EXPECT_EQ(props_->Find("sku")->Find("maxLength")->as_number(), 256);
  EXPECT_EQ(props_->Find("filter")->Find("maxLength")->as_number(), 2048);
}

TEST_F(SchemaTest, StatesTheRulesTheValidatorEnforces) {
  // Null does not satisfy the filter requirement; service needs a non-null sku.
  const std::string sku_alternative =
      R"({"required":["sku"],"properties":{"sku":{"type":"string"}}})";
  EXPECT_NE(text_.find(R"("anyOf":[)" + sku_alternative), std::string::npos) << text_;
  EXPECT_NE(
      text_.find(
          R"("dependentSchemas":{"service":{"anyOf":[{"properties":{"service":{"type":"null"}}},)" +
          sku_alternative + "]}}"),
      std::string::npos);
  // The patterns, read as ECMAScript regular expressions (JSON Schema's dialect), accept and
  // refuse what the validator does: option-like and blank values.
  for (const char* name : {"sku", "service", "region"}) {
    const std::regex pattern(props_->Find(name)->Find("pattern")->as_string(),
                             std::regex::ECMAScript);
    for (const char* good : {"eastus", "Zone 1", "a", "Virtual Machines"}) {
      EXPECT_TRUE(std::regex_search(good, pattern)) << name << ": " << good;
    }
    for (const char* bad : {"-x", "@file", " ", "   ", "--"}) {
      EXPECT_FALSE(std::regex_search(bad, pattern)) << name << ": " << bad;
    }
    // A leading space is allowed for typed values, refused for region (exact location values).
    EXPECT_EQ(std::regex_search(" x", pattern), std::string(name) != "region") << name;
    EXPECT_EQ(std::regex_search("x ", pattern), std::string(name) != "region") << name;
  }
  const std::regex filter(props_->Find("filter")->Find("pattern")->as_string(),
                          std::regex::ECMAScript);
  EXPECT_TRUE(std::regex_search("serviceName eq 'x'", filter));
  EXPECT_FALSE(std::regex_search("   ", filter));
}

TEST_F(SchemaTest, RegionDescriptionListsEveryAcceptedForm) {
  const std::string region = Description("region");
  EXPECT_NE(region.find("ARM region name"), std::string::npos) << region;
  EXPECT_NE(region.find("case-sensitive"), std::string::npos) << region;
  EXPECT_NE(region.find("exact behaviour"), std::string::npos) << region;
  // Written out here, not taken from the reference's list.
  for (const char* value :
       {"Global", "Zone 1", "Zone 5", "Zone 9", "US Gov Zone 1", "US Gov Zone 2", "DE Zone 1",
        "DE Gov Zone 2", "CN Zone 1", "Zone 1 (China)", "US Gov"}) {
    EXPECT_NE(region.find("'" + std::string(value) + "'"), std::string::npos) << value;
  }
}

TEST_F(SchemaTest, DescribesThePriceListFacts) {
  EXPECT_NE(Description("sku").find("empty armSkuName"), std::string::npos);
  EXPECT_NE(Description("sku").find("do not substitute a product name or invent a SKU"),
            std::string::npos);
  EXPECT_NE(Description("service").find("meterName eq 'Standard Private Endpoint'"),
            std::string::npos);
  EXPECT_NE(Description("service").find("region=\"eastus\""), std::string::npos);
  EXPECT_NE(Description("region").find("armRegionName eq ''"), std::string::npos);
  const std::string filter = Description("filter");
  EXPECT_NE(
      filter.find("armRegionName, location, meterId, meterName, productId, skuId, productName, "
                  "skuName, serviceName, serviceId, serviceFamily, priceType, armSkuName; "
                  "reservationTerm also works"),
      std::string::npos);
  EXPECT_NE(filter.find("contains(meterName, 'Spot')"), std::string::npos);
  EXPECT_NE(filter.find("no operating-system field such as osType"), std::string::npos);
  EXPECT_NE(filter.find("Windows at the end of productName"), std::string::npos);
  EXPECT_NE(filter.find("skuName is a price-list value"), std::string::npos);
  EXPECT_NE(filter.find("case-sensitive"), std::string::npos);
}

}  // namespace
}  // namespace azure_pricing
