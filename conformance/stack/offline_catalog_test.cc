// The questions people ask first, through the whole local stack as `azure_pricing` runs it: the
// offline catalog (fixtures/offline-catalog/PROVENANCE.md) served by the fake price API, the real
// azmcp in the bubblewrap sandbox, the egress proxy. Each must come back with rows; a VM size in
// a region the catalog does not hold comes back empty, which is what the stack's first line is
// for. The expected rows are the catalog's documented contents, written out here.
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "conformance/stack/local_stack.h"
#include "gtest/gtest.h"

namespace azure_pricing::conformance::stack {
namespace {

using Json = nlohmann::json;

class OfflineCatalogTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const CliChoice cli = DefaultCli();
    ASSERT_TRUE(cli.real) << "AZURE_PRICING_AZMCP names no real azmcp; the BUILD rule sets it";
    StatusOr<std::string> catalog = OfflineCatalog();
    ASSERT_TRUE(catalog.ok()) << catalog.status().message();
    StatusOr<std::unique_ptr<LocalStack>> started =
        LocalStack::Start({.cli = cli, .catalog_jsonl = std::move(*catalog)});
    ASSERT_TRUE(started.ok()) << started.status().message();
    stack_ = std::move(*started).release();
  }
  static void TearDownTestSuite() {
    delete stack_;
    stack_ = nullptr;
  }

  // The completed lookup's report; a failed expectation and null otherwise.
  static Json Lookup(const std::string& arguments) {
    if (stack_ == nullptr) {
      ADD_FAILURE() << "the stack did not start";
      return nullptr;
    }
    StatusOr<host::CallReport> report = stack_->Call({.arguments = arguments});
    if (!report.ok()) {
      ADD_FAILURE() << report.status().message();
      return nullptr;
    }
    if (report->outcome != Outcome::kCompleted || !report->output.has_value()) {
      ADD_FAILURE() << arguments << ": " << OutcomeName(report->outcome) << " ("
                    << report->reason << ")";
      return nullptr;
    }
    return Json::parse(*report->output);
  }

  static std::set<std::string> Values(const Json& report, const char* key) {
    std::set<std::string> out;
    for (const Json& row : report.value("prices", Json::array())) out.insert(row.value(key, ""));
    return out;
  }

  static LocalStack* stack_;
};

LocalStack* OfflineCatalogTest::stack_ = nullptr;

constexpr char kD2sV5[] = "Standard_D2s_v5";

TEST_F(OfflineCatalogTest, AVmSizeInEachMajorRegionHasItsElevenRows) {
  for (const char* region : {"westeurope", "northeurope", "westus2", "eastus"}) {
    SCOPED_TRACE(region);
    const Json report = Lookup(R"({"sku":"Standard_D2s_v5","region":")" + std::string(region) +
                               "\"}");
    ASSERT_TRUE(report.is_object());
    EXPECT_EQ(report["returned_rows"], 11);
    EXPECT_EQ(Values(report, "region"), std::set<std::string>{region});
    EXPECT_EQ(Values(report, "armSkuName"), std::set<std::string>{kD2sV5});
    EXPECT_EQ(Values(report, "priceType"),
              (std::set<std::string>{"Consumption", "DevTestConsumption", "Reservation"}));
    EXPECT_EQ(Values(report, "matched_by"), std::set<std::string>{"region"});
    for (const Json& row : report["prices"]) EXPECT_FALSE(row.contains("savingsPlan")) << row;
  }
}

TEST_F(OfflineCatalogTest, TheLinuxOnDemandRowListsItsSavingsPlansWhenAsked) {
  const Json report =
      Lookup(R"({"sku":"Standard_D2s_v5","region":"westeurope","include_savings_plan":true})");
  ASSERT_TRUE(report.is_object());
  std::vector<Json> with_plans;
  for (const Json& row : report["prices"]) {
    if (row.contains("savingsPlan")) with_plans.push_back(row);
  }
  ASSERT_EQ(with_plans.size(), 1u) << report.dump();
  EXPECT_EQ(with_plans[0]["productName"], "Virtual Machines Dsv5 Series");
  EXPECT_EQ(with_plans[0]["retailPrice"], 0.096);
  std::vector<std::string> terms;
  for (const Json& plan : with_plans[0]["savingsPlan"]) terms.push_back(plan["term"]);
  EXPECT_EQ(terms, (std::vector<std::string>{"3 Years", "1 Year"}));
}

TEST_F(OfflineCatalogTest, ReservationsHaveBothTerms) {
  const Json report =
      Lookup(R"({"sku":"Standard_D2s_v5","region":"westeurope","price_type":"Reservation"})");
  ASSERT_TRUE(report.is_object());
  EXPECT_EQ(report["returned_rows"], 2);
  EXPECT_EQ(Values(report, "reservationTerm"), (std::set<std::string>{"1 Year", "3 Years"}));
}

TEST_F(OfflineCatalogTest, VnetPeeringInWesteurope) {
  const Json report = Lookup(
      R"j({"region":"westeurope","filter":"serviceName eq 'Virtual Network' and contains(productName, 'Peering')"})j");
  ASSERT_TRUE(report.is_object());
  EXPECT_GE(report["returned_rows"], 2);
  for (const Json& row : report["prices"]) {
    EXPECT_NE(row["productName"].get<std::string>().find("Peering"), std::string::npos) << row;
  }
}

TEST_F(OfflineCatalogTest, PrivateEndpointAsTheSpecificationAsksForIt) {
  const Json report = Lookup(
      R"j({"region":"eastus","filter":"serviceName eq 'Virtual Network' and productName eq 'Virtual Network Private Link' and meterName eq 'Standard Private Endpoint'"})j");
  ASSERT_TRUE(report.is_object());
  ASSERT_EQ(report["returned_rows"], 1);
  EXPECT_EQ(report["prices"][0]["meterName"], "Standard Private Endpoint");
  EXPECT_EQ(report["prices"][0]["matched_by"], "global");
}

// Front Door bills by edge zone (westeurope is in Zone 1); Bandwidth's rows are regional.
TEST_F(OfflineCatalogTest, FrontDoorAndBandwidthInWesteurope) {
  for (const auto& [service, matched_by] :
       {std::pair<std::string, std::string>{"Azure Front Door Service", "zone"},
        {"Bandwidth", "region"}}) {
    SCOPED_TRACE(service);
    const Json report =
        Lookup(R"({"region":"westeurope","filter":"serviceName eq ')" + service + "'\"}");
    ASSERT_TRUE(report.is_object());
    EXPECT_GE(report["returned_rows"], 1);
    EXPECT_EQ(Values(report, "serviceName"), std::set<std::string>{service});
    EXPECT_EQ(Values(report, "matched_by"), std::set<std::string>{matched_by});
  }
}

TEST_F(OfflineCatalogTest, AVmSizeInARegionItDoesNotHoldComesBackEmpty) {
  const Json report = Lookup(R"({"sku":"Standard_D2s_v5","region":"japaneast"})");
  ASSERT_TRUE(report.is_object());
  EXPECT_EQ(report["received_rows"], 0);
}

}  // namespace
}  // namespace azure_pricing::conformance::stack
