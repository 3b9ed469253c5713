// The fake price API as a real HTTPS server: started as a process, queried with certificate
// verification against the CA it wrote, with faults set through its admin API.
#include <httplib.h>

#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fakes/testing/run_program.h"
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

// A command line the server cannot use is one line naming the problem (and, for a file, the
// flag, the path and the reason) and a non-zero exit, before anything listens.
TEST(PricesServerTest, CommandLineProblemsAreOneLineAndANonZeroExit) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string server = "fakes/prices_server/prices_server";
  const struct {
    std::vector<std::string> args;
    int exit_code;
    std::string first_line;
  } cases[] = {
      {{"--listen", "127.0.0.1:0", "--catalog", tmp}, 1,
       std::string("prices_server: cannot read --catalog ") + tmp +
           ": it is a directory, not a file"},
      {{"--listen", "127.0.0.1:0", "--catalog", "/nonexistent/c.jsonl"}, 1,
       "prices_server: cannot read --catalog /nonexistent/c.jsonl: no such file"},
      {{"--listen", "127.0.0.1:0", "--faults", "/nonexistent/f.json"}, 1,
       "prices_server: cannot read --faults /nonexistent/f.json: no such file"},
      {{"--bogus"}, 64, "prices_server: unknown option --bogus"},
      {{"--listen"}, 64, "prices_server: --listen needs a value"},
      {{"--listen", "127.0.0.1:0", "--listen", "127.0.0.1:0"}, 64,
       "prices_server: --listen is given more than once"},
      {{"--listen", "10.0.0.1:0"}, 64,
       "prices_server: --listen must be a loopback HOST:PORT (the host is not a loopback "
       "address)"},
      {{"--listen", "127.0.0.1:http"}, 64,
       "prices_server: --listen must be a loopback HOST:PORT (the port is not a number from 0 "
       "to 65535)"},
      {{"--tls-listen", "127.0.0.1:0"}, 64, "prices_server: --tls-listen needs --ca-dir"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> argv = {server};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    const test_support::ProgramRun run = test_support::RunProgram(argv, {});
    EXPECT_EQ(run.exit_code, c.exit_code) << c.first_line;
    EXPECT_EQ(run.err.substr(0, run.err.find('\n')), c.first_line);
    EXPECT_EQ(run.out, "");
  }
}

}  // namespace
}  // namespace azure_pricing::fakes::prices
