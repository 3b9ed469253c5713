#include "ref/base/openssl.h"

#include <gtest/gtest.h>
#include <openssl/x509.h>

#include "ref/tls/runtime_ca.h"

namespace azure_pricing::base {
namespace {

TEST(OpenSslTest, ReadsTheCertificateAndKeyOfAPemPair) {
  const std::optional<tls::KeyAndCert> ca = tls::MakeCa("openssl_test CA");
  ASSERT_TRUE(ca.has_value());
  const X509Ptr cert = ReadPemCert(ca->cert_pem);
  const EvpPkeyPtr key = ReadPemKey(ca->key_pem);
  ASSERT_NE(cert, nullptr);
  ASSERT_NE(key, nullptr);
  EXPECT_EQ(X509_check_private_key(cert.get(), key.get()), 1);
}

TEST(OpenSslTest, TextThatIsNotPemGivesNull) {
  EXPECT_EQ(ReadPemCert(""), nullptr);
  EXPECT_EQ(ReadPemCert("-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n"),
            nullptr);
  EXPECT_EQ(ReadPemKey("no key here"), nullptr);
}

TEST(OpenSslTest, OwnersFreeWhatTheyHoldAndAcceptNull) {
  // Under ASan/LSan a missing free is a leak report; here it at least exercises every deleter.
  SslCtxPtr ctx(SSL_CTX_new(TLS_client_method()));
  ASSERT_NE(ctx, nullptr);
  SslPtr ssl(SSL_new(ctx.get()));
  EXPECT_NE(ssl, nullptr);
  BioPtr bio(BIO_new(BIO_s_mem()));
  EXPECT_NE(bio, nullptr);
  BignumPtr bn(BN_new());
  EXPECT_NE(bn, nullptr);
  X509Ptr empty;
  EvpPkeyPtr none;
  EXPECT_EQ(empty, nullptr);
  EXPECT_EQ(none, nullptr);
}

}  // namespace
}  // namespace azure_pricing::base
