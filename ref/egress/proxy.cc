#include "ref/egress/proxy.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <iostream>

#include "ref/egress/policy.h"
#include "ref/tls/test_ca.h"

namespace azure_pricing::egress {
namespace {

std::string StatusText(int status) {
  switch (status) {
    case 400:
      return "Bad Request";
    case 403:
      return "Forbidden";
    case 405:
      return "Method Not Allowed";
    case 421:
      return "Misdirected Request";
    case 431:
      return "Request Header Fields Too Large";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Error";
  }
}

std::string Refusal(int status) {
  return "HTTP/1.1 " + std::to_string(status) + " " + StatusText(status) +
         "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
}

// Closing a socket with unread input makes the kernel send a reset, which can destroy a refusal
// the client has not read yet (a client still sending an oversized head). So: send FIN first,
// then read and discard what is still coming, briefly and boundedly, and only then close.
void LingerAndClose(int fd) {
  shutdown(fd, SHUT_WR);
  timeval tv{0, 200 * 1000};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  char buf[16384];
  size_t drained = 0;
  while (drained < (1u << 20)) {
    const ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    drained += static_cast<size_t>(n);
  }
  close(fd);
}

bool WriteAll(int fd, const std::string& data) {
  size_t off = 0;
  while (off < data.size()) {
    const ssize_t n = send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

bool SslWriteAll(SSL* ssl, const std::string& data) {
  size_t off = 0;
  while (off < data.size()) {
    const int n = SSL_write(ssl, data.data() + off, static_cast<int>(data.size() - off));
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

// Reads until a blank line, at most kMaxHeadBytes (+1 so an oversized head is seen as such).
template <typename ReadFn>
std::string ReadHead(ReadFn read) {
  std::string buf;
  char chunk[1024];
  while (buf.find("\r\n\r\n") == std::string::npos && buf.size() <= kMaxHeadBytes) {
    const int n = read(chunk, sizeof chunk);
    if (n <= 0) break;
    buf.append(chunk, static_cast<size_t>(n));
  }
  return buf;
}

int ServerNameCallback(SSL* ssl, int*, void* arg) {
  const char* name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
  *static_cast<std::string*>(SSL_get_app_data(ssl)) = name != nullptr ? name : "";
  (void)arg;
  return SSL_TLSEXT_ERR_OK;
}

int Connect(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res) != 0) return -1;
  int fd = -1;
  for (addrinfo* a = res; a != nullptr; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (fd < 0) continue;
    if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) break;
    close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  return fd;
}

}  // namespace

struct EgressProxy::Tls {
  SSL_CTX* server = nullptr;
  SSL_CTX* client = nullptr;
  ~Tls() {
    SSL_CTX_free(server);
    SSL_CTX_free(client);
  }
};

EgressProxy::EgressProxy(ProxyOptions options) : options_(std::move(options)) {}

EgressProxy::~EgressProxy() { Stop(); }

void EgressProxy::Log(const std::string& line) {
  if (options_.log) {
    options_.log(line);
  } else {
    std::cerr << line << "\n";
  }
}

bool EgressProxy::Start() {
  // OpenSSL writes to sockets without MSG_NOSIGNAL; a client that hangs up mid-handshake must
  // not kill the process hosting the proxy.
  signal(SIGPIPE, SIG_IGN);
  auto ca = tls::MakeCa("azure-pricing-conformance egress CA");
  if (!ca) return false;
  auto leaf = tls::IssueLeaf(*ca, {options_.allowed_host}, {});
  if (!leaf) return false;
  ca_pem_ = ca->cert_pem;
  tls_ = std::make_unique<Tls>();
  tls_->server = SSL_CTX_new(TLS_server_method());
  SSL_CTX_set_min_proto_version(tls_->server, TLS1_2_VERSION);
  BIO* kb = BIO_new_mem_buf(leaf->key_pem.data(), static_cast<int>(leaf->key_pem.size()));
  BIO* cb = BIO_new_mem_buf(leaf->cert_pem.data(), static_cast<int>(leaf->cert_pem.size()));
  EVP_PKEY* key = PEM_read_bio_PrivateKey(kb, nullptr, nullptr, nullptr);
  X509* cert = PEM_read_bio_X509(cb, nullptr, nullptr, nullptr);
  BIO_free(kb);
  BIO_free(cb);
  const bool ok = SSL_CTX_use_certificate(tls_->server, cert) == 1 &&
                  SSL_CTX_use_PrivateKey(tls_->server, key) == 1;
  X509_free(cert);
  EVP_PKEY_free(key);
  if (!ok) return false;
  SSL_CTX_set_tlsext_servername_callback(tls_->server, ServerNameCallback);

  tls_->client = SSL_CTX_new(TLS_client_method());
  SSL_CTX_set_min_proto_version(tls_->client, TLS1_2_VERSION);
  SSL_CTX_set_verify(tls_->client, SSL_VERIFY_PEER, nullptr);
  const bool trust = options_.upstream_ca_file.empty()
                         ? SSL_CTX_set_default_verify_paths(tls_->client) == 1
                         : SSL_CTX_load_verify_locations(
                               tls_->client, options_.upstream_ca_file.c_str(), nullptr) == 1;
  if (!trust) return false;

  listen_fd_ = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(options_.listen_port));
  if (inet_pton(AF_INET, options_.listen_host.c_str(), &addr.sin_addr) != 1 ||
      bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      listen(listen_fd_, 64) != 0) {
    close(listen_fd_);
    listen_fd_ = -1;
    return false;
  }
  socklen_t len = sizeof addr;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  acceptor_ = std::thread([this] { AcceptLoop(); });
  return true;
}

void EgressProxy::Stop() {
  if (stopping_.exchange(true)) return;
  if (listen_fd_ >= 0) {
    shutdown(listen_fd_, SHUT_RDWR);
    close(listen_fd_);
  }
  if (acceptor_.joinable()) acceptor_.join();
  std::vector<std::thread> workers;
  {
    std::lock_guard<std::mutex> lock(mu_);
    workers.swap(workers_);
  }
  for (std::thread& t : workers) t.join();
}

void EgressProxy::AcceptLoop() {
  while (!stopping_) {
    const int fd = accept(listen_fd_, nullptr, nullptr);
    if (fd < 0) {
      if (stopping_) return;
      continue;
    }
    if (tunnels_.fetch_add(1) >= options_.max_tunnels) {
      tunnels_.fetch_sub(1);
      Log("decision=too_many_tunnels status=503");
      WriteAll(fd, Refusal(503));
      LingerAndClose(fd);
      continue;
    }
    std::lock_guard<std::mutex> lock(mu_);
    workers_.emplace_back([this, fd] {
      Serve(fd);
      LingerAndClose(fd);
      tunnels_.fetch_sub(1);
    });
  }
}

void EgressProxy::Serve(int fd) {
  timeval tv{options_.idle_timeout_ms / 1000, (options_.idle_timeout_ms % 1000) * 1000};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);

