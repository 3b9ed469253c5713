#include "ref/tls/runtime_ca.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>

#include "ref/base/openssl.h"

namespace azure_pricing::tls {
namespace {

using Key = base::EvpPkeyPtr;
using Cert = base::X509Ptr;
using Bio = base::BioPtr;

Key NewKey() { return Key(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256")); }

std::string ToPem(EVP_PKEY* key) {
  Bio bio(BIO_new(BIO_s_mem()));
  PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr);
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<size_t>(n));
}

std::string ToPem(X509* cert) {
  Bio bio(BIO_new(BIO_s_mem()));
  PEM_write_bio_X509(bio.get(), cert);
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<size_t>(n));
}

bool AddExtension(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  const base::X509ExtensionPtr ext(X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str()));
  return ext != nullptr && X509_add_ext(cert, ext.get(), -1) == 1;
}

Cert NewCert(EVP_PKEY* key, const std::string& cn, int days) {
  Cert cert(X509_new());
  X509_set_version(cert.get(), 2);
  unsigned char serial[16];
  RAND_bytes(serial, sizeof serial);
  serial[0] &= 0x7f;
  const base::BignumPtr bn(BN_bin2bn(serial, sizeof serial, nullptr));
  BN_to_ASN1_INTEGER(bn.get(), X509_get_serialNumber(cert.get()));
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), static_cast<long>(days) * 86400);
  X509_set_pubkey(cert.get(), key);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0);
  return cert;
}

}  // namespace

std::optional<KeyAndCert> MakeCa(const std::string& common_name, int days) {
  Key key = NewKey();
  if (!key) return std::nullopt;
  Cert cert = NewCert(key.get(), common_name, days);
  X509_set_issuer_name(cert.get(), X509_get_subject_name(cert.get()));
  if (!AddExtension(cert.get(), cert.get(), NID_basic_constraints, "critical,CA:TRUE,pathlen:0") ||
      !AddExtension(cert.get(), cert.get(), NID_key_usage, "critical,keyCertSign,cRLSign") ||
      !AddExtension(cert.get(), cert.get(), NID_subject_key_identifier, "hash")) {
    return std::nullopt;
  }
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) return std::nullopt;
  return KeyAndCert{ToPem(key.get()), ToPem(cert.get())};
}

std::optional<KeyAndCert> IssueLeaf(const KeyAndCert& ca, const std::vector<std::string>& dns_names,
                                    const std::vector<std::string>& ip_addresses, int days) {
  Key ca_key = base::ReadPemKey(ca.key_pem);
  Cert ca_cert = base::ReadPemCert(ca.cert_pem);
  Key key = NewKey();
  if (!ca_key || !ca_cert || !key || (dns_names.empty() && ip_addresses.empty())) {
    return std::nullopt;
  }
  Cert cert = NewCert(key.get(), dns_names.empty() ? ip_addresses[0] : dns_names[0], days);
  X509_set_issuer_name(cert.get(), X509_get_subject_name(ca_cert.get()));
  std::string san;
  for (const std::string& d : dns_names) san += (san.empty() ? "DNS:" : ",DNS:") + d;
  for (const std::string& ip : ip_addresses) san += (san.empty() ? "IP:" : ",IP:") + ip;
  if (!AddExtension(cert.get(), ca_cert.get(), NID_subject_alt_name, san) ||
      !AddExtension(cert.get(), ca_cert.get(), NID_basic_constraints, "critical,CA:FALSE") ||
      !AddExtension(cert.get(), ca_cert.get(), NID_ext_key_usage, "serverAuth") ||
      !AddExtension(cert.get(), ca_cert.get(), NID_authority_key_identifier, "keyid:always")) {
    return std::nullopt;
  }
  if (X509_sign(cert.get(), ca_key.get(), EVP_sha256()) == 0) return std::nullopt;
  return KeyAndCert{ToPem(key.get()), ToPem(cert.get())};
}

}  // namespace azure_pricing::tls
