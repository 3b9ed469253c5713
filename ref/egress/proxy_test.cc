// Requirements: HOST-008 (GET-only egress to prices.azure.com: other hosts, ports and methods
// refused), HOST-014 (verification on both sides of the proxy, never off).
// The proxy over real sockets and real TLS, between a client and the fake price API: what it
// lets through, what it refuses with which reason, and that the upstream only ever sees allowed
// GETs.
#include "ref/egress/proxy.h"

#include <gmock/gmock.h>
#include <openssl/ssl.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <regex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "conformance/citations/cites.h"
#include "fakes/testing/loopback_socket.h"
#include "fakes/testing/server_process.h"
#include "gtest/gtest.h"
#include "ref/base/files.h"
#include "ref/base/openssl.h"
#include "ref/base/test_tmpdir.h"
#include "ref/egress/policy.h"
#include "ref/egress/reasons.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::egress {
CITES("HOST-008", "HOST-014");

// proxy.h's testing peer, defined here for this binary (the mutants define theirs in another):
// it sets one weakening by name so each can be shown to let through what it names.
class ProxyMutator {
 public:
  static bool Weaken(EgressProxy& proxy, std::string_view name) {
    auto& w = proxy.weakenings_;
    const std::vector<std::pair<std::string_view, bool*>> flags = {
        {"later_requests_unchecked", &w.later_requests_unchecked},
        {"method_case_insensitive", &w.method_case_insensitive},
        {"host_suffix_match", &w.host_suffix_match},
        {"host_header_unchecked", &w.host_header_unchecked},
        {"sni_unchecked", &w.sni_unchecked},
        {"upgrade_unchecked", &w.upgrade_unchecked},
        {"response_altered", &w.response_altered},
        {"response_header_changed", &w.response_header_changed},
        {"response_head_rewritten", &w.response_head_rewritten},
        {"later_requests_method_only", &w.later_requests_method_only}};
    for (const auto& [flag, field] : flags) {
      if (flag == name) *field = true;
    }
    return name.empty() || std::any_of(flags.begin(), flags.end(),
                                       [&](const auto& f) { return f.first == name; });
  }
};

namespace {

using Json = nlohmann::json;
using ::testing::HasSubstr;

constexpr char kCatalog[] =
    R"({"serviceName":"Bandwidth","type":"Consumption","isPrimaryMeterRegion":true})"
    "\n";

// Short enough for the slow-client cases to end within the client's own 5 s receive timeout,
// long enough for a local upstream TLS exchange on a loaded machine.
constexpr int kIdleMs = 3000;

struct Exchange {
  std::string connect_reply;  // the proxy's answer to CONNECT
  bool tls_ok = false;
  std::string response;  // what came back inside the tunnel
};

using fakes::test_support::DialLoopback;
using fakes::test_support::ListenLoopback;
using fakes::test_support::ReadHead;

// The last decision line logged contains `decision=<reason> `.
std::string DecisionOf(std::string_view reason) { return "decision=" + std::string(reason) + " "; }

// Every decision line has its reason, its stage and its status, as the README documents.
void ExpectEveryLineComplete(const std::vector<std::string>& log) {
  static const std::regex kLine(
      "decision=[a-z_]+ stage=(accept|connect|tls|request|upstream) status=([0-9]{1,3}|none)");
  for (const std::string& line : log) {
    EXPECT_TRUE(std::regex_match(line, kLine)) << line;
  }
}

class ProxyTest : public ::testing::Test {
 protected:
  ProxyTest() : upstream_(kCatalog) {}

  void SetUp() override {
    ProxyOptions options;
    options.upstream_host = "127.0.0.1";
    options.upstream_port = upstream_.port();
    options.upstream_ca_file = upstream_.ca_file();
    options.idle_timeout_ms = kIdleMs;
    options.log = [this](const std::string& line) {
      std::lock_guard<std::mutex> lock(mu_);
      log_.push_back(line);
    };
    options.observe = [this](const ForwardedExchange& seen) {
      std::lock_guard<std::mutex> lock(mu_);
      observed_.push_back(seen);
    };
    proxy_ = std::make_unique<EgressProxy>(options);
    ASSERT_THAT(proxy_->Start(), IsOk());
  }

  // CONNECT `authority`; if the tunnel opens, TLS with `sni` trusting `ca_pem`, then `request`.
  // `raw_connect`, when given, is sent instead of the CONNECT head (and may be partial).
  Exchange Run(const std::string& authority, const std::string& request,
               const std::string& sni = "prices.azure.com", const std::string* ca_pem = nullptr,
               const std::string* raw_connect = nullptr) {
    Exchange ex;
    const int fd = DialLoopback(proxy_->port(), 5);
    EXPECT_GE(fd, 0);
    const std::string connect =
        raw_connect != nullptr
            ? *raw_connect
            : "CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n";
    send(fd, connect.data(), connect.size(), MSG_NOSIGNAL);
    ex.connect_reply = ReadHead(fd);
    if (ex.connect_reply.rfind("HTTP/1.1 200", 0) != 0) {
      close(fd);
      return ex;
    }
    const base::SslCtxPtr ctx(SSL_CTX_new(TLS_client_method()));
    SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
    const base::X509Ptr ca = base::ReadPemCert(ca_pem != nullptr ? *ca_pem : proxy_->egress_ca_pem());
    X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx.get()), ca.get());
    const base::SslPtr ssl(SSL_new(ctx.get()));
    SSL_set_fd(ssl.get(), fd);
    if (!sni.empty()) SSL_set_tlsext_host_name(ssl.get(), sni.c_str());
    SSL_set1_host(ssl.get(), "prices.azure.com");
    ex.tls_ok = SSL_connect(ssl.get()) == 1;
    if (ex.tls_ok) {
      SSL_write(ssl.get(), request.data(), static_cast<int>(request.size()));
      char buf[4096];
      int n;
      while ((n = SSL_read(ssl.get(), buf, sizeof buf)) > 0) ex.response.append(buf, n);
    }
    close(fd);
    return ex;
  }

  std::vector<std::string> Log() {
    std::lock_guard<std::mutex> lock(mu_);
    return log_;
  }

  std::vector<ForwardedExchange> Observed() {
    std::lock_guard<std::mutex> lock(mu_);
    return observed_;
  }

  fakes::test_support::PricesServerProcess upstream_;
  std::unique_ptr<EgressProxy> proxy_;
  std::mutex mu_;
  std::vector<std::string> log_;
  std::vector<ForwardedExchange> observed_;
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
  EXPECT_THAT(Log().back(), HasSubstr(DecisionOf(kRequestForwarded)));
}

