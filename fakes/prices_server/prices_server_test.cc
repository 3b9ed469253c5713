// The fake price API as a real HTTPS server: started as a process, queried with certificate
// verification against the CA it wrote, with faults set through its admin API.
#include <httplib.h>
#include <openssl/ssl.h>
#include <unistd.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fakes/testing/loopback_socket.h"
#include "fakes/testing/server_process.h"
#include "gtest/gtest.h"
#include "ref/base/openssl.h"

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

// The bytes a raw request gets back over TLS verified against the server's CA, to the end of
// the connection (a reset ends it too): what a fault puts on the wire, not how a client reads it.
std::string RawExchange(const test_support::PricesServerProcess& server,
                        const std::string& request) {
  const int fd = test_support::DialLoopback(server.port(), 10);
  if (fd < 0) return "(no connection)";
  const base::SslCtxPtr ctx(SSL_CTX_new(TLS_client_method()));
  SSL_CTX_load_verify_locations(ctx.get(), server.ca_file().c_str(), nullptr);
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  const base::SslPtr ssl(SSL_new(ctx.get()));
  SSL_set_fd(ssl.get(), fd);
  SSL_set_tlsext_host_name(ssl.get(), "localhost");
  std::string received;
  if (SSL_connect(ssl.get()) == 1 &&
      SSL_write(ssl.get(), request.data(), static_cast<int>(request.size())) > 0) {
    char buffer[4096];
    for (int n; (n = SSL_read(ssl.get(), buffer, sizeof buffer)) > 0;) received.append(buffer, n);
  } else {
    received = "(no TLS session)";
  }
  close(fd);
  return received;
}

constexpr char kGet[] =
    "GET /api/retail/prices HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";

// `reset` is what recorded azmcp runs met: the head with the whole body's Content-Length, then
// the close, no body byte. `drop` is no answer at all.
TEST(PricesServerTest, ResetSendsTheHeadOnlyAndDropSendsNothing) {
  test_support::PricesServerProcess server(kCatalog);
  ASSERT_TRUE(server.AddFaults(R"([{"reset":true},{"drop":true}])"));
  const std::string reset = RawExchange(server, kGet);
  EXPECT_EQ(reset.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << reset;
  EXPECT_NE(reset.find("Content-Length: "), std::string::npos) << reset;
  EXPECT_EQ(reset.substr(reset.size() - 4), "\r\n\r\n") << reset;
  EXPECT_EQ(RawExchange(server, kGet), "");
  EXPECT_EQ(RawExchange(server, kGet).rfind("HTTP/1.1 200 OK\r\n", 0), 0u);
  EXPECT_EQ(Json::parse(server.RequestLog()).size(), 3u);
}

// A reset needs no body: one without it (no Content-Length) resets like one with an empty body.
TEST(PricesServerTest, AdminResetWithoutABodyResets) {
  test_support::PricesServerProcess server(kCatalog);
  ASSERT_TRUE(server.AddFaults(R"([{"status":500}])"));
  const std::string answer = RawExchange(
      server, "POST /_admin/reset HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(answer.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << answer;
  EXPECT_NE(answer.find("reset: no faults queued, no requests logged"), std::string::npos);
  EXPECT_EQ(RawExchange(server, kGet).rfind("HTTP/1.1 200 OK\r\n", 0), 0u);
  EXPECT_EQ(Json::parse(server.RequestLog()).size(), 1u);
}

// A backend suite asks "did anything but a GET reach the upstream?": a request httplib refuses
// before routing (a lower-case method) or that no route serves (another path) is in the log too.
TEST(PricesServerTest, RequestsNoRouteServesAreLoggedAsUnrouted) {
  test_support::PricesServerProcess server(kCatalog);
  const std::string lower = RawExchange(
      server, "get /api/retail/prices HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(lower.rfind("HTTP/1.1 400", 0), 0u) << lower;
  RawExchange(server, "GET /elsewhere HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
  RawExchange(server, kGet);
  const Json log = Json::parse(server.RequestLog());
  ASSERT_EQ(log.size(), 3u) << log.dump();
  EXPECT_EQ(log[0]["method"], "get");
  EXPECT_EQ(log[0]["routed"], false);
  EXPECT_EQ(log[1]["target"], "/elsewhere");
  EXPECT_EQ(log[1]["routed"], false);
  EXPECT_EQ(log[2]["method"], "GET");
  EXPECT_FALSE(log[2].contains("routed"));
}

// The admin API says which fault is wrong and why, as the --faults file's errors do.
TEST(PricesServerTest, BadFaultsAreRefusedWholeWithTheReason) {
  test_support::PricesServerProcess server(kCatalog);
  std::unique_ptr<httplib::SSLClient> client = server.Client();
  for (const auto& [body, reason] : std::vector<std::pair<std::string, std::string>>{
           {R"([{"status":500},{"bogus":1}])", "unknown fault key: bogus"},
           {"[\n{\"status\": }]", "malformed JSON at line 2"},
           {R"([{"times":"2"}])", "times must be an integer from 1 to 1000000000"},
           {R"([{"drop":1}])", "drop must be true or false"},
           {R"({"status":500})", "faults must be a JSON array"}}) {
    auto res = client->Post("/_admin/faults", body, "application/json");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 400);
    EXPECT_NE(res->body.find(reason), std::string::npos) << res->body;
  }
  // Nothing of a refused list was queued.
  EXPECT_EQ(RawExchange(server, kGet).rfind("HTTP/1.1 200 OK\r\n", 0), 0u);
}

}  // namespace
}  // namespace azure_pricing::fakes::prices
