#include "ref/egress/proxy.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <iostream>
#include <sstream>

#include "ref/base/openssl.h"
#include "ref/egress/policy.h"
#include "ref/egress/reasons.h"
#include "ref/status/status_macros.h"
#include "ref/tls/runtime_ca.h"

namespace azure_pricing::egress {
namespace {

std::string StatusText(int status) {
  switch (status) {
    case 200:
      return "OK";
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

// Each stage ends with a small write the peer waits for (the 200, a handshake flight, the
// request); Nagle's algorithm would hold it back for an ACK. Harmless on a Unix socket, where
// the option does not apply.
void SetNoDelay(int fd) {
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
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

// Reads until a blank line, at most kMaxHeadBytes (+1 so an oversized head is seen as such),
// after what `buf` already holds.
template <typename ReadFn>
std::string ReadHead(ReadFn read, std::string buf = {}) {
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

// One address, connected within `timeout_ms`: a peer that never answers the handshake must not
// hold a worker (and Stop, which joins it) for the kernel's two minutes.
int ConnectWithin(const addrinfo& a, int timeout_ms) {
  const int fd = socket(a.ai_family, a.ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a.ai_protocol);
  if (fd < 0) return -1;
  if (connect(fd, a.ai_addr, a.ai_addrlen) != 0) {
    pollfd p{fd, POLLOUT, 0};
    int error = 0;
    socklen_t len = sizeof error;
    if (errno != EINPROGRESS || poll(&p, 1, timeout_ms) != 1 ||
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0 || error != 0) {
      close(fd);
      return -1;
    }
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

int Connect(const std::string& host, int port, int timeout_ms) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res) != 0) return -1;
  int fd = -1;
  for (addrinfo* a = res; a != nullptr && fd < 0; a = a->ai_next)
    fd = ConnectWithin(*a, timeout_ms);
  freeaddrinfo(res);
  return fd;
}

// The request as it goes upstream: origin-form target, hop-by-hop and proxy headers dropped,
// one request per connection.
// The request target as sent upstream: an absolute-form target loses its scheme and authority.
std::string OriginForm(std::string target) {
  if (target.empty() || target.front() != '/') {
    const size_t slash = target.find('/', std::strlen("https://"));
    target = slash == std::string::npos ? "/" : target.substr(slash);
  }
  return target;
}

std::string HeaderValue(const RequestHead& h, std::string_view lower_name) {
  for (const auto& [name, value] : h.headers) {
    if (name.size() == lower_name.size() &&
        std::equal(name.begin(), name.end(), lower_name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == b;
        })) {
      return value;
    }
  }
  return "";
}

// A later request's body length; only a weakened proxy forwards bodies, and only this framing.
size_t ContentLength(const RequestHead& h) {
  constexpr size_t kMaxBody = 1 << 20;
  const std::string value = HeaderValue(h, "content-length");
  size_t length = 0;
  for (char c : value) {
    if (c < '0' || c > '9' || length > kMaxBody) return 0;
    length = length * 10 + static_cast<size_t>(c - '0');
  }
  return std::min(length, kMaxBody);
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// Appends what fits under the cap; the rest is forwarded but not kept.
void Keep(ForwardedExchange& seen, const std::string& chunk, size_t cap) {
  const size_t room = seen.response.size() < cap ? cap - seen.response.size() : 0;
  if (chunk.size() > room) seen.response_complete = false;
  seen.response.append(chunk, 0, std::min(room, chunk.size()));
}

// The usual case of a field name: each word's first letter upper-case ("Cache-Control").
std::string UsualCase(std::string name) {
  for (size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    name[i] = static_cast<char>(i == 0 || name[i - 1] == '-' ? std::toupper(c) : std::tolower(c));
  }
  return name;
}

// The fields a Connection value names, lower-cased, with Connection itself and Keep-Alive.
std::vector<std::string> HopByHopNames(const std::string& head) {
  std::vector<std::string> names = {"connection", "keep-alive"};
  const std::string lower = Lower(head);
  for (size_t at = lower.find("\r\nconnection:"); at != std::string::npos;
       at = lower.find("\r\nconnection:", at + 2)) {
    std::string value = lower.substr(at + 13, lower.find("\r\n", at + 2) - at - 13);
    for (char& c : value) c = c == ',' ? ' ' : c;
    std::istringstream tokens(value);
    for (std::string t; tokens >> t;) names.push_back(t);
  }
  return names;
}

// The head of `head` (status line and field lines, through the blank line's first CRLF) as the
// head-rewriting weakenings write it: Cache-Control's value changed, or squid's rewrites.
std::string RewriteFields(const std::string& head, bool change_cache_control, bool like_squid) {
  const std::vector<std::string> hop = HopByHopNames(head);
  size_t at = head.find("\r\n") + 2;
  std::string out = head.substr(0, at);
  bool date = false;
  while (at < head.size()) {
    const size_t eol = head.find("\r\n", at);
    const std::string line = head.substr(at, eol - at);
    at = eol + 2;
    const size_t colon = line.find(':');
    const std::string name = Lower(line.substr(0, colon));
    date = date || name == "date";
    if (change_cache_control && name == "cache-control") {
      out += "Cache-Control: max-age=3600\r\n";
    } else if (!like_squid) {
      out += line + "\r\n";
    } else if (colon == std::string::npos) {
      out += line + "\r\n";
    } else if (std::find(hop.begin(), hop.end(), name) == hop.end()) {
      out += UsualCase(line.substr(0, colon)) + line.substr(colon) + "\r\n";
    }
  }
  if (like_squid && !date) {
    char now[64];
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    std::strftime(now, sizeof now, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    out += "Date: " + std::string(now) + "\r\n";
  }
  if (like_squid) out += "Connection: keep-alive\r\nKeep-Alive: timeout=5\r\n";
  return out;
}

// The first bytes read from the upstream as the response weakenings leave them; unchanged
// without one. A head rewrite needs the whole head in `chunk`, which an upstream that writes its
// response at once (the suite's exact upstream) gives.
struct HeadEdits {
  bool add_via = false, change_cache_control = false, like_squid = false;
};

std::string EditHead(std::string chunk, HeadEdits edits) {
  const size_t status_end = chunk.find("\r\n");
  if (edits.add_via && status_end != std::string::npos) {
    chunk.insert(status_end + 2, "Via: 1.1 egress-proxy\r\n");
  }
  const size_t end = chunk.find("\r\n\r\n");
  if ((!edits.change_cache_control && !edits.like_squid) || end == std::string::npos) return chunk;
  return RewriteFields(chunk.substr(0, end + 2), edits.change_cache_control, edits.like_squid) +
         chunk.substr(end + 2);
}

std::string UpstreamRequest(const RequestHead& h) {
  std::string out = h.method + " " + OriginForm(h.target) + " HTTP/1.1\r\n";
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
  return out;
}

}  // namespace

struct EgressProxy::Tls {
  base::SslCtxPtr server;
  base::SslCtxPtr client;
  tls::KeyAndCert ca;  // signs a leaf for a CONNECT host other than the allowed one (weakened)
  // The newest session of a verified upstream handshake, offered by the next tunnel: a full
  // handshake per tunnel (chain verification, the upstream's signature) was most of what the
  // proxy added to a request. Only the upstream that issued the ticket can accept it, so an
  // impostor still meets a full handshake and the verification that fails it.
  std::mutex mu;
  SSL_SESSION* upstream_session = nullptr;

  ~Tls() { SSL_SESSION_free(upstream_session); }
  void Keep(SSL_SESSION* session) {  // takes the caller's reference
    std::lock_guard<std::mutex> lock(mu);
    SSL_SESSION_free(upstream_session);
    upstream_session = session;
  }
  void Offer(SSL* ssl) {
    std::lock_guard<std::mutex> lock(mu);
    if (upstream_session != nullptr) SSL_set_session(ssl, upstream_session);
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

namespace {

// Options no tunnel could work with, refused before anything is made or bound.
Status CheckOptions(const ProxyOptions& options) {
  if (!NormalizeHost(options.allowed_host) || LooksLikeIpLiteral(options.allowed_host)) {
    return ProgramError( kStartBadOptions, "the allowed host is not a DNS host name");
  }
  if (options.max_tunnels < 1) {
    return ProgramError( kStartBadOptions, "at most 0 tunnels would refuse every one");
  }
  if (options.idle_timeout_ms < 1) {
    return ProgramError( kStartBadOptions, "the idle timeout must be at least 1 ms");
  }
  return OkStatus();
}

// The store that verifies the upstream: the given bundle, or the system's.
Status LoadUpstreamTrust(SSL_CTX* client, const std::string& ca_file) {
  if (ca_file.empty()) {
    if (SSL_CTX_set_default_verify_paths(client) == 1) return OkStatus();
    return ProgramError( kStartUpstreamCa, "the system CA store cannot be loaded");
  }
  if (SSL_CTX_load_verify_locations(client, ca_file.c_str(), nullptr) == 1) return OkStatus();
  return ProgramError( kStartUpstreamCa, "the upstream CA file holds no PEM certificate that loads");
}

}  // namespace

Status EgressProxy::Start() {
  // OpenSSL writes to sockets without MSG_NOSIGNAL; a client that hangs up mid-handshake must
  // not kill the process hosting the proxy.
  signal(SIGPIPE, SIG_IGN);
  RETURN_IF_ERROR(CheckOptions(options_));
  auto ca = tls::MakeCa("azure-pricing-conformance egress CA");
  const std::string leaf_name =
      weakenings_.leaf_misnamed ? std::string("management.azure.com") : options_.allowed_host;
  auto leaf = ca ? tls::IssueLeaf(*ca, {leaf_name}, {}) : std::nullopt;
  const Status no_certificates =
      ProgramError(kStartCertificates, "the egress CA and its leaf cannot be made");
  if (!leaf) return no_certificates;
  ca_pem_ = ca->cert_pem;
  tls_ = std::make_unique<Tls>();
  tls_->ca = *ca;
  tls_->server.reset(SSL_CTX_new(TLS_server_method()));
  SSL_CTX_set_min_proto_version(tls_->server.get(), TLS1_2_VERSION);
  const base::EvpPkeyPtr key = base::ReadPemKey(leaf->key_pem);
  const base::X509Ptr cert = base::ReadPemCert(leaf->cert_pem);
  if (SSL_CTX_use_certificate(tls_->server.get(), cert.get()) != 1 ||
      SSL_CTX_use_PrivateKey(tls_->server.get(), key.get()) != 1) {
    return no_certificates;
  }
  SSL_CTX_set_tlsext_servername_callback(tls_->server.get(), ServerNameCallback);

  tls_->client.reset(SSL_CTX_new(TLS_client_method()));
  SSL_CTX* const client = tls_->client.get();
  SSL_CTX_set_min_proto_version(client, TLS1_2_VERSION);
  SSL_CTX_set_verify(client, weakenings_.unverified_upstream ? SSL_VERIFY_NONE : SSL_VERIFY_PEER,
                     nullptr);
  RETURN_IF_ERROR(LoadUpstreamTrust(client, options_.upstream_ca_file));
  SSL_CTX_set_session_cache_mode(client, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
  SSL_CTX_set_app_data(client, tls_.get());
  SSL_CTX_sess_set_new_cb(client, [](SSL* ssl, SSL_SESSION* session) {
    if (SSL_get_verify_result(ssl) != X509_V_OK) return 0;  // a verified peer's sessions only
    static_cast<Tls*>(SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl)))->Keep(session);
    return 1;
  });
  return Listen();
}

namespace {

// Why bind or listen failed, from errno, as fixed text.
Status ListenFailure(int error) {
  const char* message = "the listening socket cannot be made";
  if (error == EADDRINUSE) message = "the address is already in use";
  if (error == EACCES || error == EPERM) message = "binding the address is not permitted";
  if (error == EADDRNOTAVAIL) message = "the address is not one of this machine's";
  return ProgramError( kStartListen, message);
}

}  // namespace

Status EgressProxy::ListenUnix() {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (options_.listen_unix_path.size() >= sizeof addr.sun_path) {
    return ProgramError( kStartListen, "the Unix socket path is too long");
  }
  std::memcpy(addr.sun_path, options_.listen_unix_path.data(), options_.listen_unix_path.size());
  listen_fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) return ListenFailure(errno);
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      listen(listen_fd_, 64) != 0) {
    const int error = errno;
    close(listen_fd_);
    listen_fd_ = -1;
    return ListenFailure(error);
  }
  acceptor_ = std::thread([this] { AcceptLoop(); });
  return OkStatus();
}

Status EgressProxy::Listen() {
  if (!options_.listen_unix_path.empty()) return ListenUnix();
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(options_.listen_port));
  if (inet_pton(AF_INET, options_.listen_host.c_str(), &addr.sin_addr) != 1) {
    return ProgramError( kStartListen, "the listen host is not an IPv4 address");
  }
  listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) return ListenFailure(errno);
  int one = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      listen(listen_fd_, 64) != 0) {
    const int error = errno;
    close(listen_fd_);
    listen_fd_ = -1;
    return ListenFailure(error);
  }
  socklen_t len = sizeof addr;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  acceptor_ = std::thread([this] { AcceptLoop(); });
  return OkStatus();
}

void EgressProxy::Stop() {
  if (stopping_.exchange(true)) return;
  if (listen_fd_ >= 0) {
    shutdown(listen_fd_, SHUT_RDWR);
    close(listen_fd_);
    if (!options_.listen_unix_path.empty()) unlink(options_.listen_unix_path.c_str());
  }
  if (acceptor_.joinable()) acceptor_.join();
  std::vector<Worker> workers;
  {
    std::lock_guard<std::mutex> lock(mu_);
    workers.swap(workers_);
  }
  for (Worker& w : workers) w.thread.join();
}

// A proxy that lives as long as its backend serves many tunnels: finished workers are joined as
// new ones start, so their threads do not pile up. mu_ is held.
void EgressProxy::JoinFinishedWorkers() {
  for (auto it = workers_.begin(); it != workers_.end();) {
    if (it->done->load()) {
      it->thread.join();
      it = workers_.erase(it);
    } else {
      ++it;
    }
  }
}

void EgressProxy::AcceptLoop() {
  while (!stopping_) {
    const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (stopping_) return;
      continue;
    }
    if (tunnels_.fetch_add(1) >= options_.max_tunnels) {
      tunnels_.fetch_sub(1);
      LogDecision(kTooManyTunnels, "accept", 503);
      WriteAll(fd, Refusal(503));
      LingerAndClose(fd);
      continue;
    }
    std::lock_guard<std::mutex> lock(mu_);
    JoinFinishedWorkers();
    auto done = std::make_shared<std::atomic<bool>>(false);
    workers_.push_back({std::thread([this, fd, done] {
                          Serve(fd);
                          LingerAndClose(fd);
                          tunnels_.fetch_sub(1);
                          done->store(true);
                        }),
                        done});
  }
}