// The recorder's view (the live check captures upstream pages here): exactly what the client
// received, with the request's target and User-Agent; refused requests are never observed.
TEST_F(ProxyTest, TheObserverSeesEachForwardedExchangeAsTheClientReceivedIt) {
  const Exchange ex = Run("prices.azure.com:443",
                          "GET /api/retail/prices?currencyCode=EUR HTTP/1.1\r\nHost: "
                          "prices.azure.com\r\nUser-Agent: probe/1.0\r\n\r\n");
  ASSERT_TRUE(ex.tls_ok);
  (void)Run("prices.azure.com:443",
            "POST /api/retail/prices HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n");
  const std::vector<ForwardedExchange> seen = Observed();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].method, "GET");
  EXPECT_EQ(seen[0].target, "/api/retail/prices?currencyCode=EUR");
  EXPECT_EQ(seen[0].user_agent, "probe/1.0");
  EXPECT_EQ(seen[0].status, 200);
  EXPECT_EQ(seen[0].response, ex.response);
  EXPECT_TRUE(seen[0].response_complete);
}

TEST(ProxyObserverTest, AResponseOverTheCapIsForwardedWholeAndObservedCut) {
  fakes::test_support::PricesServerProcess upstream(kCatalog);
  std::vector<ForwardedExchange> seen;
  std::mutex mu;
  ProxyOptions options;
  options.upstream_host = "127.0.0.1";
  options.upstream_port = upstream.port();
  options.upstream_ca_file = upstream.ca_file();
  options.log = [](const std::string&) {};
  options.max_observed_bytes = 10;
  options.observe = [&](const ForwardedExchange& e) {
    std::lock_guard<std::mutex> lock(mu);
    seen.push_back(e);
  };
  EgressProxy proxy(options);
  ASSERT_THAT(proxy.Start(), IsOk());
  const int fd = DialLoopback(proxy.port(), 5);
  ASSERT_GE(fd, 0);
  const std::string connect = "CONNECT prices.azure.com:443 HTTP/1.1\r\n\r\n";
  send(fd, connect.data(), connect.size(), MSG_NOSIGNAL);
  ASSERT_EQ(ReadHead(fd).rfind("HTTP/1.1 200", 0), 0u);
  const base::SslCtxPtr ctx(SSL_CTX_new(TLS_client_method()));
  const base::X509Ptr ca = base::ReadPemCert(proxy.egress_ca_pem());
  X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx.get()), ca.get());
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  const base::SslPtr ssl(SSL_new(ctx.get()));
  SSL_set_fd(ssl.get(), fd);
  SSL_set_tlsext_host_name(ssl.get(), "prices.azure.com");
  ASSERT_EQ(SSL_connect(ssl.get()), 1);
  SSL_write(ssl.get(), kGet.data(), static_cast<int>(kGet.size()));
  std::string response;
  char buf[4096];
  int n;
  while ((n = SSL_read(ssl.get(), buf, sizeof buf)) > 0) response.append(buf, n);
  close(fd);
  proxy.Stop();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_GT(response.size(), 10u);
  EXPECT_EQ(seen[0].response, response.substr(0, 10));
  EXPECT_FALSE(seen[0].response_complete);
}

