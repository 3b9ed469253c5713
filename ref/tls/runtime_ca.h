// A certificate authority made at run time. The egress proxy (a real component) mints its per-run
// interception leaves from one; the fake price API serves a leaf for prices.azure.com (and
// 127.0.0.1) signed by another. Keys are EC P-256; everything is PEM text, so a sandbox can be
// handed the CA as SSL_CERT_FILE. Nothing here disables verification anywhere.
//
//   tls::KeyAndCert ca = *tls::MakeCa("azure-pricing-conformance egress CA");
//   tls::KeyAndCert leaf = *tls::IssueLeaf(ca, {"prices.azure.com"}, {"127.0.0.1"});
#ifndef REF_TLS_RUNTIME_CA_H_
#define REF_TLS_RUNTIME_CA_H_

#include <optional>
#include <string>
#include <vector>

namespace azure_pricing::tls {

struct KeyAndCert {
  std::string key_pem;
  std::string cert_pem;
};

// Valid from one hour ago for `days` days.
std::optional<KeyAndCert> MakeCa(const std::string& common_name, int days = 2);
std::optional<KeyAndCert> IssueLeaf(const KeyAndCert& ca, const std::vector<std::string>& dns_names,
                                    const std::vector<std::string>& ip_addresses, int days = 2);

}  // namespace azure_pricing::tls

#endif  // REF_TLS_RUNTIME_CA_H_
