// The exact upstream is what the backend suite says it is: a certificate for prices.azure.com
// under its own CA, and the same fixed bytes, its response(), for every request it reads.
#include "conformance/backend/exact_upstream.h"

#include <unistd.h>

#include <string>

#include "fakes/testing/loopback_socket.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/base/openssl.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::backend {
namespace {

// Everything one GET over TLS to 127.0.0.1:`port` reads, verified for `name` against `ca_pem`;
// empty when the handshake fails.
std::string Fetch(int port, const std::string& ca_pem, const std::string& name) {
  base::SslCtxPtr ctx(SSL_CTX_new(TLS_client_method()));
  base::X509Ptr ca = base::ReadPemCert(ca_pem);
  if (ctx == nullptr || ca == nullptr) return "";
  X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx.get()), ca.get());
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  const int fd = fakes::test_support::DialLoopback(port, /*recv_timeout_seconds=*/5);
  if (fd < 0) return "";
  base::SslPtr ssl(SSL_new(ctx.get()));
  SSL_set_fd(ssl.get(), fd);
  SSL_set_tlsext_host_name(ssl.get(), name.c_str());
  SSL_set1_host(ssl.get(), name.c_str());
  std::string received;
  if (SSL_connect(ssl.get()) == 1) {
    const std::string request = "GET /api/retail/prices HTTP/1.1\r\nHost: " + name + "\r\n\r\n";
    SSL_write(ssl.get(), request.data(), static_cast<int>(request.size()));
    char buf[4096];
    int n;
    while ((n = SSL_read(ssl.get(), buf, sizeof buf)) > 0) received.append(buf, n);
  }
  ssl.reset();
  close(fd);
  return received;
}

TEST(ExactUpstreamTest, AnswersEveryRequestWithItsResponseBytes) {
  const StatusOr<std::unique_ptr<ExactUpstream>> up = ExactUpstream::Start();
  ASSERT_THAT(up.status(), IsOk());
  EXPECT_THAT((*up)->response(), ::testing::StartsWith("HTTP/1.1 200 OK\r\n"));
  EXPECT_EQ(Fetch((*up)->port(), (*up)->ca_pem(), "prices.azure.com"), (*up)->response());
  EXPECT_EQ(Fetch((*up)->port(), (*up)->ca_pem(), "prices.azure.com"), (*up)->response());
  EXPECT_EQ((*up)->requests(), 2);
}

TEST(ExactUpstreamTest, VerifiesForPricesAzureComOnlyAndEachStartDiffers) {
  const StatusOr<std::unique_ptr<ExactUpstream>> a = ExactUpstream::Start();
  const StatusOr<std::unique_ptr<ExactUpstream>> b = ExactUpstream::Start();
  ASSERT_THAT(a.status(), IsOk());
  ASSERT_THAT(b.status(), IsOk());
  EXPECT_EQ(Fetch((*a)->port(), (*a)->ca_pem(), "management.azure.com"), "");
  EXPECT_EQ(Fetch((*a)->port(), (*b)->ca_pem(), "prices.azure.com"), "");
  EXPECT_EQ((*a)->requests(), 0);
  EXPECT_NE((*a)->response(), (*b)->response());
}

}  // namespace
}  // namespace azure_pricing::conformance::backend
