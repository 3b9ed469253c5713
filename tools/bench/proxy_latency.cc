// The egress proxy's added latency: the same HTTPS GET to an in-process fake upstream, made
// directly and through the proxy (CONNECT, interception, verified upstream TLS), alternating in
// one run; prints medians and the ratio. A new connection per request on both paths, as the
// CLI's one-request tunnels make it.
#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "ref/egress/proxy.h"
#include "ref/tls/test_ca.h"

namespace {

int Dial(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return -1;
  return fd;
}

X509* ReadCert(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  return cert;
}

// One GET over a fresh connection; through the proxy when proxy_port > 0. Returns bytes read.
size_t Get(int port, int proxy_port, const std::string& ca_pem) {
  const int fd = Dial(proxy_port > 0 ? proxy_port : port);
  if (fd < 0) return 0;
  if (proxy_port > 0) {
    const std::string req = "CONNECT prices.azure.com:443 HTTP/1.1\r\n\r\n";
    send(fd, req.data(), req.size(), MSG_NOSIGNAL);
    std::string reply;
    char c;
    while (reply.find("\r\n\r\n") == std::string::npos && recv(fd, &c, 1, 0) == 1)
      reply.push_back(c);
  }
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  X509* ca = ReadCert(ca_pem);
  X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx), ca);
  X509_free(ca);
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  SSL* ssl = SSL_new(ctx);
  SSL_set_fd(ssl, fd);
  SSL_set_tlsext_host_name(ssl, "prices.azure.com");
  SSL_set1_host(ssl, "prices.azure.com");
  size_t total = 0;
  if (SSL_connect(ssl) == 1) {
    const std::string get =
        "GET /api/retail/prices HTTP/1.1\r\nHost: prices.azure.com\r\nConnection: close\r\n\r\n";
    SSL_write(ssl, get.data(), static_cast<int>(get.size()));
    char buf[16384];
    int n;
    while ((n = SSL_read(ssl, buf, sizeof buf)) > 0) total += static_cast<size_t>(n);
  }
  SSL_free(ssl);
  SSL_CTX_free(ctx);
  close(fd);
  return total;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int requests = argc > 1 ? std::atoi(argv[1]) : 300;
  auto ca = azure_pricing::tls::MakeCa("bench upstream CA");
  auto leaf = azure_pricing::tls::IssueLeaf(*ca, {"prices.azure.com"}, {"127.0.0.1"});
  char dir[] = "/tmp/proxy-bench-XXXXXX";
  if (mkdtemp(dir) == nullptr) return 1;
  const std::string cert = std::string(dir) + "/cert.pem", key = std::string(dir) + "/key.pem",
                    ca_file = std::string(dir) + "/ca.pem";
  std::ofstream(cert) << leaf->cert_pem;
  std::ofstream(key) << leaf->key_pem;
  std::ofstream(ca_file) << ca->cert_pem;
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