void EgressProxy::LogDecision(std::string_view reason, const char* stage,
                              std::optional<int> status) {
  // Every line has all three fields, so a log reader never guesses; `none`: nothing was sent
  // back (the client went away, or its TLS handshake failed).
  std::string line = "decision=" + std::string(reason) + " stage=" + stage;
  line += " status=" + (status ? std::to_string(*status) : std::string("none"));
  Log(line);
}

// Stage 1: the CONNECT request, in the clear. The normalised CONNECT host once the tunnel is
// open (200 sent).
std::optional<std::string> EgressProxy::OpenTunnel(int fd) {
  const std::string head = ReadHead(
      [fd](char* b, int n) { return static_cast<int>(recv(fd, b, static_cast<size_t>(n), 0)); });
  if (head.find("\r\n\r\n") == std::string::npos) {
    const bool too_large = head.size() > kMaxHeadBytes;
    LogDecision(too_large ? kHeadTooLarge : kClientTimeoutOrClosed, "connect",
                too_large ? std::optional<int>(431) : std::nullopt);
    if (too_large) WriteAll(fd, Refusal(431));
    return std::nullopt;
  }
  const std::optional<std::string> authority = ConnectAuthority(head);
  if (!authority) {
    LogDecision(kNotConnect, "connect", 405);
    WriteAll(fd, Refusal(405));
    return std::nullopt;
  }
  Decision connect = DecideConnect(*authority, options_.allowed_host);
  std::string host = options_.allowed_host;
  if (!connect.allowed && connect.reason == kHostNotAllowed && weakenings_.host_suffix_match) {
    // The slip: "ends with" where "equals" was meant. A refused host is a well-formed name.
    const std::optional<std::string> asked =
        NormalizeHost(authority->substr(0, authority->rfind(':')));
    if (asked && asked->ends_with(options_.allowed_host)) {
      connect = DecideConnect(*authority, *asked);
      host = *asked;
    }
  }
  if (!connect.allowed && connect.reason == kIpLiteral && weakenings_.ip_literal_answer != 0) {
    // squid's ssl-bump: the denied CONNECT is accepted and its answer given inside TLS.
    connect = {true, 0, ""};
    host = authority->substr(0, authority->rfind(':'));
  }
  if (!connect.allowed) {
    LogDecision(connect.reason, "connect", connect.status);
    WriteAll(fd, Refusal(connect.status));
    return std::nullopt;
  }
  if (head.size() > head.find("\r\n\r\n") + 4) {
    // Bytes after the CONNECT head before our 200: a client that does not wait is refused.
    LogDecision(kEarlyData, "connect", 400);
    WriteAll(fd, Refusal(400));
    return std::nullopt;
  }
  if (!WriteAll(fd, "HTTP/1.1 200 Connection Established\r\n\r\n")) return std::nullopt;
  return host;
}

