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
           {"prices.azure.com:443", true, "tunnel_opened"},
           {"PRICES.Azure.COM:443", true, "tunnel_opened"},
           {"prices.azure.com.:443", true, "tunnel_opened"},
           {"prices.azure.com:80", false, "port_not_allowed"},
           {"prices.azure.com:8443", false, "port_not_allowed"},
           {"prices.azure.com:0443", false, "port_not_allowed"},
           {"prices.azure.com", false, "missing_port"},
           {"prices.azure.com:", false, "malformed_authority"},
           {"prices.azure.com:44a", false, "malformed_authority"},
           {"prices.azure.com..:443", false, "malformed_authority"},
           {"evil.example:443", false, "host_not_allowed"},
           {"prices.azure.com.evil.example:443", false, "host_not_allowed"},
           {"evilprices.azure.com:443", false, "host_not_allowed"},
           {"azure.com:443", false, "host_not_allowed"},
           {"management.azure.com:443", false, "host_not_allowed"},
           {"dc.applicationinsights.azure.com:443", false, "host_not_allowed"},
           {"127.0.0.1:443", false, "ip_literal"},
           {"13.107.246.40:443", false, "ip_literal"},
           {"2130706433:443", false, "ip_literal"},
           {"0x7f000001:443", false, "ip_literal"},
           {"0177.0.0.1:443", false, "ip_literal"},
           {"127.1:443", false, "ip_literal"},
           {"[::1]:443", false, "ip_literal"},
           {"[::ffff:127.0.0.1]:443", false, "ip_literal"},
           {"::1:443", false, "ip_literal"},
           {"user@prices.azure.com:443", false, "malformed_authority"},
           {"prices.azure.com%00.evil:443", false, "malformed_authority"},
           {"prices_azure.com:443", false, "malformed_authority"},
           {"", false, "malformed_authority"},
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
           {ok + "\r\n", kAllowed, true, "request_forwarded"},
           {ok + "User-Agent: azsdk\r\nAccept: */*\r\n\r\n", kAllowed, true, "request_forwarded"},
           {"GET / HTTP/1.1\r\nHost: prices.azure.com:443\r\n\r\n", kAllowed, true,
            "request_forwarded"},
           {"GET https://prices.azure.com/api/retail/prices HTTP/1.1\r\nHost: "
            "prices.azure.com\r\n\r\n",
            kAllowed, true, "request_forwarded"},
           {"GET https://evil.example/x HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n", kAllowed,
            false, "absolute_target_other_host"},
           {"GET https://prices.azure.com.evil.example/ HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n",
            kAllowed, false, "absolute_target_other_host"},
           {"POST / HTTP/1.1\r\nHost: prices.azure.com\r\nContent-Length: 0\r\n\r\n", kAllowed,
            false, "method_not_allowed"},
           {"HEAD / HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n", kAllowed, false,
            "method_not_allowed"},
           {"PUT / HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n", kAllowed, false,
            "method_not_allowed"},
           {"DELETE / HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n", kAllowed, false,
            "method_not_allowed"},
           {"OPTIONS * HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n", kAllowed, false,
            "method_not_allowed"},
           {"CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n", kAllowed, false,
            "method_not_allowed"},
           {"get / HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n", kAllowed, false,
            "method_not_allowed"},
           {"GET / HTTP/1.0\r\nHost: prices.azure.com\r\n\r\n", kAllowed, false,
            "http_version_not_allowed"},
           {"GET / HTTP/2\r\nHost: prices.azure.com\r\n\r\n", kAllowed, false,
            "http_version_not_allowed"},
           {ok + "Content-Length: 5\r\n\r\n", kAllowed, false, "request_body"},
           {ok + "Content-Length: 0\r\n\r\n", kAllowed, false, "request_body"},
           {ok + "Transfer-Encoding: chunked\r\n\r\n", kAllowed, false, "request_body"},
           {ok + "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", kAllowed, false,
            "request_body"},
           {ok + "Upgrade: websocket\r\nConnection: Upgrade\r\n\r\n", kAllowed, false, "upgrade"},
           {ok + "Connection: keep-alive, Upgrade\r\n\r\n", kAllowed, false, "upgrade"},
           {ok + "Host: evil.example\r\n\r\n", kAllowed, false, "duplicate_host"},
           {"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n", kAllowed, false, "host_mismatch"},
           {"GET / HTTP/1.1\r\nHost: prices.azure.com:8443\r\n\r\n", kAllowed, false,
            "host_mismatch"},
           {"GET / HTTP/1.1\r\n\r\n", kAllowed, false, "missing_host"},
           {ok + "\r\n", "evil.example", false, "sni_mismatch"},
           {ok + "\r\n", "", false, "missing_sni"},
           {ok + " folded\r\n\r\n", kAllowed, false, "obs_fold"},
           {ok + "X-A: 1\nX-B: 2\r\n\r\n", kAllowed, false, "bare_lf"},
           {ok + "X-A: 1\rX-B: 2\r\n\r\n", kAllowed, false, "bare_cr"},
           {ok + "X-A: a\x01"
                 "b\r\n\r\n",
            kAllowed, false, "control_character"},
           {ok + "Bad Name: x\r\n\r\n", kAllowed, false, "malformed_header"},
           {ok + "Host : prices.azure.com\r\n\r\n", kAllowed, false, "malformed_header"},
           {ok + "NoColon\r\n\r\n", kAllowed, false, "malformed_header"},
           {"GET  / HTTP/1.1\r\nHost: prices.azure.com\r\n\r\n", kAllowed, false,
            "malformed_request_line"},
           {"GET /\r\nHost: prices.azure.com\r\n\r\n", kAllowed, false, "malformed_request_line"},
           {ok, kAllowed, false, "incomplete_head"},
           {ok + "X-Big: " + std::string(kMaxHeadBytes, 'a') + "\r\n\r\n", kAllowed, false,
            "head_too_large"},
       }) {
    const Decision d = Request(c.head, c.sni);
    EXPECT_EQ(d.allowed, c.allowed) << c.head;
    EXPECT_EQ(d.reason, c.reason) << c.head;
  }
}

TEST(DecideRequestTest, HeaderCountIsBounded) {
  std::string head = "GET / HTTP/1.1\r\nHost: prices.azure.com\r\n";
  for (size_t i = 0; i < kMaxHeaders; ++i) head += "X-" + std::to_string(i) + ": v\r\n";
  EXPECT_EQ(Request(head + "\r\n").reason, "too_many_headers");
}

TEST(LooksLikeIpLiteralTest, NamesAreNotAddresses) {
  EXPECT_FALSE(LooksLikeIpLiteral("prices.azure.com"));
  EXPECT_FALSE(LooksLikeIpLiteral("1password.com"));
  EXPECT_FALSE(LooksLikeIpLiteral("0xdead.example"));
  EXPECT_TRUE(LooksLikeIpLiteral("10.0.0.1."));
}

}  // namespace
}  // namespace azure_pricing::fakes::egress
