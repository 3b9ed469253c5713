// The fake price API as a real HTTPS server: started as a process, queried with certificate
// verification against the CA it wrote, with faults set through its admin API.
#include <httplib.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "fakes/testing/server_process.h"
#include "gtest/gtest.h"

namespace azure_pricing::fakes::prices {
namespace {

using Json = nlohmann::ordered_json;

constexpr char kCatalog[] =
    R"({"serviceName":"Bandwidth","type":"Consumption","isPrimaryMeterRegion":true})"
    "\n"
    R"({"serviceName":"Virtual Machines","type":"Consumption","isPrimaryMeterRegion":true})"
    "\n";

TEST(PricesServerTest, AnswersOverVerifiedTlsAndRecordsRequests) {
  fakes::test_support::PricesServerProcess server(kCatalog);
  ASSERT_GT(server.port(), 0);
  std::unique_ptr<httplib::SSLClient> owned = server.Client();
  httplib::SSLClient& client = *owned;
  auto res =
      client.Get("/api/retail/prices?currencyCode=USD&$filter=serviceName%20eq%20%27Bandwidth%27");
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->status, 200);
  Json page = Json::parse(res->body);
  EXPECT_EQ(page["Count"], 1);
  auto log = client.Get("/_admin/requests");
  ASSERT_TRUE(log);
  Json requests = Json::parse(log->body);
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0]["method"], "GET");
  EXPECT_EQ(requests[0]["target"],
            "/api/retail/prices?currencyCode=USD&$filter=serviceName%20eq%20%27Bandwidth%27");
}

TEST(PricesServerTest, AClientWithoutTheCaRefusesTheServer) {
  fakes::test_support::PricesServerProcess server(kCatalog);
  httplib::SSLClient client("127.0.0.1", server.port());
  client.set_ca_cert_path("/etc/ssl/certs/ca-certificates.crt");
  client.enable_server_certificate_verification(true);
  auto res = client.Get("/api/retail/prices");
  EXPECT_FALSE(res);
}

TEST(PricesServerTest, FaultsApplyInOrderThenTheServerRecovers) {
  fakes::test_support::PricesServerProcess server(kCatalog);
  std::unique_ptr<httplib::SSLClient> owned = server.Client();
  httplib::SSLClient& client = *owned;
  auto set = client.Post("/_admin/faults",
                         R"([{"status":429,"retry_after":2},{"body_hex":"7b 22 c3 28"},)"
                         R"({"next_page_link":"https://evil.example/x"},{"reset":true}])",
                         "application/json");
  ASSERT_TRUE(set);
  ASSERT_EQ(set->status, 200);
  auto r1 = client.Get("/api/retail/prices");
  ASSERT_TRUE(r1);
  EXPECT_EQ(r1->status, 429);
  EXPECT_EQ(r1->get_header_value("Retry-After"), "2");
  auto r2 = client.Get("/api/retail/prices");
  ASSERT_TRUE(r2);
  EXPECT_EQ(r2->body, std::string("{\"\xc3(", 4));
  auto r3 = client.Get("/api/retail/prices");
  ASSERT_TRUE(r3);
  EXPECT_EQ(Json::parse(r3->body)["NextPageLink"], "https://evil.example/x");
  auto r4 = client.Get("/api/retail/prices");
  EXPECT_FALSE(r4 && r4->status == 200 && !r4->body.empty());
  auto r5 = client.Get("/api/retail/prices");
  ASSERT_TRUE(r5);
  EXPECT_EQ(r5->status, 200);
  auto bad = client.Post("/_admin/faults", "{}", "application/json");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);
  auto post = client.Post("/api/retail/prices", "", "application/json");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 405);
}

TEST(PricesServerTest, PageSizeFaultServesOversizedAndUndersizedPages) {
  fakes::test_support::PricesServerProcess server(kCatalog);
  std::unique_ptr<httplib::SSLClient> owned = server.Client();
  httplib::SSLClient& client = *owned;
  ASSERT_TRUE(server.AddFaults(R"([{"page_size":1},{"page_size":5}])"));
  auto small = client.Get("/api/retail/prices");
  ASSERT_TRUE(small);
  const Json first = Json::parse(small->body);
  EXPECT_EQ(first["Items"].size(), 1u);
  EXPECT_EQ(first["NextPageLink"], "https://prices.azure.com:443/api/retail/prices?$skip=1");
  auto large = client.Get("/api/retail/prices");
  ASSERT_TRUE(large);
  EXPECT_EQ(Json::parse(large->body)["Items"].size(), 2u);
  EXPECT_TRUE(Json::parse(large->body)["NextPageLink"].is_null());
  for (const char* bad : {R"([{"page_size":0}])", R"([{"page_size":"7"}])", R"([{"pagesize":7}])"}) {
    auto r = client.Post("/_admin/faults", bad, "application/json");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << bad;
  }
}

}  // namespace
}  // namespace azure_pricing::fakes::prices