// Stage 2: TLS with our leaf; the callback records the SNI in `sni`. Null when it failed.
base::SslPtr EgressProxy::AcceptTls(int fd, const std::string& host, std::string& sni) {
  base::SslPtr ssl(SSL_new(tls_->server.get()));
  if (host != options_.allowed_host) {
    // Only a weakened proxy opens a tunnel to another host; it issues that host a leaf.
    const std::optional<tls::KeyAndCert> leaf = tls::IssueLeaf(tls_->ca, {host}, {});
    const base::X509Ptr cert = leaf ? base::ReadPemCert(leaf->cert_pem) : nullptr;
    const base::EvpPkeyPtr key = leaf ? base::ReadPemKey(leaf->key_pem) : nullptr;
    if (cert == nullptr || key == nullptr || SSL_use_certificate(ssl.get(), cert.get()) != 1 ||
        SSL_use_PrivateKey(ssl.get(), key.get()) != 1) {
      LogDecision(kTlsHandshakeFailed, "tls", std::nullopt);
      return nullptr;
    }
  }
  SSL_set_app_data(ssl.get(), &sni);
  SSL_set_fd(ssl.get(), fd);
  if (SSL_accept(ssl.get()) != 1) {
    LogDecision(kTlsHandshakeFailed, "tls", std::nullopt);
    return nullptr;
  }
  return ssl;
}

