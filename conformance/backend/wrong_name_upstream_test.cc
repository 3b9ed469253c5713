// The wrong-name upstream is what the backend suite says it is: a chain that verifies against its
// own CA for management.azure.com only, so only a proxy that skips the name check talks to it;
// and it counts what reaches it.
#include "conformance/backend/wrong_name_upstream.h"

#include <unistd.h>

#include <string>

#include "fakes/testing/loopback_socket.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/base/openssl.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::backend {
namespace {

// One TLS connection to 127.0.0.1:`port`, verifying the chain against `ca_pem` and the name
// against `name`. On a verified handshake it sends one GET and returns the response's first line.
struct Attempt {
  bool verified = false;
  std::string status_line;
};

Attempt Connect(int port, const std::string& ca_pem, const std::string& name) {
  Attempt out;
  base::SslCtxPtr ctx(SSL_CTX_new(TLS_client_method()));
  base::X509Ptr ca = base::ReadPemCert(ca_pem);
  if (ctx == nullptr || ca == nullptr) return out;
  X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx.get()), ca.get());
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  const int fd = fakes::test_support::DialLoopback(port, /*recv_timeout_seconds=*/5);
  if (fd < 0) return out;
  base::SslPtr ssl(SSL_new(ctx.get()));
  SSL_set_fd(ssl.get(), fd);
  SSL_set_tlsext_host_name(ssl.get(), name.c_str());
  SSL_set1_host(ssl.get(), name.c_str());
  out.verified = SSL_connect(ssl.get()) == 1;
  if (out.verified) {
    const std::string request = "GET /api/retail/prices HTTP/1.1\r\nHost: " + name +
                                "\r\nConnection: close\r\n\r\n";
    SSL_write(ssl.get(), request.data(), static_cast<int>(request.size()));
    char buf[4096];
    std::string received;
    int n;
    while ((n = SSL_read(ssl.get(), buf, sizeof buf)) > 0) received.append(buf, n);
    out.status_line = received.substr(0, received.find("\r\n"));
  }
  ssl.reset();
  close(fd);
  return out;
}

TEST(WrongNameUpstreamTest, VerifiesForItsOwnNameOnlyAndCountsWhatReachesIt) {
  const StatusOr<std::unique_ptr<WrongNameUpstream>> up = WrongNameUpstream::Start();
  ASSERT_THAT(up.status(), IsOk());
  const Attempt prices = Connect((*up)->port(), (*up)->ca_pem(), "prices.azure.com");
  EXPECT_FALSE(prices.verified);
  EXPECT_EQ((*up)->requests(), 0);
  const Attempt own = Connect((*up)->port(), (*up)->ca_pem(), kWrongUpstreamName);
  EXPECT_TRUE(own.verified);
  EXPECT_EQ(own.status_line, "HTTP/1.1 200 OK");
  EXPECT_EQ((*up)->requests(), 1);
}

TEST(WrongNameUpstreamTest, EachStartHasItsOwnCaAndPort) {
  const StatusOr<std::unique_ptr<WrongNameUpstream>> a = WrongNameUpstream::Start();
  const StatusOr<std::unique_ptr<WrongNameUpstream>> b = WrongNameUpstream::Start();
  ASSERT_THAT(a.status(), IsOk());
  ASSERT_THAT(b.status(), IsOk());
  EXPECT_NE((*a)->port(), (*b)->port());
  EXPECT_NE((*a)->ca_pem(), (*b)->ca_pem());
  // One's CA does not vouch for the other's certificate, even for the right name.
  const Attempt crossed = Connect((*b)->port(), (*a)->ca_pem(), kWrongUpstreamName);
  EXPECT_FALSE(crossed.verified);
}

}  // namespace
}  // namespace azure_pricing::conformance::backend
