#include "ref/tls/runtime_ca.h"

#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include "gtest/gtest.h"

namespace azure_pricing::tls {
namespace {

X509* Read(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  return cert;
}

// Verifies `leaf` for `host` against `ca` only, as a client with SSL_CERT_FILE=ca would.
bool Verifies(const KeyAndCert& ca, const KeyAndCert& leaf, const std::string& host) {
  X509* ca_cert = Read(ca.cert_pem);
  X509* leaf_cert = Read(leaf.cert_pem);
  X509_STORE* store = X509_STORE_new();
  X509_STORE_add_cert(store, ca_cert);
  X509_STORE_CTX* ctx = X509_STORE_CTX_new();
  X509_STORE_CTX_init(ctx, store, leaf_cert, nullptr);
  X509_VERIFY_PARAM* param = X509_STORE_CTX_get0_param(ctx);
  X509_VERIFY_PARAM_set1_host(param, host.c_str(), 0);
  const bool ok = X509_verify_cert(ctx) == 1;
  X509_STORE_CTX_free(ctx);
  X509_STORE_free(store);
  X509_free(leaf_cert);
  X509_free(ca_cert);
  return ok;
}

TEST(TestCaTest, LeafVerifiesForItsNamesOnlyAndOnlyUnderItsCa) {
  auto ca = MakeCa("test CA");
  ASSERT_TRUE(ca.has_value());
  auto leaf = IssueLeaf(*ca, {"prices.azure.com"}, {"127.0.0.1"});
  ASSERT_TRUE(leaf.has_value());
  EXPECT_NE(leaf->key_pem.find("BEGIN PRIVATE KEY"), std::string::npos);
  EXPECT_TRUE(Verifies(*ca, *leaf, "prices.azure.com"));
  EXPECT_FALSE(Verifies(*ca, *leaf, "evil.example"));
  auto other = MakeCa("another CA");
  ASSERT_TRUE(other.has_value());
  EXPECT_FALSE(Verifies(*other, *leaf, "prices.azure.com"));
  // A leaf cannot sign further certificates.
  EXPECT_FALSE(IssueLeaf(KeyAndCert{"", ""}, {"x"}, {}).has_value());
}

}  // namespace
}  // namespace azure_pricing::tls