// The socket-level attack table: each case goes through a real TCP connection and, when the
// tunnel opens, real TLS. The proxy must answer with the status and log the reason, and at the
// end the fake upstream must have received exactly the allowed GETs and nothing else.
TEST_F(ProxyTest, AttackTableNothingButAllowedGetsReachTheUpstream) {
  struct Case {
    std::string name;
    std::string authority;  // CONNECT target (ignored when raw_connect is set)
    std::string request;    // sent inside the tunnel
    std::string sni = "prices.azure.com";
    std::string reply_prefix;  // empty: the proxy hangs up without an answer
    std::string reason;
    std::optional<std::string> raw_connect;
    std::string forwarded_target;  // for allowed cases: the target the upstream must see
  };
  const std::string host = "Host: prices.azure.com\r\n";
  const std::string get = "GET /api/retail/prices?currencyCode=USD HTTP/1.1\r\n";
  const std::string ok = get + host;
  // Four times the head limit: the proxy stops reading at the limit, refuses, and must still
  // deliver its refusal rather than reset the connection over the unread rest.
  const std::string oversized(4 * kMaxHeadBytes, 'a');
  std::string many_headers = ok;
  for (size_t i = 0; i < kMaxHeaders; ++i) many_headers += "X-" + std::to_string(i) + ": v\r\n";
  const std::vector<Case> cases = {
      // Allowed forms: each must arrive upstream as one GET.
      {"plain GET", "prices.azure.com:443", kGet, "prices.azure.com", "HTTP/1.1 200",
       kRequestForwarded, std::nullopt, "/api/retail/prices?currencyCode=USD"},
      {"upper-case CONNECT host", "PRICES.AZURE.COM:443", kGet, "prices.azure.com",
       "HTTP/1.1 200", kRequestForwarded, std::nullopt, "/api/retail/prices?currencyCode=USD"},
      {"trailing-dot CONNECT host", "prices.azure.com.:443", kGet, "prices.azure.com",
       "HTTP/1.1 200", kRequestForwarded, std::nullopt, "/api/retail/prices?currencyCode=USD"},
      {"absolute-form target for the allowed host", "prices.azure.com:443",
       "GET https://prices.azure.com/api/retail/prices?x=1 HTTP/1.1\r\n" + host + "\r\n",
       "prices.azure.com", "HTTP/1.1 200", kRequestForwarded, std::nullopt,
       "/api/retail/prices?x=1"},
      {"Host with the default port", "prices.azure.com:443",
       "GET /api/retail/prices HTTP/1.1\r\nHost: prices.azure.com:443\r\n\r\n", "prices.azure.com",
       "HTTP/1.1 200", kRequestForwarded, std::nullopt, "/api/retail/prices"},
      // CONNECT: hosts.
      {"other host", "evil.example:443", kGet, "", "HTTP/1.1 403", kHostNotAllowed},
      {"telemetry host", "dc.applicationinsights.azure.com:443", kGet, "", "HTTP/1.1 403",
       kHostNotAllowed},
      {"suffix trick", "prices.azure.com.evil.example:443", kGet, "", "HTTP/1.1 403",
       kHostNotAllowed},
      {"prefix trick", "evilprices.azure.com:443", kGet, "", "HTTP/1.1 403", kHostNotAllowed},
      {"parent domain", "azure.com:443", kGet, "", "HTTP/1.1 403", kHostNotAllowed},
      {"localhost", "localhost:443", kGet, "", "HTTP/1.1 403", kHostNotAllowed},
      {"userinfo", "user@prices.azure.com:443", kGet, "", "HTTP/1.1 400", kMalformedAuthority},
      {"encoded NUL", "prices.azure.com%00.evil:443", kGet, "", "HTTP/1.1 400",
       kMalformedAuthority},
      {"empty label", "prices.azure.com..:443", kGet, "", "HTTP/1.1 400", kMalformedAuthority},
      // CONNECT: ports.
      {"port 80", "prices.azure.com:80", kGet, "", "HTTP/1.1 403", kPortNotAllowed},
      {"port 8443", "prices.azure.com:8443", kGet, "", "HTTP/1.1 403", kPortNotAllowed},
      {"zero-padded port", "prices.azure.com:0443", kGet, "", "HTTP/1.1 403", kPortNotAllowed},
      {"no port", "prices.azure.com", kGet, "", "HTTP/1.1 400", kMissingPort},
      {"named port", "prices.azure.com:https", kGet, "", "HTTP/1.1 400", kMalformedAuthority},
      // CONNECT: IP forms.
      {"IPv4 loopback", "127.0.0.1:443", kGet, "", "HTTP/1.1 403", kIpLiteral},
      {"IPv4 public", "13.107.246.40:443", kGet, "", "HTTP/1.1 403", kIpLiteral},
      {"IPv4 as one integer", "2130706433:443", kGet, "", "HTTP/1.1 403", kIpLiteral},
      {"IPv4 in hex", "0x7f000001:443", kGet, "", "HTTP/1.1 403", kIpLiteral},
      {"IPv4 in octal", "0177.0.0.1:443", kGet, "", "HTTP/1.1 403", kIpLiteral},
      {"IPv4 short form", "127.1:443", kGet, "", "HTTP/1.1 403", kIpLiteral},
      {"IPv6 loopback", "[::1]:443", kGet, "", "HTTP/1.1 403", kIpLiteral},
      {"IPv4-mapped IPv6", "[::ffff:127.0.0.1]:443", kGet, "", "HTTP/1.1 403", kIpLiteral},
      {"unbracketed IPv6", "::1:443", kGet, "", "HTTP/1.1 403", kIpLiteral},
      // CONNECT: the request itself.
      {"CONNECT over HTTP/1.0", "", kGet, "", "HTTP/1.1 405", kNotConnect,
       std::string("CONNECT prices.azure.com:443 HTTP/1.0\r\n\r\n")},
      {"absolute-form proxy request", "", kGet, "", "HTTP/1.1 405", kNotConnect,
       "GET http://prices.azure.com/api/retail/prices HTTP/1.1\r\n" + host + "\r\n"},
      {"data before the tunnel is up", "", kGet, "", "HTTP/1.1 400", kEarlyData,
       std::string("CONNECT prices.azure.com:443 HTTP/1.1\r\n\r\n\x16\x03\x01")},
      {"oversized CONNECT head", "", kGet, "", "HTTP/1.1 431", kHeadTooLarge,
       "CONNECT prices.azure.com:443 HTTP/1.1\r\nX: " + oversized},
      {"slow client stalls in the CONNECT head", "", kGet, "", "", kClientTimeoutOrClosed,
       std::string("CONNECT prices.azure.com:443 HTTP/1.1\r\n")},
      // Inside the tunnel: methods.
      {"POST with a body", "prices.azure.com:443",
       "POST /api/retail/prices HTTP/1.1\r\n" + host + "Content-Length: 2\r\n\r\n{}",
       "prices.azure.com", "HTTP/1.1 405", kMethodNotAllowed},
      {"PUT", "prices.azure.com:443", "PUT /x HTTP/1.1\r\n" + host + "\r\n", "prices.azure.com",
       "HTTP/1.1 405", kMethodNotAllowed},
      {"HEAD", "prices.azure.com:443", "HEAD / HTTP/1.1\r\n" + host + "\r\n", "prices.azure.com",
       "HTTP/1.1 405", kMethodNotAllowed},
      {"DELETE", "prices.azure.com:443", "DELETE / HTTP/1.1\r\n" + host + "\r\n",
       "prices.azure.com", "HTTP/1.1 405", kMethodNotAllowed},
      {"OPTIONS *", "prices.azure.com:443", "OPTIONS * HTTP/1.1\r\n" + host + "\r\n",
       "prices.azure.com", "HTTP/1.1 405", kMethodNotAllowed},
      {"CONNECT inside the tunnel", "prices.azure.com:443",
       "CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n", "prices.azure.com",
       "HTTP/1.1 405", kMethodNotAllowed},
      {"lower-case get", "prices.azure.com:443", "get / HTTP/1.1\r\n" + host + "\r\n",
       "prices.azure.com", "HTTP/1.1 405", kMethodNotAllowed},
      {"HTTP/2 preface", "prices.azure.com:443", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
       "prices.azure.com", "HTTP/1.1 505", kHttpVersionNotAllowed},
      {"HTTP/1.0 request", "prices.azure.com:443", "GET / HTTP/1.0\r\n" + host + "\r\n",
       "prices.azure.com", "HTTP/1.1 505", kHttpVersionNotAllowed},
      // Inside the tunnel: names must agree.
      {"Host of another site", "prices.azure.com:443", "GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n",
       "prices.azure.com", "HTTP/1.1 421", kHostMismatch},
      {"Host on another port", "prices.azure.com:443",
       "GET / HTTP/1.1\r\nHost: prices.azure.com:8443\r\n\r\n", "prices.azure.com", "HTTP/1.1 421",
       kHostMismatch},
      {"two Hosts", "prices.azure.com:443", ok + "Host: evil.example\r\n\r\n", "prices.azure.com",
       "HTTP/1.1 400", kDuplicateHost},
      {"no Host", "prices.azure.com:443", "GET / HTTP/1.1\r\n\r\n", "prices.azure.com",
       "HTTP/1.1 400", kMissingHost},
      {"SNI of another site", "prices.azure.com:443", kGet, "evil.example", "HTTP/1.1 421",
       kSniMismatch},
      {"no SNI", "prices.azure.com:443", kGet, "", "HTTP/1.1 421", kMissingSni},
      {"absolute-form target for another host", "prices.azure.com:443",
       "GET https://evil.example/ HTTP/1.1\r\n" + host + "\r\n", "prices.azure.com",
       "HTTP/1.1 421", kAbsoluteTargetOtherHost},
      // Inside the tunnel: smuggling and framing.
      {"Transfer-Encoding", "prices.azure.com:443",
       "GET / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
       "prices.azure.com", "HTTP/1.1 400", kRequestBody},
      {"Content-Length 0", "prices.azure.com:443", ok + "Content-Length: 0\r\n\r\n",
       "prices.azure.com", "HTTP/1.1 400", kRequestBody},
      {"TE and CL together", "prices.azure.com:443",
       ok + "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", "prices.azure.com",
       "HTTP/1.1 400", kRequestBody},
      {"pipelined second request", "prices.azure.com:443",
       kGet + "GET /smuggled HTTP/1.1\r\n" + host + "\r\n", "prices.azure.com", "HTTP/1.1 400",
       kRequestBody},
      {"obs-fold", "prices.azure.com:443", "GET / HTTP/1.1\r\n" + host + " folded\r\n\r\n",
       "prices.azure.com", "HTTP/1.1 400", kObsFold},
      {"bare LF", "prices.azure.com:443", ok + "X-A: 1\nX-B: 2\r\n\r\n", "prices.azure.com",
       "HTTP/1.1 400", kBareLf},
      {"bare CR", "prices.azure.com:443", ok + "X-A: 1\rX-B: 2\r\n\r\n", "prices.azure.com",
       "HTTP/1.1 400", kBareCr},
      {"control character in a value", "prices.azure.com:443", ok + "X-A: a\x01z\r\n\r\n",
       "prices.azure.com", "HTTP/1.1 400", kControlCharacter},
      {"space before the colon", "prices.azure.com:443", ok + "X-A : 1\r\n\r\n",
       "prices.azure.com", "HTTP/1.1 400", kMalformedHeader},
      {"double space in the request line", "prices.azure.com:443",
       "GET  / HTTP/1.1\r\n" + host + "\r\n", "prices.azure.com", "HTTP/1.1 400",
       kMalformedRequestLine},
      {"Upgrade", "prices.azure.com:443",
       "GET / HTTP/1.1\r\n" + host + "Upgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
       "prices.azure.com", "HTTP/1.1 400", kUpgrade},
      {"Connection: Upgrade alone", "prices.azure.com:443",
       ok + "Connection: keep-alive, Upgrade\r\n\r\n", "prices.azure.com", "HTTP/1.1 400",
       kUpgrade},
      // Inside the tunnel: size and time.
      {"oversized request head", "prices.azure.com:443", ok + "X-Big: " + oversized,
       "prices.azure.com", "HTTP/1.1 431", kHeadTooLarge},
      {"too many headers", "prices.azure.com:443", many_headers + "\r\n", "prices.azure.com",
       "HTTP/1.1 431", kTooManyHeaders},
      {"slow client stalls in the request head", "prices.azure.com:443", ok, "prices.azure.com",
       "HTTP/1.1 400", kIncompleteHead},
  };
  ASSERT_GE(cases.size(), 40u);
  std::vector<std::string> allowed_targets;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const size_t before = Log().size();
    Exchange ex =
        Run(c.authority, c.request, c.sni, nullptr, c.raw_connect ? &*c.raw_connect : nullptr);
    const std::string& reply = ex.tls_ok ? ex.response : ex.connect_reply;
    if (c.reply_prefix.empty()) {
      EXPECT_EQ(reply, "");
    } else {
      EXPECT_EQ(reply.rfind(c.reply_prefix, 0), 0u) << reply.substr(0, 200);
    }
    // The connection is over; the decision line for it is the last one written.
    const std::vector<std::string> log = Log();
    ASSERT_GT(log.size(), before);
    EXPECT_THAT(log.back(), HasSubstr(DecisionOf(c.reason)));
    if (!c.forwarded_target.empty()) allowed_targets.push_back(c.forwarded_target);
  }
  ExpectEveryLineComplete(Log());
  const Json requests = Json::parse(upstream_.RequestLog());
  ASSERT_EQ(requests.size(), allowed_targets.size());
  for (size_t i = 0; i < requests.size(); ++i) {
    EXPECT_EQ(requests[i]["method"], "GET");
    EXPECT_EQ(requests[i]["target"], allowed_targets[i]);
    EXPECT_EQ(requests[i]["headers"]["Host"].get<std::string>().rfind("prices.azure.com", 0), 0u);
  }
}