  // 1. The CONNECT request, in the clear.
  const std::string head = ReadHead(
      [fd](char* b, int n) { return static_cast<int>(recv(fd, b, static_cast<size_t>(n), 0)); });
  const size_t line_end = head.find("\r\n");
  const std::string line = head.substr(0, line_end);
  if (head.find("\r\n\r\n") == std::string::npos) {
    Log(std::string("decision=") +
        (head.size() > kMaxHeadBytes ? "head_too_large" : "client_timeout_or_closed") +
        " stage=connect");
    if (head.size() > kMaxHeadBytes) WriteAll(fd, Refusal(431));
    return;
  }
  const size_t sp1 = line.find(' ');
  const size_t sp2 = line.find(' ', sp1 == std::string::npos ? 0 : sp1 + 1);
  const std::string method = line.substr(0, sp1);
  if (method != "CONNECT" || sp2 == std::string::npos || line.substr(sp2 + 1) != "HTTP/1.1") {
    Log("decision=not_connect status=405");
    WriteAll(fd, Refusal(405));
    return;
  }
  const std::string authority = line.substr(sp1 + 1, sp2 - sp1 - 1);
  const Decision connect = DecideConnect(authority, options_.allowed_host);
  if (!connect.allowed) {
    Log("decision=" + connect.reason + " stage=connect status=" + std::to_string(connect.status));
    WriteAll(fd, Refusal(connect.status));
    return;
  }
  if (head.size() > head.find("\r\n\r\n") + 4) {
    // Bytes after the CONNECT head before our 200: a client that does not wait is refused.
    Log("decision=early_data stage=connect status=400");
    WriteAll(fd, Refusal(400));
    return;
  }
  if (!WriteAll(fd, "HTTP/1.1 200 Connection Established\r\n\r\n")) return;

