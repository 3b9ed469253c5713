#include "fakes/prices_server/faults.h"

#include <gtest/gtest.h>
#include <httplib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <string>
#include <thread>

#include "fakes/testing/loopback_socket.h"

namespace azure_pricing::fakes::prices {
namespace {

namespace ts = ::azure_pricing::fakes::test_support;

HttpResponse Page() {
  return {200, "application/json; charset=utf-8",
          R"({"Items":[],"NextPageLink":null,"Count":0})"};
}

httplib::Request Get(const std::string& target) {
  httplib::Request req;
  req.method = "GET";
  req.target = target;
  return req;
}

TEST(FaultsTest, ABadFaultRefusesTheWholeList) {
  FaultQueue queue;
  std::string error;
  EXPECT_FALSE(queue.Add(Json::parse(R"([{"status":500},{"drop":1}])"), error));
  EXPECT_EQ(error, "drop must be true or false");
  EXPECT_EQ(queue.Next(), std::nullopt);
  EXPECT_FALSE(queue.Add(Json::parse(R"({"status":500})"), error));
  EXPECT_EQ(error, "faults must be a JSON array");
  EXPECT_EQ(FaultProblem(Json::parse(R"({"sleep":1})")), "unknown fault key: sleep");
  EXPECT_EQ(FaultProblem(Json::parse(R"({"status":600})")),
            "status must be an integer from 100 to 599");
  EXPECT_EQ(FaultProblem(Json::parse(R"({"body":1})")), "body must be a string");
  EXPECT_EQ(FaultProblem(Json::parse("[]")), "each fault must be an object");
}

TEST(FaultsTest, FaultsApplyInOrderEachForItsTimes) {
  FaultQueue queue;
  std::string error;
  ASSERT_TRUE(queue.Add(Json::parse(R"([{"status":429,"times":2},{"status":503}])"), error));
  EXPECT_EQ((*queue.Next())["status"], 429);
  EXPECT_EQ((*queue.Next())["status"], 429);
  EXPECT_EQ((*queue.Next())["status"], 503);
  EXPECT_EQ(queue.Next(), std::nullopt);
  ASSERT_TRUE(queue.Add(Json::parse(R"([{"status":500}])"), error));
  queue.Clear();
  EXPECT_EQ(queue.Next(), std::nullopt);
}

TEST(FaultsTest, StatusBodyAndLinkFaultsRewriteTheAnswer) {
  FaultQueue queue;
  httplib::Response res;
  ServeFaulted(queue, Json::parse(R"({"status":429,"retry_after":2})"), Page(), Get("/"), res);
  EXPECT_EQ(res.status, 429);
  EXPECT_EQ(res.get_header_value("Retry-After"), "2");
  EXPECT_EQ(res.body, R"({"Error":{"Code":"Fault","Message":"Injected fault"}})");

  httplib::Response hex;
  ServeFaulted(queue, Json::parse(R"({"body_hex":"c3 28"})"), Page(), Get("/"), hex);
  EXPECT_EQ(hex.body, "\xc3\x28");

  httplib::Response link;
  ServeFaulted(queue, Json::parse(R"({"next_page_link":"https://evil.example/"})"), Page(),
               Get("/"), link);
  EXPECT_EQ(Json::parse(link.body)["NextPageLink"], "https://evil.example/");
}

TEST(FaultsTest, EndlessEmptyPagesLastUntilResetUnlessTimed) {
  FaultQueue queue;
  httplib::Response res;
  const Json endless = Json::parse(R"({"endless_empty_pages":true})");
  ServeFaulted(queue, endless, Page(), Get("/api/retail/prices?$filter=x"), res);
  const Json page = Json::parse(res.body);
  EXPECT_EQ(page["Items"], Json::array());
  EXPECT_EQ(page["NextPageLink"], std::string(kPublicBase) + "?$filter=x");
  EXPECT_EQ(queue.Next(), endless);  // queued again

  ServeFaulted(queue, Json::parse(R"({"endless_empty_pages":true,"times":3})"), Page(), Get("/"),
               res);
  EXPECT_EQ(queue.Next(), std::nullopt);  // the queue counts `times` itself
}

// A plain-HTTP server with the fault engine behind one route, on a free port.
class PlainServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = MakePlainServer();
    server_->Get("/api", [this](const httplib::Request& req, httplib::Response& res) {
      sockets_seen_ += ConnectionSocket(req) >= 0 ? 1 : 0;
      if (std::optional<Json> fault = queue_.Next()) {
        ServeFaulted(queue_, *fault, Page(), req, res);
      } else {
        res.set_content(Page().body, "application/json");
      }
    });
    port_ = server_->bind_to_any_port("127.0.0.1");
    ASSERT_GT(port_, 0);
    thread_ = std::thread([this] { server_->listen_after_bind(); });
  }
  void TearDown() override {
    server_->stop();
    if (thread_.joinable()) thread_.join();
  }

  // Sends `request` on a new connection and reads until the server closes it.
  std::string RawExchange(const std::string& request) {
    const int fd = ts::DialLoopback(port_, 5);
    EXPECT_GE(fd, 0);
    send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    std::string received;
    char buf[4096];
    ssize_t n;
    while ((n = recv(fd, buf, sizeof buf, 0)) > 0) received.append(buf, static_cast<size_t>(n));
    reset_ = n < 0 && errno == ECONNRESET;
    close(fd);
    return received;
  }

  std::unique_ptr<httplib::Server> server_;
  FaultQueue queue_;
  std::atomic<int> sockets_seen_{0};
  int port_ = 0;
  bool reset_ = false;
  std::thread thread_;
};

constexpr char kGet[] = "GET /api HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";

TEST_F(PlainServerTest, KnowsEverySocketAndKeepsConnectionsAlive) {
  httplib::Client client("127.0.0.1", port_);
  client.set_keep_alive(true);
  for (int i = 0; i < 3; ++i) {
    const httplib::Result res = client.Get("/api");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200);
  }
  EXPECT_EQ(sockets_seen_, 3);
}

TEST_F(PlainServerTest, DropResetsTheConnectionBeforeAnyByte) {
  std::string error;
  ASSERT_TRUE(queue_.Add(Json::parse(R"([{"drop":true}])"), error));
  EXPECT_EQ(RawExchange(kGet), "");
  EXPECT_TRUE(reset_);
  EXPECT_EQ(RawExchange(kGet).rfind("HTTP/1.1 200 OK\r\n", 0), 0u);  // one request only
}

TEST_F(PlainServerTest, ResetSendsTheHeadAndTruncateStopsTheBody) {
  std::string error;
  ASSERT_TRUE(queue_.Add(Json::parse(R"([{"reset":true},{"truncate":5}])"), error));
  const std::string head = RawExchange(kGet);
  EXPECT_EQ(head.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << head;
  EXPECT_NE(head.find("Content-Length: " + std::to_string(Page().body.size())), std::string::npos);
  EXPECT_EQ(head.substr(head.size() - 4), "\r\n\r\n") << head;
  const std::string cut = RawExchange(kGet);
  EXPECT_EQ(cut.substr(cut.find("\r\n\r\n") + 4), Page().body.substr(0, 5)) << cut;
}

// Another server's request has no socket the engine knows: drop finds none and sends the head.
TEST(FaultsTest, AStockServersPlainRequestHasNoKnownSocket) {
  EXPECT_EQ(ConnectionSocket(Get("/")), -1);
}

}  // namespace
}  // namespace azure_pricing::fakes::prices