TEST_F(ProxyTest, TunnelsAreLimitedAndIdleOnesClosed) {
  ProxyOptions options;
  options.upstream_host = "127.0.0.1";
  options.upstream_port = upstream_.port();
  options.upstream_ca_file = upstream_.ca_file();
  options.max_tunnels = 2;
  options.idle_timeout_ms = 3000;
  std::vector<std::string> log;
  std::mutex mu;
  options.log = [&](const std::string& l) {
    std::lock_guard<std::mutex> lock(mu);
    log.push_back(l);
  };
  EgressProxy proxy(options);
  ASSERT_THAT(proxy.Start(), IsOk());
  // Two clients that connect and say nothing hold both tunnels; connections are accepted in
  // order, so the third is the one over the limit.
  const int a = DialLoopback(proxy.port(), 5);
  const int b = DialLoopback(proxy.port(), 5);
  ASSERT_GE(a, 0);
  ASSERT_GE(b, 0);
  const int c = DialLoopback(proxy.port(), 5);
  ASSERT_GE(c, 0);
  EXPECT_EQ(ReadHead(c).rfind("HTTP/1.1 503", 0), 0u);
  close(c);
  auto logged = [&](const std::string& needle) {
    std::lock_guard<std::mutex> lock(mu);
    for (const std::string& line : log) {
      if (line.find(needle) != std::string::npos) return true;
    }
    return false;
  };
  EXPECT_TRUE(logged(DecisionOf(kTooManyTunnels)));
  // The idle ones are closed by the proxy (recv sees EOF, not our own 5 s timeout).
  char byte;
  EXPECT_EQ(recv(a, &byte, 1, 0), 0);
  EXPECT_EQ(recv(b, &byte, 1, 0), 0);
  close(a);
  close(b);
  // Their slots come back once the workers finish; try until a deadline rather than sleeping.
  std::string reply;
  for (int attempt = 0; attempt < 50; ++attempt) {
    const int d = DialLoopback(proxy.port(), 5);
    const std::string connect = "CONNECT evil.example:443 HTTP/1.1\r\n\r\n";
    send(d, connect.data(), connect.size(), MSG_NOSIGNAL);
    reply = ReadHead(d);
    close(d);
    if (reply.rfind("HTTP/1.1 403", 0) == 0) break;
    usleep(100 * 1000);
  }
  EXPECT_EQ(reply.rfind("HTTP/1.1 403", 0), 0u) << "slots are freed";
  EXPECT_EQ(Json::parse(upstream_.RequestLog()).size(), 0u);
}

