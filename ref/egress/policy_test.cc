// The proxy's decision table: CONNECT targets and requests inside the tunnel, each with the
// reason code the decision log must carry.
#include "ref/egress/policy.h"

#include "gtest/gtest.h"

namespace azure_pricing::egress {
namespace {

constexpr char kAllowed[] = "prices.azure.com";

TEST(DecideConnectTest, Table) {
  struct Case {
    const char* authority;
    bool allowed;
    const char* reason;
  };
  for (const Case& c : std::vector<Case>{
           {"prices.azure.com:443", true, kTunnelOpened},
           {"PRICES.Azure.COM:443", true, kTunnelOpened},
           {"prices.azure.com.:443", true, kTunnelOpened},
           {"prices.azure.com:80", false, kPortNotAllowed},
           {"prices.azure.com:8443", false, kPortNotAllowed},
           {"prices.azure.com:0443", false, kPortNotAllowed},
           {"prices.azure.com", false, kMissingPort},
           {"prices.azure.com:", false, kMalformedAuthority},
           {"prices.azure.com:44a", false, kMalformedAuthority},
           {"prices.azure.com..:443", false, kMalformedAuthority},
           {"evil.example:443", false, kHostNotAllowed},
           {"prices.azure.com.evil.example:443", false, kHostNotAllowed},
           {"evilprices.azure.com:443", false, kHostNotAllowed},
           {"azure.com:443", false, kHostNotAllowed},
           {"management.azure.com:443", false, kHostNotAllowed},
           {"dc.applicationinsights.azure.com:443", false, kHostNotAllowed},
           {"127.0.0.1:443", false, kIpLiteral},
           {"13.107.246.40:443", false, kIpLiteral},
           {"2130706433:443", false, kIpLiteral},
           {"0x7f000001:443", false, kIpLiteral},
           {"0177.0.0.1:443", false, kIpLiteral},
           {"127.1:443", false, kIpLiteral},
           {"[::1]:443", false, kIpLiteral},
           {"[::ffff:127.0.0.1]:443", false, kIpLiteral},
           {"::1:443", false, kIpLiteral},
           {"user@prices.azure.com:443", false, kMalformedAuthority},
           {"prices.azure.com%00.evil:443", false, kMalformedAuthority},
           {"prices_azure.com:443", false, kMalformedAuthority},
           {"", false, kMalformedAuthority},
       }) {
    const Decision d = DecideConnect(c.authority, kAllowed);
    EXPECT_EQ(d.allowed, c.allowed) << c.authority;
    EXPECT_EQ(d.reason, c.reason) << c.authority;
  }
}

Decision Request(const std::string& head_text, const std::string& sni = kAllowed) {
  ParsedHead parsed = ParseRequestHead(head_text);
  if (!parsed.head) return parsed.refusal;
  return DecideRequest(*parsed.head, sni, kAllowed);
}

TEST(DecideRequestTest, Table) {
  const std::string ok =
      "GET /api/retail/prices?currencyCode=USD HTTP/1.1\r\nHost: prices.azure.com\r\n";
  struct Case {
    std::string head;
    std::string sni;
    bool allowed;
    const char* reason;
  };
  for (const Case& c : std::vector<Case>{
           {ok + "\r\n", kAllowed, true, kRequestForwarded},
           {ok + "User-Agent: azsdk\r\nAccept: */*\r\n\r\n", kAllowed, true, kRequestForwarded},
           {"GET / HTTP/1.1\r\nHost: prices.azure.com:443\r\n\r\n", kAllowed, true,
            kRequestForwarded},
           {"GET https://prices.azure.com/api/retail/prices HTTP/1.1\r\nHost: "
            "prices.azure.com\r\n\r\n",
            kAllowed, true, kRequestForwarded},
           {"GET https://evil.example/x HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n", kAllowed,
            false, kAbsoluteTargetOtherHost},
           {"GET https://prices.azure.com.evil.example/ HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n",
            kAllowed, false, kAbsoluteTargetOtherHost},
           {"POST / HTTP/1.1\r\nHost: prices.azure.com\r\nContent-Length: 0\r\n\r\n", kAllowed,
            false, kMethodNotAllowed},
           {"HEAD / HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n", kAllowed, false,
            kMethodNotAllowed},
           {"PUT / HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n", kAllowed, false, kMethodNotAllowed},
           {"DELETE / HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n", kAllowed, false,
            kMethodNotAllowed},
           {"OPTIONS * HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n", kAllowed, false,
            kMethodNotAllowed},
           {"CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n", kAllowed, false,
            kMethodNotAllowed},
           {"get / HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n", kAllowed, false, kMethodNotAllowed},
           {"GET / HTTP/1.0\r\nHost: prices.azure.com\r\n\r\n", kAllowed, false,
            kHttpVersionNotAllowed},
           {"GET / HTTP/2\r\nHost: prices.azure.com\r\n\r\n", kAllowed, false,
            kHttpVersionNotAllowed},
           {ok + "Content-Length: 5\r\n\r\n", kAllowed, false, kRequestBody},
           {ok + "Content-Length: 0\r\n\r\n", kAllowed, false, kRequestBody},
           {ok + "Transfer-Encoding: chunked\r\n\r\n", kAllowed, false, kRequestBody},
           {ok + "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", kAllowed, false,
            kRequestBody},
           {ok + "Upgrade: websocket\r\nConnection: Upgrade\r\n\r\n", kAllowed, false, kUpgrade},
           {ok + "Connection: keep-alive, Upgrade\r\n\r\n", kAllowed, false, kUpgrade},
           {ok + "Host: evil.example\r\n\r\n", kAllowed, false, kDuplicateHost},
           {"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n", kAllowed, false, kHostMismatch},
           {"GET / HTTP/1.1\r\nHost: prices.azure.com:8443\r\n\r\n", kAllowed, false,
            kHostMismatch},
           {"GET / HTTP/1.1\r\n\r\n", kAllowed, false, kMissingHost},
           {ok + "\r\n", "evil.example", false, kSniMismatch},
           {ok + "\r\n", "", false, kMissingSni},
           {ok + " folded\r\n\r\n", kAllowed, false, kObsFold},
           {ok + "X-A: 1\nX-B: 2\r\n\r\n", kAllowed, false, kBareLf},
           {ok + "X-A: 1\rX-B: 2\r\n\r\n", kAllowed, false, kBareCr},
           {ok + "X-A: a\x01"
                 "b\r\n\r\n",
            kAllowed, false, kControlCharacter},
           {ok + "Bad Name: x\r\n\r\n", kAllowed, false, kMalformedHeader},
           {ok + "Host : prices.azure.com\r\n\r\n", kAllowed, false, kMalformedHeader},
           {ok + "NoColon\r\n\r\n", kAllowed, false, kMalformedHeader},
           {"GET  / HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n", kAllowed, false,
            kMalformedRequestLine},
           {"GET /\r\nHost: prices.azure.com\r\n\r\n", kAllowed, false, kMalformedRequestLine},
           {ok, kAllowed, false, kIncompleteHead},
           {ok + "X-Big: " + std::string(kMaxHeadBytes, 'a') + "\r\n\r\n", kAllowed, false,
            kHeadTooLarge},
       }) {
    const Decision d = Request(c.head, c.sni);
    EXPECT_EQ(d.allowed, c.allowed) << c.head;
    EXPECT_EQ(d.reason, c.reason) << c.head;
  }
}

TEST(DecideRequestTest, HeaderCountIsBounded) {
  std::string head = "GET / HTTP/1.1\r\nHost: prices.azure.com\r\n";
  for (size_t i = 0; i < kMaxHeaders; ++i) head += "X-" + std::to_string(i) + ": v\r\n";
  EXPECT_EQ(Request(head + "\r\n").reason, kTooManyHeaders);
}

TEST(ConnectAuthorityTest, OnlyAConnectLineOverHttp11) {
  EXPECT_EQ(ConnectAuthority("CONNECT prices.azure.com:443 HTTP/1.1\r\nHost: x\r\n\r\n"),
            "prices.azure.com:443");
  EXPECT_EQ(ConnectAuthority("CONNECT  HTTP/1.1\r\n\r\n"), "");
  for (const char* head : {"GET / HTTP/1.1\r\n\r\n", "connect prices.azure.com:443 HTTP/1.1\r\n",
                           "CONNECT prices.azure.com:443 HTTP/1.0\r\n\r\n",
                           "CONNECT prices.azure.com:443  HTTP/1.1\r\n\r\n",
                           "CONNECT prices.azure.com:443\r\n\r\n", "CONNECT", ""}) {
    EXPECT_EQ(ConnectAuthority(head), std::nullopt) << head;
  }
}

TEST(LooksLikeIpLiteralTest, NamesAreNotAddresses) {
  EXPECT_FALSE(LooksLikeIpLiteral("prices.azure.com"));
  EXPECT_FALSE(LooksLikeIpLiteral("1password.com"));
  EXPECT_FALSE(LooksLikeIpLiteral("0xdead.example"));
  EXPECT_TRUE(LooksLikeIpLiteral("10.0.0.1."));
}

}  // namespace
}  // namespace azure_pricing::egress
