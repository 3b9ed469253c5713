#include "conformance/backend/exact_upstream.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <optional>
#include <thread>
#include <utility>

#include "ref/base/openssl.h"
#include "ref/tls/runtime_ca.h"

namespace azure_pricing::conformance::backend {

struct ExactUpstream::Server {
  base::SslCtxPtr ctx;
  int listen_fd = -1;
  std::string response;
  std::thread thread;
  std::atomic<bool> stop{false};
  std::atomic<int> requests{0};
};

namespace {

constexpr int kPollMs = 100;          // how often the accept loop looks at `stop`
constexpr int kConnectionSeconds = 5;  // a peer that stalls holds the loop no longer than this
constexpr size_t kMaxHeadBytes = 64 * 1024;

Status Failed() {
  return ProgramError(kExactUpstreamFailed,
                      "The backend suite's exact upstream could not be started.");
}

// Unusual but valid on purpose, so egress.response_unchanged meets each thing HTTP lets a proxy
// rewrite and each it does not (PROTOCOL.md, "Decisions"): field names in lower and mixed case
// (a proxy may write them in its own case), a Connection naming a field of its own
// (x-upstream-hop: both are hop-by-hop, a proxy rebuilds or drops them), no Date (a proxy may add
// one), an end-to-end field a cache might rewrite (cache-control), an ETag and a body with a
// nonce, framed by Content-Length. A proxy that adds a field (Via), changes a value or the body
// is caught by these bytes.
std::string MakeResponse() {
  unsigned char random[8];
  RAND_bytes(random, sizeof random);
  std::string nonce;
  for (unsigned char c : random) {
    nonce += "0123456789abcdef"[c >> 4];
    nonce += "0123456789abcdef"[c & 15];
  }
  const std::string body = R"({"BillingCurrency":"USD","CustomerEntityId":"Default",)"
                           R"("Items":[],"NextPageLink":null,"Count":0,"Nonce":")" + nonce + "\"}";
  return "HTTP/1.1 200 OK\r\n"
         "content-type: application/json; charset=utf-8\r\n"
         "cache-control: no-store, max-age=0\r\n"
         "ETag: \"" + nonce + "\"\r\n"
         "x-ms-ratelimit-remaining-tenant-reads: 11999\r\n"
         "content-length: " + std::to_string(body.size()) + "\r\n"
         "connection: close, x-upstream-hop\r\n"
         "x-upstream-hop: 1\r\n"
         "\r\n" + body;
}

// One connection: the handshake, one request head read whole, the response, close.
void ServeOne(ExactUpstream::Server& s, int fd) {
  const timeval timeout{kConnectionSeconds, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  base::SslPtr ssl(SSL_new(s.ctx.get()));
  SSL_set_fd(ssl.get(), fd);
  if (SSL_accept(ssl.get()) == 1) {
    std::string head;
    char buf[4096];
    while (head.find("\r\n\r\n") == std::string::npos && head.size() < kMaxHeadBytes) {
      const int n = SSL_read(ssl.get(), buf, sizeof buf);
      if (n <= 0) break;
      head.append(buf, static_cast<size_t>(n));
    }
    if (head.find("\r\n\r\n") != std::string::npos) {
      ++s.requests;
      SSL_write(ssl.get(), s.response.data(), static_cast<int>(s.response.size()));
      SSL_shutdown(ssl.get());
    }
  }
  ssl.reset();
  close(fd);
}

void AcceptLoop(ExactUpstream::Server& s) {
  while (!s.stop.load()) {
    pollfd p{s.listen_fd, POLLIN, 0};
    if (poll(&p, 1, kPollMs) != 1) continue;
    const int fd = accept4(s.listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd >= 0) ServeOne(s, fd);
  }
}

// A listening socket on 127.0.0.1, any port; -1 when it cannot be made.
int ListenLoopback(int& port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      listen(fd, 16) != 0 || getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    if (fd >= 0) close(fd);
    return -1;
  }
  port = ntohs(addr.sin_port);
  return fd;
}

}  // namespace

StatusOr<std::unique_ptr<ExactUpstream>> ExactUpstream::Start() {
  // OpenSSL writes with write(2): a proxy that hangs up before the response must not kill the
  // suite. Process-wide, as every httplib server the suite runs already makes it.
  signal(SIGPIPE, SIG_IGN);
  const std::optional<tls::KeyAndCert> ca = tls::MakeCa("backend-suite exact upstream CA");
  // A name only, no IP address: the proxy dials 127.0.0.1 but verifies prices.azure.com.
  const std::optional<tls::KeyAndCert> leaf =
      ca ? tls::IssueLeaf(*ca, {"prices.azure.com"}, {}) : std::nullopt;
  if (!leaf) return Failed();
  auto server = std::make_unique<Server>();
  server->ctx.reset(SSL_CTX_new(TLS_server_method()));
  const base::EvpPkeyPtr key = base::ReadPemKey(leaf->key_pem);
  const base::X509Ptr cert = base::ReadPemCert(leaf->cert_pem);
  if (server->ctx == nullptr || key == nullptr || cert == nullptr ||
      SSL_CTX_use_certificate(server->ctx.get(), cert.get()) != 1 ||
      SSL_CTX_use_PrivateKey(server->ctx.get(), key.get()) != 1) {
    return Failed();
  }
  std::unique_ptr<ExactUpstream> out(new ExactUpstream());
  server->listen_fd = ListenLoopback(out->port_);
  if (server->listen_fd < 0) return Failed();
  server->response = MakeResponse();
  out->response_ = server->response;
  out->ca_pem_ = ca->cert_pem;
  Server* s = server.get();
  server->thread = std::thread([s] { AcceptLoop(*s); });
  out->server_ = std::move(server);
  return out;
}

ExactUpstream::~ExactUpstream() {
  server_->stop = true;
  server_->thread.join();
  close(server_->listen_fd);
}

int ExactUpstream::requests() const { return server_->requests.load(); }

}  // namespace azure_pricing::conformance::backend