TEST_F(ProxyTest, APlainProxyRequestIsNotACONNECT) {
  const int fd = DialLoopback(proxy_->port(), 5);
  const std::string req = "GET http://prices.azure.com/ HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n";
  send(fd, req.data(), req.size(), MSG_NOSIGNAL);
  EXPECT_EQ(ReadHead(fd).rfind("HTTP/1.1 405", 0), 0u);
  close(fd);
  EXPECT_THAT(Log().back(), HasSubstr(DecisionOf(kNotConnect)));
}

TEST_F(ProxyTest, AClientThatDoesNotTrustTheEgressCaSendsNothing) {
  // A CA, but not the egress one.
  const StatusOr<std::string> pem = base::ReadFile(upstream_.ca_file());
  ASSERT_THAT(pem, IsOk());
  Exchange ex = Run("prices.azure.com:443", kGet, "prices.azure.com", &*pem);
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
  fakes::test_support::PricesServerProcess upstream(kCatalog);
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
  ASSERT_THAT(proxy.Start(), IsOk());
  const int fd = DialLoopback(proxy.port(), 5);
  const std::string connect = "CONNECT prices.azure.com:443 HTTP/1.1\r\n\r\n";
  send(fd, connect.data(), connect.size(), MSG_NOSIGNAL);
  ASSERT_EQ(ReadHead(fd).rfind("HTTP/1.1 200", 0), 0u);
  const base::SslCtxPtr ctx(SSL_CTX_new(TLS_client_method()));
  const base::X509Ptr ca = base::ReadPemCert(proxy.egress_ca_pem());
  X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx.get()), ca.get());
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  const base::SslPtr ssl(SSL_new(ctx.get()));
  SSL_set_fd(ssl.get(), fd);
  SSL_set_tlsext_host_name(ssl.get(), "prices.azure.com");
  ASSERT_EQ(SSL_connect(ssl.get()), 1);
  SSL_write(ssl.get(), kGet.data(), static_cast<int>(kGet.size()));
  char buf[512];
  const int n = SSL_read(ssl.get(), buf, sizeof buf);
  ASSERT_GT(n, 0);
  EXPECT_EQ(std::string(buf, n).rfind("HTTP/1.1 502", 0), 0u);
  close(fd);
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_THAT(log.back(), HasSubstr(DecisionOf(kUpstreamTlsFailed)));
  EXPECT_EQ(Json::parse(upstream.RequestLog()).size(), 0u);
}

// A TCP relay whose target can be switched between connections: an upstream address that an
// impostor takes over. One connection at a time; it stops with its owner.
class SwitchableRelay {
 public:
  explicit SwitchableRelay(int target) : target_(target) {
    listener_ = ListenLoopback(8, port_);
    thread_ = std::thread([this] { Loop(); });
  }
  ~SwitchableRelay() {
    stop_ = true;
    thread_.join();
    close(listener_);
  }
  void Switch(int target) { target_ = target; }
  int port() const { return port_; }

