// The egress proxy's added latency: the same HTTPS GET to an in-process fake upstream, made
// directly and through the proxy (CONNECT, interception, verified upstream TLS), alternating in
// one run; prints medians and the ratio. A new connection per request on both paths, as the
// CLI's one-request tunnels make it.
#include <httplib.h>
#include <openssl/ssl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "fakes/testing/loopback_socket.h"
#include "ref/base/files.h"
#include "ref/base/openssl.h"
#include "ref/egress/proxy.h"
#include "ref/tls/runtime_ca.h"

namespace {

using azure_pricing::fakes::test_support::DialLoopback;
using azure_pricing::fakes::test_support::ReadHead;
namespace base = azure_pricing::base;

// One GET over a fresh connection; through the proxy when proxy_port > 0. Returns bytes read.
size_t Get(int port, int proxy_port, const std::string& ca_pem) {
  const int fd = DialLoopback(proxy_port > 0 ? proxy_port : port);
  if (fd < 0) return 0;
  if (proxy_port > 0) {
    const std::string req = "CONNECT prices.azure.com:443 HTTP/1.1\r\n\r\n";
    send(fd, req.data(), req.size(), MSG_NOSIGNAL);
    ReadHead(fd);
  }
  const base::SslCtxPtr ctx(SSL_CTX_new(TLS_client_method()));
  const base::X509Ptr ca = base::ReadPemCert(ca_pem);
  X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx.get()), ca.get());
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  const base::SslPtr ssl(SSL_new(ctx.get()));
  SSL_set_fd(ssl.get(), fd);
  SSL_set_tlsext_host_name(ssl.get(), "prices.azure.com");
  SSL_set1_host(ssl.get(), "prices.azure.com");
  size_t total = 0;
  if (SSL_connect(ssl.get()) == 1) {
    const std::string get =
        "GET /api/retail/prices HTTP/1.1\r\nHost: prices.azure.com\r\nConnection: close\r\n\r\n";
    SSL_write(ssl.get(), get.data(), static_cast<int>(get.size()));
    char buf[16384];
    int n;
    while ((n = SSL_read(ssl.get(), buf, sizeof buf)) > 0) total += static_cast<size_t>(n);
  }
  close(fd);
  return total;
}

// The one optional argument, the number of requests: digits only, 1 to 1,000,000.
std::optional<int> ParseRequests(int argc, char** argv) {
  if (argc > 2) return std::nullopt;
  if (argc < 2) return 300;
  const std::string text = argv[1];
  if (text.empty() || text.size() > 7 || text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  const int n = std::stoi(text);
  if (n < 1 || n > 1'000'000) return std::nullopt;
  return n;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<int> parsed_requests = ParseRequests(argc, argv);
  if (!parsed_requests) {
    std::fprintf(stderr, "usage: proxy_latency [REQUESTS]   (1 to 1000000, default 300)\n");
    return 64;
  }
  const int requests = *parsed_requests;
  auto ca = azure_pricing::tls::MakeCa("bench upstream CA");
  auto leaf = ca ? azure_pricing::tls::IssueLeaf(*ca, {"prices.azure.com"}, {"127.0.0.1"})
                 : std::nullopt;
  if (!leaf) return 1;
  char dir[] = "/tmp/proxy-bench-XXXXXX";
  if (mkdtemp(dir) == nullptr) return 1;
  const std::string cert = std::string(dir) + "/cert.pem", key = std::string(dir) + "/key.pem",
                    ca_file = std::string(dir) + "/ca.pem";
  if (!base::WriteFileAtomically(cert, leaf->cert_pem).ok() ||
      !base::WriteFileAtomically(key, leaf->key_pem).ok() ||
      !base::WriteFileAtomically(ca_file, ca->cert_pem).ok()) {
    std::fprintf(stderr, "proxy_latency: cannot write the test certificates to %s\n", dir);
    return 1;
  }
  httplib::SSLServer upstream(cert.c_str(), key.c_str());
  const std::string body(20000, 'x');  // about a 20-row page
  upstream.Get("/api/retail/prices", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(body, "application/json");
  });
  const int up_port = upstream.bind_to_any_port("127.0.0.1");
  std::thread server([&] { upstream.listen_after_bind(); });

  azure_pricing::egress::ProxyOptions options;
  options.upstream_host = "127.0.0.1";
  options.upstream_port = up_port;
  options.upstream_ca_file = ca_file;
  options.log = [](const std::string&) {};
  azure_pricing::egress::EgressProxy proxy(options);
  if (!proxy.Start()) return 1;

  std::vector<double> direct, proxied;
  for (int i = 0; i < requests; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    const size_t a = Get(up_port, 0, ca->cert_pem);
    auto t1 = std::chrono::steady_clock::now();
    const size_t b = Get(up_port, proxy.port(), proxy.egress_ca_pem());
    auto t2 = std::chrono::steady_clock::now();
    if (a < body.size() || b < body.size()) {
      std::fprintf(stderr, "request %d failed (%zu, %zu bytes)\n", i, a, b);
      return 1;
    }
    direct.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    proxied.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
  }
  const double d = Median(direct), p = Median(proxied);
  std::printf("%d requests each, new connection per request, 20 KB body\n", requests);
  std::printf("direct TLS:        median %.2f ms\n", d);
  std::printf("through the proxy: median %.2f ms (+%.2f ms, %.2fx the direct request)\n", p, p - d,
              p / d);
  upstream.stop();
  server.join();
  return 0;
}
