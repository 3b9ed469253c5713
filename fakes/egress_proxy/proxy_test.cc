// The proxy over real sockets and real TLS, between a client and the fake price API: what it
// lets through, what it refuses with which reason, and that the upstream only ever sees allowed
// GETs.
#include "fakes/egress_proxy/proxy.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <unistd.h>

#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fakes/testing/server_process.h"
#include "gtest/gtest.h"

namespace fakes::egress {
namespace {

using Json = nlohmann::json;

constexpr char kCatalog[] =
    R"({"serviceName":"Bandwidth","type":"Consumption","isPrimaryMeterRegion":true})"
    "\n";

struct Exchange {
  std::string connect_reply;  // the proxy's answer to CONNECT
  bool tls_ok = false;
  std::string response;  // what came back inside the tunnel
};

int Dial(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  timeval tv{5, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

std::string ReadUntilHeadEnd(int fd) {
  std::string buf;
  char c;
  while (buf.find("\r\n\r\n") == std::string::npos && recv(fd, &c, 1, 0) == 1) buf.push_back(c);
  return buf;
}

class ProxyTest : public ::testing::Test {
 protected:
  ProxyTest() : upstream_(kCatalog) {}

  void SetUp() override {
    ProxyOptions options;
    options.upstream_host = "127.0.0.1";
    options.upstream_port = upstream_.port();
    options.upstream_ca_file = upstream_.ca_file();
    options.log = [this](const std::string& line) {
      std::lock_guard<std::mutex> lock(mu_);
      log_.push_back(line);
    };
    proxy_ = std::make_unique<EgressProxy>(options);
    ASSERT_TRUE(proxy_->Start());
  }

  // CONNECT `authority`; if the tunnel opens, TLS with `sni` trusting `ca_pem`, then `request`.
  Exchange Run(const std::string& authority, const std::string& request,
               const std::string& sni = "prices.azure.com", const std::string* ca_pem = nullptr) {
    Exchange ex;
    const int fd = Dial(proxy_->port());
    EXPECT_GE(fd, 0);
    const std::string connect =
        "CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n";
    send(fd, connect.data(), connect.size(), MSG_NOSIGNAL);
    ex.connect_reply = ReadUntilHeadEnd(fd);
    if (ex.connect_reply.rfind("HTTP/1.1 200", 0) != 0) {
      close(fd);
      return ex;
    }
    SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
    const std::string& pem = ca_pem != nullptr ? *ca_pem : proxy_->egress_ca_pem();
    BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
    X509* ca = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
    X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx), ca);
    X509_free(ca);
    BIO_free(bio);
    SSL* ssl = SSL_new(ctx);
    SSL_set_fd(ssl, fd);
    if (!sni.empty()) SSL_set_tlsext_host_name(ssl, sni.c_str());
    SSL_set1_host(ssl, "prices.azure.com");
    ex.tls_ok = SSL_connect(ssl) == 1;
    if (ex.tls_ok) {
      SSL_write(ssl, request.data(), static_cast<int>(request.size()));
      char buf[4096];
      int n;
      while ((n = SSL_read(ssl, buf, sizeof buf)) > 0) ex.response.append(buf, n);
    }
    SSL_free(ssl);
    SSL_CTX_free(ctx);
    close(fd);
    return ex;
  }

  std::vector<std::string> Log() {
    std::lock_guard<std::mutex> lock(mu_);
    return log_;
  }

  fakes::testing::PricesServerProcess upstream_;
  std::unique_ptr<EgressProxy> proxy_;
  std::mutex mu_;
  std::vector<std::string> log_;
};

const std::string kGet =
    "GET /api/retail/prices?currencyCode=USD HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n";

TEST_F(ProxyTest, AnAllowedGetReachesTheUpstreamAndComesBackUnchanged) {
  Exchange ex = Run("prices.azure.com:443", kGet);
  ASSERT_TRUE(ex.tls_ok);
  EXPECT_EQ(ex.response.rfind("HTTP/1.1 200", 0), 0u) << ex.response;
  EXPECT_NE(ex.response.find("\"Count\":1"), std::string::npos);
  Json requests = Json::parse(upstream_.RequestLog());
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0]["method"], "GET");
  EXPECT_EQ(requests[0]["target"], "/api/retail/prices?currencyCode=USD");
  EXPECT_EQ(requests[0]["headers"]["Host"], "prices.azure.com");
  ASSERT_FALSE(Log().empty());
  EXPECT_NE(Log().back().find("decision=request_forwarded"), std::string::npos);
}