 private:
  void Loop() {
    while (!stop_) {
      pollfd p{listener_, POLLIN, 0};
      if (poll(&p, 1, 100) != 1) continue;
      const int in = accept(listener_, nullptr, nullptr);
      if (in < 0) continue;
      const int out = DialLoopback(target_, 5);
      if (out >= 0) Pump(in, out);
      close(in);
      if (out >= 0) close(out);
    }
  }
  // Copies both ways until either side closes or 5 s pass without a byte.
  static void Pump(int a, int b) {
    char buf[16384];
    for (;;) {
      pollfd p[2] = {{a, POLLIN, 0}, {b, POLLIN, 0}};
      if (poll(p, 2, 5000) <= 0) return;
      for (int i = 0; i < 2; ++i) {
        if ((p[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
        const ssize_t n = read(p[i].fd, buf, sizeof buf);
        if (n <= 0 || send(p[1 - i].fd, buf, static_cast<size_t>(n), MSG_NOSIGNAL) != n) return;
      }
    }
  }

  std::atomic<int> target_;
  std::atomic<bool> stop_ = false;
  int listener_ = -1, port_ = 0;
  std::thread thread_;
};

// The first line of the answer to one allowed GET through `proxy`.
std::string StatusLineThrough(const EgressProxy& proxy) {
  const int fd = DialLoopback(proxy.port(), 5);
  const std::string connect = "CONNECT prices.azure.com:443 HTTP/1.1\r\n\r\n";
  send(fd, connect.data(), connect.size(), MSG_NOSIGNAL);
  std::string answer = ReadHead(fd);
  if (answer.rfind("HTTP/1.1 200", 0) == 0) {
    const base::SslCtxPtr ctx(SSL_CTX_new(TLS_client_method()));
    const base::X509Ptr ca = base::ReadPemCert(proxy.egress_ca_pem());
    X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx.get()), ca.get());
    SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
    const base::SslPtr ssl(SSL_new(ctx.get()));
    SSL_set_fd(ssl.get(), fd);
    SSL_set_tlsext_host_name(ssl.get(), "prices.azure.com");
    answer.clear();
    if (SSL_connect(ssl.get()) == 1) {
      SSL_write(ssl.get(), kGet.data(), static_cast<int>(kGet.size()));
      char buf[4096];
      int n;
      while ((n = SSL_read(ssl.get(), buf, sizeof buf)) > 0) answer.append(buf, n);
    }
  }
  close(fd);
  return answer.substr(0, answer.find("\r\n"));
}

// Tunnels after the first resume the upstream's verified session (the proxy's added latency was
// mostly a full upstream handshake per tunnel), and only with the upstream that issued it: an
// impostor at the same address cannot resume, meets full verification and is refused.
TEST(ProxyUpstreamTest, ASessionIsResumedOnlyWithTheUpstreamThatIssuedIt) {
  fakes::test_support::PricesServerProcess upstream(kCatalog);
  // Each fake writes its CA to the same file: keep the upstream's before the impostor starts.
  const std::string trusted = base::TestTmpDir() + "/upstream-ca.pem";
  const StatusOr<std::string> upstream_ca = base::ReadFile(upstream.ca_file());
  ASSERT_TRUE(upstream_ca.ok());
  ASSERT_THAT(base::WriteFileAtomically(trusted, *upstream_ca), IsOk());
  fakes::test_support::PricesServerProcess impostor(kCatalog);
  SwitchableRelay relay(upstream.port());
  std::mutex mu;
  std::vector<std::string> log;
  std::vector<ForwardedExchange> seen;
  ProxyOptions options;
  options.upstream_host = "127.0.0.1";
  options.upstream_port = relay.port();
  options.upstream_ca_file = trusted;
  options.log = [&](const std::string& l) {
    std::lock_guard<std::mutex> lock(mu);
    log.push_back(l);
  };
  options.observe = [&](const ForwardedExchange& e) {
    std::lock_guard<std::mutex> lock(mu);
    seen.push_back(e);
  };
  EgressProxy proxy(options);
  ASSERT_THAT(proxy.Start(), IsOk());
  EXPECT_EQ(StatusLineThrough(proxy), "HTTP/1.1 200 OK");
  EXPECT_EQ(StatusLineThrough(proxy), "HTTP/1.1 200 OK");
  relay.Switch(impostor.port());
  EXPECT_EQ(StatusLineThrough(proxy), "HTTP/1.1 502 Bad Gateway");
  {
    std::lock_guard<std::mutex> lock(mu);
    EXPECT_THAT(log.back(), HasSubstr(DecisionOf(kUpstreamTlsFailed)));
  }
  relay.Switch(upstream.port());
  EXPECT_EQ(StatusLineThrough(proxy), "HTTP/1.1 200 OK");
  proxy.Stop();
  EXPECT_EQ(Json::parse(impostor.RequestLog()).size(), 0u);  // its CA is now the shared file's
  std::lock_guard<std::mutex> lock(mu);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_FALSE(seen[0].upstream_resumed);
  EXPECT_TRUE(seen[1].upstream_resumed);
  EXPECT_TRUE(seen[2].upstream_resumed);
}

// A loopback port whose accept queue is full: the kernel drops further SYNs, so a connect to it
// neither succeeds nor fails until someone gives up. Owns its sockets.
class SilentUpstream {
 public:
  SilentUpstream() {
    listener_ = ListenLoopback(0, port_);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port_));
    // Fill the queue without ever accepting; stop at the first connect that cannot complete.
    for (int i = 0; i < 8; ++i) {
      const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
      fillers_.push_back(fd);
      if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 &&
          errno == EINPROGRESS) {
        pollfd p{fd, POLLOUT, 0};
        if (poll(&p, 1, 200) == 0) break;  // this one hangs: the queue is full
      }
    }
  }
  ~SilentUpstream() {
    for (int fd : fillers_) close(fd);
    close(listener_);
  }
  int port() const { return port_; }

 private:
  int listener_ = -1;
  int port_ = 0;
  std::vector<int> fillers_;
};

TEST(ProxyUpstreamTest, AnUpstreamThatNeverAnswersIsGivenUpOnAtTheIdleTimeout) {
  SilentUpstream silent;
  std::vector<std::string> log;
  std::mutex mu;
  ProxyOptions options;
  options.upstream_host = "127.0.0.1";
  options.upstream_port = silent.port();
  options.idle_timeout_ms = 500;
  options.log = [&](const std::string& l) {
    std::lock_guard<std::mutex> lock(mu);
    log.push_back(l);
  };
  EgressProxy proxy(options);
  ASSERT_THAT(proxy.Start(), IsOk());
  const auto start = std::chrono::steady_clock::now();
  const int fd = DialLoopback(proxy.port(), 5);
  const std::string connect = "CONNECT prices.azure.com:443 HTTP/1.1\r\n\r\n";
  send(fd, connect.data(), connect.size(), MSG_NOSIGNAL);
  ASSERT_EQ(ReadHead(fd).rfind("HTTP/1.1 200", 0), 0u);
  const base::SslCtxPtr ctx(SSL_CTX_new(TLS_client_method()));
  const base::X509Ptr ca = base::ReadPemCert(proxy.egress_ca_pem());
  X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx.get()), ca.get());
  const base::SslPtr ssl(SSL_new(ctx.get()));
  SSL_set_fd(ssl.get(), fd);
  SSL_set_tlsext_host_name(ssl.get(), "prices.azure.com");
  ASSERT_EQ(SSL_connect(ssl.get()), 1);
  SSL_write(ssl.get(), kGet.data(), static_cast<int>(kGet.size()));
  char buf[512];
  const int n = SSL_read(ssl.get(), buf, sizeof buf);
  close(fd);
  ASSERT_GT(n, 0);
  EXPECT_EQ(std::string(buf, n).rfind("HTTP/1.1 502", 0), 0u);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  proxy.Stop();  // joins the worker: it must not be stuck in connect
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_THAT(log.back(), HasSubstr(DecisionOf(kUpstreamUnreachable)));
}

// Start says which part failed, so a program can name the flag, path or address behind it.
TEST(ProxyStartTest, AFailedStartNamesTheOptionsTheCaOrTheListener) {
  const auto start = [](ProxyOptions options) {
    options.log = [](const std::string&) {};
    EgressProxy proxy(std::move(options));
    return proxy.Start();
  };
  for (const auto& bad : std::vector<std::function<void(ProxyOptions&)>>{
           [](ProxyOptions& o) { o.allowed_host = ""; },
           [](ProxyOptions& o) { o.allowed_host = "10.0.0.1"; },
           [](ProxyOptions& o) { o.max_tunnels = 0; },
           [](ProxyOptions& o) { o.idle_timeout_ms = 0; }}) {
    ProxyOptions options;
    bad(options);
    EXPECT_THAT(start(options), ProgramErrorIs(kStartBadOptions));
  }
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string not_pem = std::string(tmp) + "/not-pem.txt";
  ASSERT_THAT(base::WriteFileAtomically(not_pem, "not a certificate\n"), IsOk());
  ProxyOptions unloadable;
  unloadable.upstream_ca_file = not_pem;
  EXPECT_THAT(start(unloadable), ProgramErrorIs(kStartUpstreamCa));

  ProxyOptions first_options;
  first_options.log = [](const std::string&) {};
  EgressProxy first(first_options);
  ASSERT_THAT(first.Start(), IsOk());
  ProxyOptions same_port;
  same_port.listen_port = first.port();
  EXPECT_THAT(start(same_port), ProgramErrorIs(kStartListen));
}