Decision EgressProxy::Judge(RequestHead head, std::string sni, const std::string& host) const {
  // Each weakening hides one comparison from the policy: the decision sees a request that
  // agrees in that respect, while what is forwarded is the request as sent.
  if (weakenings_.method_case_insensitive) head.method = Upper(head.method);
  if (weakenings_.host_header_unchecked) {
    for (auto& [name, value] : head.headers) {
      if (Upper(name) == "HOST") value = host;
    }
  }
  if (weakenings_.sni_unchecked) sni = host;
  if (weakenings_.upgrade_unchecked) {
    std::erase_if(head.headers, [](const auto& header) {
      return Upper(header.first) == "UPGRADE" || Upper(header.first) == "CONNECTION";
    });
  }
  Decision d = DecideRequest(head, sni, host);
  if (!d.allowed && weakenings_.any_method && d.reason == kMethodNotAllowed) d = {true, 0, ""};
  return d;
}

// Stage 3: the one request inside the tunnel, checked; refused here when policy says so.
std::optional<RequestHead> EgressProxy::ReadRequest(SSL* ssl, const std::string& sni,
                                                    const std::string& host, std::string& pending) {
  const std::string request = ReadHead([ssl](char* b, int n) { return SSL_read(ssl, b, n); });
  ParsedHead parsed = ParseRequestHead(request);
  Decision d = parsed.head ? Judge(*parsed.head, sni, host) : parsed.refusal;
  if (d.allowed && request.size() > parsed.consumed) {
    // Pipelined bytes: refused, unless the weakened keep-alive loop takes them as the next head.
    if (KeepsTunnelOpen()) {
      pending = request.substr(parsed.consumed);
    } else {
      d = {false, 400, kRequestBody};
    }
  }
  if (!d.allowed) {
    LogDecision(d.reason, "request", d.status);
    SslWriteAll(ssl, Refusal(weakenings_.refusals_answered_200 ? 200 : d.status));
    return std::nullopt;
  }
  return std::move(parsed.head);
}

