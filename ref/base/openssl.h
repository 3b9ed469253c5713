// Ownership of OpenSSL objects: one std::unique_ptr alias per type, so no caller frees by hand
// and every early return releases what was made. Non-semantic: TLS plumbing shared by the
// egress proxy, the run-time CA, the fakes and the benchmarks.
//
//   base::SslCtxPtr ctx(SSL_CTX_new(TLS_client_method()));
//   base::X509Ptr ca = base::ReadPemCert(pem);  // null when the PEM does not parse
#ifndef REF_BASE_OPENSSL_H_
#define REF_BASE_OPENSSL_H_

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>
#include <string_view>

namespace azure_pricing::base {

struct OpenSslFree {
  void operator()(SSL_CTX* p) const { SSL_CTX_free(p); }
  void operator()(SSL* p) const { SSL_free(p); }
  void operator()(X509* p) const { X509_free(p); }
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
  void operator()(BIO* p) const { BIO_free(p); }
  void operator()(BIGNUM* p) const { BN_free(p); }
  void operator()(X509_EXTENSION* p) const { X509_EXTENSION_free(p); }
};

using SslCtxPtr = std::unique_ptr<SSL_CTX, OpenSslFree>;
using SslPtr = std::unique_ptr<SSL, OpenSslFree>;
using X509Ptr = std::unique_ptr<X509, OpenSslFree>;
using EvpPkeyPtr = std::unique_ptr<EVP_PKEY, OpenSslFree>;
using BioPtr = std::unique_ptr<BIO, OpenSslFree>;
using BignumPtr = std::unique_ptr<BIGNUM, OpenSslFree>;
using X509ExtensionPtr = std::unique_ptr<X509_EXTENSION, OpenSslFree>;

// The first certificate / private key in PEM text; null when there is none or it does not parse.
X509Ptr ReadPemCert(std::string_view pem);
EvpPkeyPtr ReadPemKey(std::string_view pem);

}  // namespace azure_pricing::base

#endif  // REF_BASE_OPENSSL_H_
