// The fake price API as a real HTTPS server: started as a process, queried with certificate
// verification against the CA it wrote, with faults set through its admin API.
#include <httplib.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "gtest/gtest.h"

extern char** environ;

namespace fakes::prices {
namespace {

using Json = nlohmann::ordered_json;

class ServerProcess {
 public:
  explicit ServerProcess(const std::string& binary) {
    const std::string dir = std::getenv("TEST_TMPDIR");
    std::ofstream(dir + "/catalog.jsonl")
        << R"({"serviceName":"Bandwidth","type":"Consumption","isPrimaryMeterRegion":true})"
        << "\n"
        << R"({"serviceName":"Virtual Machines","type":"Consumption","isPrimaryMeterRegion":true})"
        << "\n";
    int fds[2];
    EXPECT_EQ(pipe(fds), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    std::vector<std::string> args = {
        binary,     "--catalog", dir + "/catalog.jsonl", "--tls-listen", "127.0.0.1:0",
        "--ca-dir", dir};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    EXPECT_EQ(posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    FILE* out = fdopen(fds[0], "r");
    char line[512];
    while (fgets(line, sizeof line, out) != nullptr) {
      std::string l(line);
      if (l.rfind("https ", 0) == 0) {
        // https https://127.0.0.1:PORT DIR/ca.pem
        const size_t colon = l.find(':', 14);
        const size_t space = l.find(' ', colon);
        port_ = std::stoi(l.substr(colon + 1, space - colon - 1));
        ca_ = l.substr(space + 1, l.size() - space - 2);
      }
      if (l == "ready\n") break;
    }
    fclose(out);
  }
  ~ServerProcess() {
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
  std::unique_ptr<httplib::SSLClient> Client() const {
    auto client = std::make_unique<httplib::SSLClient>("127.0.0.1", port_);
    client->set_ca_cert_path(ca_.c_str());
    client->enable_server_certificate_verification(true);
    return client;
  }
  int port() const { return port_; }

 private:
  pid_t pid_ = 0;
  int port_ = 0;
  std::string ca_;
};

std::string Binary() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  return std::string(srcdir) + "/" + workspace + "/fakes/prices_server/prices_server";
}

TEST(PricesServerTest, AnswersOverVerifiedTlsAndRecordsRequests) {
  ServerProcess server(Binary());
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
  ServerProcess server(Binary());
  httplib::SSLClient client("127.0.0.1", server.port());
  client.set_ca_cert_path("/etc/ssl/certs/ca-certificates.crt");
  client.enable_server_certificate_verification(true);
  auto res = client.Get("/api/retail/prices");
  EXPECT_FALSE(res);
}

TEST(PricesServerTest, FaultsApplyInOrderThenTheServerRecovers) {
  ServerProcess server(Binary());
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

}  // namespace
}  // namespace fakes::prices