// Stage 4: upstream, verified for the allowed host, one request, response passed back unchanged.
void EgressProxy::Forward(SSL* ssl, const RequestHead& head, const std::string& body,
                          const timeval& timeout) {
  const std::string up_host =
      options_.upstream_host.empty() ? options_.allowed_host : options_.upstream_host;
  const int up = Connect(up_host, options_.upstream_port, options_.idle_timeout_ms);
  base::SslPtr up_ssl(up >= 0 ? SSL_new(tls_->client.get()) : nullptr);
  bool up_ok = false;
  if (up_ssl != nullptr) {
    setsockopt(up, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    SetNoDelay(up);
    SSL_set_fd(up_ssl.get(), up);
    tls_->Offer(up_ssl.get());
    SSL_set_tlsext_host_name(up_ssl.get(), options_.allowed_host.c_str());
    SSL_set1_host(up_ssl.get(), options_.allowed_host.c_str());
    up_ok = SSL_connect(up_ssl.get()) == 1;
  }
  if (!up_ok) {
    const int status = weakenings_.upstream_failure_status;
    LogDecision(up < 0 ? kUpstreamUnreachable : kUpstreamTlsFailed, "upstream", status);
    SslWriteAll(ssl, Refusal(status));
    up_ssl.reset();
    if (up >= 0) close(up);
    return;
  }
  ForwardedExchange seen{.method = head.method,
                         .target = OriginForm(head.target),
                         .user_agent = HeaderValue(head, "user-agent"),
                         .forwarded = std::chrono::steady_clock::now(),
                         .upstream_resumed = SSL_session_reused(up_ssl.get()) == 1};
  if (SslWriteAll(up_ssl.get(), UpstreamRequest(head) + body)) {
    char buf[16384];
    bool first = true;
    for (;;) {
      const int n = SSL_read(up_ssl.get(), buf, sizeof buf);
      if (n <= 0) break;
      if (first && n > 12) seen.status = std::atoi(std::string(buf + 9, 3).c_str());
      std::string chunk(buf, static_cast<size_t>(n));
      if (first) {
        chunk = EditHead(std::move(chunk), {weakenings_.response_altered,
                                            weakenings_.response_header_changed,
                                            weakenings_.response_head_rewritten});
      }
      first = false;
      if (options_.observe) Keep(seen, chunk, options_.max_observed_bytes);
      if (!SslWriteAll(ssl, chunk)) break;
    }
  }
  LogDecision(kRequestForwarded, "request", seen.status);
  seen.ended = std::chrono::steady_clock::now();
  if (options_.observe) options_.observe(seen);
  SSL_shutdown(up_ssl.get());
  up_ssl.reset();
  close(up);
}

// Only under later_requests_unchecked: the slip of a keep-alive loop that judged the first
// request only. Each later head (and its Content-Length body) is forwarded as it comes, until
// the client closes, goes idle or sends something that is not a request head. Under
// later_requests_method_only the loop judges each later method, and nothing else of it.
void EgressProxy::ForwardLaterUnchecked(SSL* ssl, std::string pending, const timeval& timeout) {
  const auto read = [ssl](char* b, int n) { return SSL_read(ssl, b, n); };
  for (;;) {
    const std::string bytes = ReadHead(read, std::move(pending));
    const ParsedHead parsed = ParseRequestHead(bytes);
    if (!parsed.head) return;
    if (weakenings_.later_requests_method_only && parsed.head->method != "GET") {
      LogDecision(kMethodNotAllowed, "request", 405);
      SslWriteAll(ssl, Refusal(405));
      return;
    }
    std::string rest = bytes.substr(parsed.consumed);
    const size_t length = ContentLength(*parsed.head);
    char chunk[4096];
    while (rest.size() < length) {
      const int n = SSL_read(ssl, chunk, sizeof chunk);
      if (n <= 0) return;
      rest.append(chunk, static_cast<size_t>(n));
    }
    Forward(ssl, *parsed.head, rest.substr(0, length), timeout);
    pending = rest.substr(length);
  }
}

void EgressProxy::Serve(int fd) {
  const timeval timeout{options_.idle_timeout_ms / 1000, (options_.idle_timeout_ms % 1000) * 1000};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  SetNoDelay(fd);
  const std::optional<std::string> host = OpenTunnel(fd);
  if (!host) return;
  std::string sni;
  const base::SslPtr ssl = AcceptTls(fd, *host, sni);
  if (ssl == nullptr) return;
  if (weakenings_.ip_literal_answer != 0 && *host != options_.allowed_host &&
      !weakenings_.host_suffix_match) {
    // The bumped IP literal's one request, answered here and never forwarded.
    ReadHead([&ssl](char* b, int n) { return SSL_read(ssl.get(), b, n); });
    SslWriteAll(ssl.get(), Refusal(weakenings_.ip_literal_answer));
    SSL_shutdown(ssl.get());
    return;
  }
  std::string pending;
  if (std::optional<RequestHead> head = ReadRequest(ssl.get(), sni, *host, pending)) {
    Forward(ssl.get(), *head, "", timeout);
    if (KeepsTunnelOpen()) {
      ForwardLaterUnchecked(ssl.get(), std::move(pending), timeout);
    }
  }
  SSL_shutdown(ssl.get());
}

}  // namespace azure_pricing::egress
