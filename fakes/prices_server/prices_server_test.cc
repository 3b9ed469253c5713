// The fake price API as a real HTTPS server: started as a process, queried with certificate
// verification against the CA it wrote, with faults set through its admin API.
#include <httplib.h>

#include <cstdlib>
#include <fstream>
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

// Answers are kept whole by target (the page cache): a fault edits the answer it applies to,
// never the kept page the next request gets.
TEST(PricesServerTest, AFaultEditsOneAnswerNotTheKeptPage) {
  fakes::test_support::PricesServerProcess server(kCatalog);
  std::unique_ptr<httplib::SSLClient> client = server.Client();
  auto before = client->Get("/api/retail/prices");
  ASSERT_TRUE(before);
  ASSERT_TRUE(server.AddFaults(R"([{"next_page_link":"https://evil.example/x"},{"truncate":3}])"));
  auto edited = client->Get("/api/retail/prices");
  ASSERT_TRUE(edited);
  EXPECT_EQ(Json::parse(edited->body)["NextPageLink"], "https://evil.example/x");
  auto cut = client->Get("/api/retail/prices");
  EXPECT_FALSE(cut && cut->body == before->body);
  auto after = client->Get("/api/retail/prices");
  ASSERT_TRUE(after);
  EXPECT_EQ(after->body, before->body);
}

// Replay mode through a real HTTPS listener: recorded answers by exact target, in recorded order
// with the last repeating, and everything else a 404 in the API's error shape, marked in the log.
TEST(PricesServerTest, ReplayServesRecordedExchangesAndMarksTheUnmatched) {
  const std::string page1 = "/api/retail/prices?currencyCode=USD&$filter=serviceName%20eq%20%27A%27";
  const std::string page2 = page1 + "&$skip=1000";
  const Json lines[] = {
      {{"target", page1}, {"status", 200}, {"body", R"({"Items":[],"NextPageLink":null})"}},
      {{"target", page2}, {"status", 429}, {"body", "slow down"}, {"content_type", "text/plain"}},
      {{"target", page2}, {"status", 200}, {"body", "second"}},
  };
  std::string text;
  for (const Json& line : lines) text += line.dump() + "\n";
  fakes::test_support::PricesServerProcess server(
      fakes::test_support::PricesServerProcess::Replay{text});
  ASSERT_GT(server.port(), 0) << server.Ended();
  std::unique_ptr<httplib::SSLClient> client = server.Client();
  auto first = client->Get(page1);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->status, 200);
  EXPECT_EQ(first->body, R"({"Items":[],"NextPageLink":null})");
  EXPECT_EQ(first->get_header_value("Content-Type"), "application/json; charset=utf-8");
  auto busy = client->Get(page2);
  ASSERT_TRUE(busy);
  EXPECT_EQ(busy->status, 429);
  EXPECT_EQ(busy->get_header_value("Content-Type"), "text/plain");
  for (int i = 0; i < 2; ++i) {
    auto again = client->Get(page2);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->status, 200);
    EXPECT_EQ(again->body, "second");
  }
  const std::string unrecorded = "/api/retail/prices?currencyCode=USD&$filter=serviceName%20eq%20%27B%27";
  auto missing = client->Get(unrecorded);
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
  const Json error = Json::parse(missing->body, nullptr, false);
  ASSERT_TRUE(error.is_object()) << missing->body;
  EXPECT_TRUE(error["Error"]["Code"].is_string());
  EXPECT_TRUE(error["Error"]["Message"].is_string());
  const Json log = Json::parse(server.RequestLog());
  ASSERT_EQ(log.size(), 5u);
  std::vector<std::string> marks;
  for (const Json& r : log) marks.push_back(r.value("replay", "-"));
  EXPECT_EQ(marks, (std::vector<std::string>{"matched", "matched", "matched", "matched",
                                             "unmatched"}));
  EXPECT_EQ(log[4]["target"], unrecorded);
}

// A command line the server cannot use is one line naming the problem (and, for a file, the
// flag, the path and the reason) and a non-zero exit, before anything listens.
TEST(PricesServerTest, CommandLineProblemsAreOneLineAndANonZeroExit) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string server = "fakes/prices_server/prices_server";
  const std::string bad_replay = std::string(tmp) + "/bad-replay.jsonl";
  std::ofstream(bad_replay) << R"({"target":"/api/retail/prices","status":200,"body":""})"
                            << "\n"
                            << R"({"target":"/api/retail/prices","status":"200","body":""})"
                            << "\n";
  const std::string empty_replay = std::string(tmp) + "/empty-replay.jsonl";
  std::ofstream(empty_replay) << "\n";
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
      {{"--listen", "127.0.0.1:0", "--page-cache-mib", "-1"}, 64,
       "prices_server: --page-cache-mib must be a whole number of MiB (0 keeps none)"},
      {{"--listen", "127.0.0.1:0", "--replay", "/nonexistent/r.jsonl", "--catalog",
        "/nonexistent/c.jsonl"},
       64, "prices_server: --replay excludes --catalog (recorded answers or a catalog, not both)"},
      {{"--listen", "127.0.0.1:0", "--replay", "/nonexistent/r.jsonl"}, 1,
       "prices_server: cannot read --replay /nonexistent/r.jsonl: no such file"},
      {{"--listen", "127.0.0.1:0", "--replay", bad_replay}, 1,
       "prices_server: bad --replay " + bad_replay +
           ": line 2: \"status\" must be an integer from 100 to 599"},
      {{"--listen", "127.0.0.1:0", "--replay", empty_replay}, 1,
       "prices_server: bad --replay " + empty_replay + ": the file holds no recorded exchange"},
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