  // 2. TLS with our leaf; the SNI is recorded by the callback.
  std::string sni;
  SSL* ssl = SSL_new(tls_->server);
  SSL_set_app_data(ssl, &sni);
  SSL_set_fd(ssl, fd);
  if (SSL_accept(ssl) != 1) {
    Log("decision=tls_handshake_failed stage=tls");
    SSL_free(ssl);
    return;
  }
  const std::string request = ReadHead([ssl](char* b, int n) { return SSL_read(ssl, b, n); });
  ParsedHead parsed = ParseRequestHead(request);
  Decision d =
      parsed.head ? DecideRequest(*parsed.head, sni, options_.allowed_host) : parsed.refusal;
  if (d.allowed && request.size() > parsed.consumed) d = {false, 400, "request_body"};
  if (!d.allowed) {
    Log("decision=" + d.reason + " stage=request status=" + std::to_string(d.status));
    SslWriteAll(ssl, Refusal(d.status));
    SSL_shutdown(ssl);
    SSL_free(ssl);
    return;
  }

  // 3. Upstream, verified for the allowed host, one request, response passed back unchanged.
  const std::string up_host =
      options_.upstream_host.empty() ? options_.allowed_host : options_.upstream_host;
  const int up = Connect(up_host, options_.upstream_port);
  SSL* up_ssl = up >= 0 ? SSL_new(tls_->client) : nullptr;
  bool up_ok = false;
  if (up_ssl != nullptr) {
    setsockopt(up, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    SSL_set_fd(up_ssl, up);
    SSL_set_tlsext_host_name(up_ssl, options_.allowed_host.c_str());
    SSL_set1_host(up_ssl, options_.allowed_host.c_str());
    up_ok = SSL_connect(up_ssl) == 1;
  }
  if (!up_ok) {
    Log(std::string("decision=") + (up < 0 ? "upstream_unreachable" : "upstream_tls_failed") +
        " stage=upstream status=502");
    SslWriteAll(ssl, Refusal(502));
    if (up_ssl != nullptr) SSL_free(up_ssl);
    if (up >= 0) close(up);
    SSL_shutdown(ssl);
    SSL_free(ssl);
    return;
  }
  const RequestHead& h = *parsed.head;
  std::string target = h.target;
  if (target.front() != '/') {
    const size_t slash = target.find('/', std::strlen("https://"));
    target = slash == std::string::npos ? "/" : target.substr(slash);
  }
  std::string out = "GET " + target + " HTTP/1.1\r\n";
  for (const auto& [name, value] : h.headers) {
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "connection" || lower == "proxy-connection" || lower == "keep-alive" ||
        lower == "proxy-authorization") {
      continue;
    }
    out += name + ": " + value + "\r\n";
  }
  out += "Connection: close\r\n\r\n";
  int status = 0;
  if (SslWriteAll(up_ssl, out)) {
    char buf[16384];
    bool first = true;
    for (;;) {
      const int n = SSL_read(up_ssl, buf, sizeof buf);
      if (n <= 0) break;
      if (first && n > 12) status = std::atoi(std::string(buf + 9, 3).c_str());
      first = false;
      if (!SslWriteAll(ssl, std::string(buf, static_cast<size_t>(n)))) break;
    }
  }
  Log("decision=request_forwarded stage=request status=" + std::to_string(status));
  SSL_shutdown(up_ssl);
  SSL_free(up_ssl);
  close(up);
  SSL_shutdown(ssl);
  SSL_free(ssl);
}

}  // namespace azure_pricing::fakes::egress