TEST_F(ProxyTest, AttackTableNothingButAllowedGetsReachTheUpstream) {
  struct Case {
    std::string authority, request, sni, reply_prefix, reason;
  };
  const std::string host = "Host: prices.azure.com\r\n";
  const std::vector<Case> cases = {
      {"evil.example:443", kGet, "prices.azure.com", "HTTP/1.1 403", "host_not_allowed"},
      {"prices.azure.com:80", kGet, "prices.azure.com", "HTTP/1.1 403", "port_not_allowed"},
      {"127.0.0.1:443", kGet, "prices.azure.com", "HTTP/1.1 403", "ip_literal"},
      {"[::1]:443", kGet, "prices.azure.com", "HTTP/1.1 403", "ip_literal"},
      {"2130706433:443", kGet, "prices.azure.com", "HTTP/1.1 403", "ip_literal"},
      {"dc.applicationinsights.azure.com:443", kGet, "prices.azure.com", "HTTP/1.1 403",
       "host_not_allowed"},
      {"prices.azure.com:443",
       "POST /api/retail/prices HTTP/1.1\r\n" + host + "Content-Length: 2\r\n\r\n{}",
       "prices.azure.com", "HTTP/1.1 405", "method_not_allowed"},
      {"prices.azure.com:443", "PUT /x HTTP/1.1\r\n" + host + "\r\n", "prices.azure.com",
       "HTTP/1.1 405", "method_not_allowed"},
      {"prices.azure.com:443", "GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n", "prices.azure.com",
       "HTTP/1.1 421", "host_mismatch"},
      {"prices.azure.com:443", kGet, "evil.example", "HTTP/1.1 421", "sni_mismatch"},
      {"prices.azure.com:443", kGet, "", "HTTP/1.1 421", "missing_sni"},
      {"prices.azure.com:443",
       "GET / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
       "prices.azure.com", "HTTP/1.1 400", "request_body"},
      {"prices.azure.com:443",
       "GET / HTTP/1.1\r\n" + host + "Upgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
       "prices.azure.com", "HTTP/1.1 400", "upgrade"},
      {"prices.azure.com:443", kGet + "GET /smuggled HTTP/1.1\r\n" + host + "\r\n",
       "prices.azure.com", "HTTP/1.1 400", "request_body"},
      {"prices.azure.com:443", "GET https://evil.example/ HTTP/1.1\r\n" + host + "\r\n",
       "prices.azure.com", "HTTP/1.1 421", "absolute_target_other_host"},
      {"prices.azure.com:443", "GET / HTTP/1.1\r\n" + host + " folded\r\n\r\n", "prices.azure.com",
       "HTTP/1.1 400", "obs_fold"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.reason + " " + c.authority);
    Exchange ex = Run(c.authority, c.request, c.sni);
    const std::string& reply = ex.tls_ok ? ex.response : ex.connect_reply;
    EXPECT_EQ(reply.rfind(c.reply_prefix, 0), 0u) << reply;
    ASSERT_FALSE(Log().empty());
    EXPECT_NE(Log().back().find("decision=" + c.reason), std::string::npos) << Log().back();
  }
  EXPECT_EQ(Json::parse(upstream_.RequestLog()).size(), 0u);
}

TEST_F(ProxyTest, APlainProxyRequestIsNotACONNECT) {
  const int fd = Dial(proxy_->port());
  const std::string req = "GET http://prices.azure.com/ HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n";
  send(fd, req.data(), req.size(), MSG_NOSIGNAL);
  EXPECT_EQ(ReadUntilHeadEnd(fd).rfind("HTTP/1.1 405", 0), 0u);
  close(fd);
  EXPECT_NE(Log().back().find("decision=not_connect"), std::string::npos);
}

TEST_F(ProxyTest, AClientThatDoesNotTrustTheEgressCaSendsNothing) {
  const std::string other = upstream_.ca_file();  // a CA, but not the egress one
  std::string pem;
  {
    FILE* f = fopen(other.c_str(), "r");
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) pem.append(buf, n);
    fclose(f);
  }
  Exchange ex = Run("prices.azure.com:443", kGet, "prices.azure.com", &pem);
  EXPECT_FALSE(ex.tls_ok);
  EXPECT_EQ(Json::parse(upstream_.RequestLog()).size(), 0u);
}

TEST_F(ProxyTest, RedirectsPassThroughAndAreNotFollowed) {
  ASSERT_TRUE(upstream_.AddFaults(R"([{"status":302}])"));
  Exchange ex = Run("prices.azure.com:443", kGet);
  EXPECT_EQ(ex.response.rfind("HTTP/1.1 302", 0), 0u) << ex.response;
  EXPECT_EQ(Json::parse(upstream_.RequestLog()).size(), 1u);
}

TEST(ProxyUpstreamTest, UpstreamVerificationIsNeverOff) {
  fakes::testing::PricesServerProcess upstream(kCatalog);
  std::vector<std::string> log;
  std::mutex mu;
  ProxyOptions options;
  options.upstream_host = "127.0.0.1";
  options.upstream_port = upstream.port();
  // The system store does not know the fake's CA: the proxy must refuse, not fall back.
  options.log = [&](const std::string& l) {
    std::lock_guard<std::mutex> lock(mu);
    log.push_back(l);
  };
  EgressProxy proxy(options);
  ASSERT_TRUE(proxy.Start());
  const int fd = Dial(proxy.port());
  const std::string connect = "CONNECT prices.azure.com:443 HTTP/1.1\r\n\r\n";
  send(fd, connect.data(), connect.size(), MSG_NOSIGNAL);
  ASSERT_EQ(ReadUntilHeadEnd(fd).rfind("HTTP/1.1 200", 0), 0u);
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  BIO* bio =
      BIO_new_mem_buf(proxy.egress_ca_pem().data(), static_cast<int>(proxy.egress_ca_pem().size()));
  X509* ca = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
  X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx), ca);
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  SSL* ssl = SSL_new(ctx);
  SSL_set_fd(ssl, fd);
  SSL_set_tlsext_host_name(ssl, "prices.azure.com");
  ASSERT_EQ(SSL_connect(ssl), 1);
  SSL_write(ssl, kGet.data(), static_cast<int>(kGet.size()));
  char buf[512];
  const int n = SSL_read(ssl, buf, sizeof buf);
  ASSERT_GT(n, 0);
  EXPECT_EQ(std::string(buf, n).rfind("HTTP/1.1 502", 0), 0u);
  SSL_free(ssl);
  SSL_CTX_free(ctx);
  X509_free(ca);
  BIO_free(bio);
  close(fd);
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_NE(log.back().find("decision=upstream_tls_failed"), std::string::npos);
  EXPECT_EQ(Json::parse(upstream.RequestLog()).size(), 0u);
}

}  // namespace
}  // namespace fakes::egress