// ---- Weakenings: each exists for a conformance mutant and must really weaken ----------------

// One tunnel as a client sees it: CONNECT `host`:443, then TLS sending `sni` and verifying the
// leaf for `host` against the egress CA.
class Tunnel {
 public:
  Tunnel(const EgressProxy& proxy, const std::string& host, const std::string& sni) {
    fd_ = DialLoopback(proxy.port(), 5);
    const std::string connect = "CONNECT " + host + ":443 HTTP/1.1\r\n\r\n";
    send(fd_, connect.data(), connect.size(), MSG_NOSIGNAL);
    connect_reply_ = ReadHead(fd_);
    if (connect_reply_.rfind("HTTP/1.1 200", 0) != 0) return;
    ctx_.reset(SSL_CTX_new(TLS_client_method()));
    SSL_CTX_set_verify(ctx_.get(), SSL_VERIFY_PEER, nullptr);
    const base::X509Ptr ca = base::ReadPemCert(proxy.egress_ca_pem());
    X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx_.get()), ca.get());
    ssl_.reset(SSL_new(ctx_.get()));
    SSL_set_fd(ssl_.get(), fd_);
    SSL_set_tlsext_host_name(ssl_.get(), sni.c_str());
    SSL_set1_host(ssl_.get(), host.c_str());
    open_ = SSL_connect(ssl_.get()) == 1;
  }
  ~Tunnel() {
    ssl_.reset();
    if (fd_ >= 0) close(fd_);
  }
  bool open() const { return open_; }
  const std::string& connect_reply() const { return connect_reply_; }
  void Send(const std::string& bytes) {
    SSL_write(ssl_.get(), bytes.data(), static_cast<int>(bytes.size()));
  }
  // The next response's head and Content-Length body; empty when the tunnel ends first.
  std::string Response() {
    while (buffer_.find("\r\n\r\n") == std::string::npos && Fill()) {
    }
    const size_t head_end = buffer_.find("\r\n\r\n");
    if (head_end == std::string::npos) return "";
    std::smatch length;
    const std::string head = buffer_.substr(0, head_end + 4);
    const size_t body = std::regex_search(head, length, std::regex("Content-Length: ([0-9]+)"))
                            ? std::stoul(length[1])
                            : 0;
    while (buffer_.size() < head.size() + body && Fill()) {
    }
    const std::string response = buffer_.substr(0, head.size() + body);
    buffer_.erase(0, response.size());
    return response;
  }

 private:
  bool Fill() {
    char buf[4096];
    const int n = SSL_read(ssl_.get(), buf, sizeof buf);
    if (n > 0) buffer_.append(buf, static_cast<size_t>(n));
    return n > 0;
  }
  int fd_ = -1;
  bool open_ = false;
  std::string connect_reply_, buffer_;
  base::SslCtxPtr ctx_;
  base::SslPtr ssl_;
};

class WeakeningTest : public ::testing::Test {
 protected:
  WeakeningTest() : upstream_(kCatalog) {}

  // A proxy with the named weakening ("" for none) in front of this test's upstream.
  std::unique_ptr<EgressProxy> Proxy(std::string_view weakening) {
    ProxyOptions options;
    options.upstream_host = "127.0.0.1";
    options.upstream_port = upstream_.port();
    options.upstream_ca_file = upstream_.ca_file();
    options.idle_timeout_ms = 1000;
    options.log = [](const std::string&) {};
    auto proxy = std::make_unique<EgressProxy>(options);
    EXPECT_TRUE(ProxyMutator::Weaken(*proxy, weakening)) << weakening;
    EXPECT_THAT(proxy->Start(), IsOk());
    return proxy;
  }

  Json Received() { return Json::parse(upstream_.RequestLog()); }
  // The methods the upstream received, in order.
  std::vector<std::string> ReceivedMethods() {
    std::vector<std::string> methods;
    for (const Json& r : Received()) methods.push_back(r["method"].get<std::string>());
    return methods;
  }

  fakes::test_support::PricesServerProcess upstream_;
};

constexpr char kPricesPath[] = "/api/retail/prices?currencyCode=USD";

std::string Get(const std::string& method, const std::string& host_header) {
  return method + " " + kPricesPath + " HTTP/1.1\r\nHost: " + host_header + "\r\n\r\n";
}

TEST_F(WeakeningTest, EachRequestWeakeningForwardsWhatTheCorrectProxyRefuses) {
  struct Case {
    std::string weakening, connect_host, sni, method, host_header;
  };
  const std::vector<Case> cases = {
      {"method_case_insensitive", "prices.azure.com", "prices.azure.com", "get",
       "prices.azure.com"},
      {"host_header_unchecked", "prices.azure.com", "prices.azure.com", "GET",
       "management.azure.com"},
      {"sni_unchecked", "prices.azure.com", "management.azure.com", "GET", "prices.azure.com"},
      {"host_suffix_match", "evilprices.azure.com", "evilprices.azure.com", "GET",
       "evilprices.azure.com"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.weakening);
    ASSERT_TRUE(upstream_.Reset());
    for (const std::string_view weakening : {std::string_view(), std::string_view(c.weakening)}) {
      const std::unique_ptr<EgressProxy> proxy = Proxy(weakening);
      Tunnel tunnel(*proxy, c.connect_host, c.sni);
      std::string response;
      if (tunnel.open()) {
        tunnel.Send(Get(c.method, c.host_header));
        response = tunnel.Response();
      }
      if (weakening.empty()) {
        // Refused at CONNECT (403) or inside the tunnel (405, 421); nothing went upstream.
        const std::string& reply = tunnel.open() ? response : tunnel.connect_reply();
        EXPECT_THAT(reply.substr(0, 12), ::testing::AnyOf("HTTP/1.1 403", "HTTP/1.1 405",
                                                          "HTTP/1.1 421"));
        EXPECT_EQ(Received().size(), 0u);
        continue;
      }
      ASSERT_TRUE(tunnel.open()) << tunnel.connect_reply();
      EXPECT_EQ(response.rfind("HTTP/1.1 ", 0), 0u) << response;
      const Json received = Received();
      ASSERT_EQ(received.size(), 1u);
      EXPECT_EQ(received[0]["method"], c.method);  // forwarded as sent
      // httplib refuses a lower-case method before routing, and logs no headers for it.
      if (received[0].contains("headers")) {
        EXPECT_EQ(received[0]["headers"]["Host"], c.host_header);
      }
    }
  }
}

TEST_F(WeakeningTest, LaterRequestsUncheckedForwardsAPostAfterTheFirstGet) {
  const std::string post =
      "POST /api/retail/prices HTTP/1.1\r\nHost: prices.azure.com\r\nContent-Length: 2\r\n\r\n{}";
  for (const std::string_view weakening : {"", "later_requests_unchecked"}) {
    SCOPED_TRACE(weakening);
    ASSERT_TRUE(upstream_.Reset());
    const std::unique_ptr<EgressProxy> proxy = Proxy(weakening);
    {
      // One request after the other's response, on the same tunnel.
      Tunnel tunnel(*proxy, "prices.azure.com", "prices.azure.com");
      ASSERT_TRUE(tunnel.open());
      tunnel.Send(Get("GET", "prices.azure.com"));
      EXPECT_EQ(tunnel.Response().rfind("HTTP/1.1 200", 0), 0u);
      tunnel.Send(post);
      EXPECT_EQ(tunnel.Response().rfind("HTTP/1.1 405", 0) == 0, !weakening.empty());
    }
    {
      // Both in one write: the correct proxy refuses the pipelined bytes outright.
      Tunnel tunnel(*proxy, "prices.azure.com", "prices.azure.com");
      ASSERT_TRUE(tunnel.open());
      tunnel.Send(Get("GET", "prices.azure.com") + post);
      EXPECT_EQ(tunnel.Response().rfind("HTTP/1.1 200", 0) == 0, !weakening.empty());
      // The POST's answer, read before the tunnel closes: the upstream logged it by then.
      EXPECT_EQ(tunnel.Response().rfind("HTTP/1.1 405", 0) == 0, !weakening.empty());
    }
    const std::vector<std::string> methods = ReceivedMethods();
    if (weakening.empty()) {
      EXPECT_EQ(methods, std::vector<std::string>({"GET"}));
    } else {
      EXPECT_EQ(methods, std::vector<std::string>({"GET", "POST", "GET", "POST"}));
    }
  }
}

TEST_F(WeakeningTest, UpgradeUncheckedForwardsARequestCarryingUpgrade) {
  const std::string upgrade = std::string("GET ") + kPricesPath +
                              " HTTP/1.1\r\nHost: prices.azure.com\r\nUpgrade: websocket\r\n\r\n";
  for (const std::string_view weakening : {"", "upgrade_unchecked"}) {
    SCOPED_TRACE(weakening);
    ASSERT_TRUE(upstream_.Reset());
    const std::unique_ptr<EgressProxy> proxy = Proxy(weakening);
    Tunnel tunnel(*proxy, "prices.azure.com", "prices.azure.com");
    ASSERT_TRUE(tunnel.open());
    tunnel.Send(upgrade);
    EXPECT_EQ(tunnel.Response().rfind("HTTP/1.1 400", 0) == 0, weakening.empty());
    EXPECT_EQ(Received().size(), weakening.empty() ? 0u : 1u);
  }
}

TEST_F(WeakeningTest, ResponseAlteredAddsAViaHeaderTheCorrectProxyNeverAdds) {
  for (const std::string_view weakening : {"", "response_altered"}) {
    SCOPED_TRACE(weakening);
    const std::unique_ptr<EgressProxy> proxy = Proxy(weakening);
    Tunnel tunnel(*proxy, "prices.azure.com", "prices.azure.com");
    ASSERT_TRUE(tunnel.open());
    tunnel.Send(Get("GET", "prices.azure.com"));
    const std::string response = tunnel.Response();
    EXPECT_EQ(response.rfind("HTTP/1.1 200", 0), 0u) << response;
    EXPECT_EQ(response.find("\r\nVia: ") != std::string::npos, !weakening.empty()) << response;
  }
}

TEST_F(WeakeningTest, ResponseHeadRewrittenWritesTheProxysOwnConnectionFields) {
  for (const std::string_view weakening : {"", "response_head_rewritten"}) {
    SCOPED_TRACE(weakening);
    const std::unique_ptr<EgressProxy> proxy = Proxy(weakening);
    Tunnel tunnel(*proxy, "prices.azure.com", "prices.azure.com");
    ASSERT_TRUE(tunnel.open());
    tunnel.Send(Get("GET", "prices.azure.com"));
    const std::string response = tunnel.Response();
    EXPECT_EQ(response.rfind("HTTP/1.1 200", 0), 0u) << response;
    EXPECT_EQ(response.find("\r\nKeep-Alive: timeout=5\r\n") != std::string::npos,
              !weakening.empty())
        << response;
    EXPECT_EQ(response.find("\r\nDate: ") != std::string::npos, !weakening.empty()) << response;
  }
}

TEST_F(WeakeningTest, LaterRequestsMethodOnlyForwardsAnotherHostButNotAPost) {
  const std::string post =
      "POST /api/retail/prices HTTP/1.1\r\nHost: prices.azure.com\r\nContent-Length: 0\r\n\r\n";
  for (const std::string_view weakening : {"", "later_requests_method_only"}) {
    SCOPED_TRACE(weakening);
    ASSERT_TRUE(upstream_.Reset());
    const std::unique_ptr<EgressProxy> proxy = Proxy(weakening);
    Tunnel tunnel(*proxy, "prices.azure.com", "prices.azure.com");
    ASSERT_TRUE(tunnel.open());
    tunnel.Send(Get("GET", "prices.azure.com"));
    EXPECT_EQ(tunnel.Response().rfind("HTTP/1.1 200", 0), 0u);
    tunnel.Send(Get("GET", "management.azure.com"));
    EXPECT_EQ(tunnel.Response().rfind("HTTP/1.1 ", 0) == 0, !weakening.empty());
    tunnel.Send(post);
    EXPECT_EQ(tunnel.Response().rfind("HTTP/1.1 405", 0) == 0, !weakening.empty());
    EXPECT_EQ(ReceivedMethods(), weakening.empty() ? std::vector<std::string>({"GET"})
                                         : std::vector<std::string>({"GET", "GET"}));
  }
}

}  // namespace
}  // namespace azure_pricing::egress
