// https-get: one HTTPS request made the way the pricing CLI makes it inside a sandbox, so a
// conformance suite can see whether the sandbox's egress path works end to end and what it
// refuses. The report's `stage` is the step the request got to:
//   proxy    HTTPS_PROXY missing or unreadable, the proxy unreachable, or CONNECT not answered
//            200 (`status` is then the proxy's answer)
//   connect  --no-proxy: resolving or connecting to the URL's host failed
//   tls      the handshake failed (verification included)
//   http     the request was sent; `ok` is true once a response status line was read
#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "conformance/backend/probe/net_io.h"
#include "conformance/backend/probe/probe.h"
#include "ref/base/address.h"
#include "ref/base/openssl.h"

namespace azure_pricing::probe {
namespace {

constexpr size_t kMaxHeadBytes = 64 * 1024;

struct HttpsOptions {
  std::string url;
  std::string method = "GET";
  std::optional<std::string> ca_file;
  bool no_proxy = false;
  int timeout_ms = 10'000;
  std::optional<std::string> body;
};

struct Target {
  std::string host;  // without brackets
  int port = 443;
  std::string path;  // origin-form: "/..." with the query, without the fragment
};

struct Report {
  std::string stage = "proxy";
  bool ok = false;
  int status = 0;
  size_t body_bytes = 0;
  std::string error;

  Json ToJson() const {
    return {{"stage", stage}, {"ok", ok},       {"status", status},
            {"body_bytes", body_bytes}, {"error", error}};
  }
};

// RFC 9110 token characters: a method is never allowed to smuggle spaces or line breaks.
bool IsToken(std::string_view text) {
  return !text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                 "0123456789!#$%&'*+-.^_`|~") == std::string_view::npos;
}

std::optional<HttpsOptions> ParseHttpsArgs(const Args& args) {
  HttpsOptions o;
  o.url = args[0];
  std::set<std::string> seen;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& flag = args[i];
    // A repeated flag is a mistake in the caller's argv, not a "last one wins".
    if (!seen.insert(flag).second) return std::nullopt;
    if (flag == "--no-proxy") {
      o.no_proxy = true;
      continue;
    }
    if (i + 1 >= args.size()) return std::nullopt;
    const std::string& value = args[++i];
    std::optional<long long> timeout;
    if (flag == "--method" && IsToken(value)) {
      o.method = value;
    } else if (flag == "--ca-file") {
      o.ca_file = value;
    } else if (flag == "--body") {
      o.body = value;
    } else if (flag == "--timeout-ms" && (timeout = ParseInteger(value, 1, 3'600'000))) {
      o.timeout_ms = static_cast<int>(*timeout);
    } else {
      return std::nullopt;
    }
  }
  return o;
}

// "host", "host:port", "[v6]" or "[v6]:port"; no user information.
std::optional<base::HostPort> ParseAuthority(std::string_view text, int default_port) {
  if (text.empty() || text.find('@') != std::string_view::npos) return std::nullopt;
  const bool has_port = text.back() != ']' && text.find(':') != std::string_view::npos;
  const std::string full = has_port ? std::string(text) : std::string(text) + ":" +
                                                              std::to_string(default_port);
  StatusOr<base::HostPort> parsed = base::ParseHostPort(full);
  if (!parsed.ok() || parsed->port == 0) return std::nullopt;
  return *parsed;
}

std::optional<Target> ParseTarget(std::string_view url) {
  constexpr std::string_view kScheme = "https://";
  if (!url.starts_with(kScheme)) return std::nullopt;
  url.remove_prefix(kScheme.size());
  url = url.substr(0, url.find('#'));  // a fragment never goes on the wire
  const size_t end = url.find_first_of("/?");
  const std::optional<base::HostPort> authority = ParseAuthority(url.substr(0, end), 443);
  if (!authority) return std::nullopt;
  std::string path = end == std::string_view::npos ? "/" : std::string(url.substr(end));
  if (path.front() == '?') path.insert(0, "/");
  return Target{authority->host, authority->port, path};
}

// An IPv6 literal goes in brackets wherever a port may follow it.
std::string Bracketed(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

std::string Authority(const std::string& host, int port) {
  return Bracketed(host) + ":" + std::to_string(port);
}

bool IsIpLiteral(const std::string& host) {
  unsigned char address[16];
  return inet_pton(AF_INET, host.c_str(), address) == 1 ||
         inet_pton(AF_INET6, host.c_str(), address) == 1;
}

// The status code of "HTTP/1.x NNN ...", or 0 when the head is not an HTTP response.
int StatusOf(std::string_view head) {
  if (!head.starts_with("HTTP/1.") || head.size() < 12 || head[8] != ' ') return 0;
  const std::optional<long long> code = ParseInteger(head.substr(9, 3), 100, 999);
  return code ? static_cast<int>(*code) : 0;
}

std::string FirstLine(std::string_view head) { return std::string(head.substr(0, head.find('\r'))); }

// Plain-socket I/O for the CONNECT exchange, under the deadline.
bool SendAll(int fd, std::string_view data, const Deadline& deadline, std::string& error) {
  while (!data.empty()) {
    const ssize_t n = send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    const int code = n < 0 ? errno : 0;
    if (n > 0) {
      data.remove_prefix(static_cast<size_t>(n));
    } else if (code == EINTR || (code == EAGAIN && WaitFor(fd, POLLOUT, deadline))) {
      continue;
    } else {
      error = code == EAGAIN ? "timed out" : std::strerror(code);
      return false;
    }
  }
  return true;
}

// Byte by byte: whatever follows the head (TLS) must stay in the socket for OpenSSL.
bool ReadPlainHead(int fd, const Deadline& deadline, std::string& head, std::string& error) {
  while (!head.ends_with("\r\n\r\n")) {
    char c;
    const ssize_t n = recv(fd, &c, 1, 0);
    const int code = n < 0 ? errno : 0;
    if (n == 1) {
      head += c;
      if (head.size() <= kMaxHeadBytes) continue;
      error = "response head too large";
    } else if (n == 0) {
      error = "connection closed before the end of the response head";
    } else if (code == EINTR || (code == EAGAIN && WaitFor(fd, POLLIN, deadline))) {
      continue;
    } else {
      error = code == EAGAIN ? "timed out" : std::strerror(code);
    }
    return false;
  }
  return true;
}

std::optional<base::HostPort> ProxyFromEnvironment(std::string& error) {
  const char* value = std::getenv("HTTPS_PROXY");
  if (value == nullptr || *value == '\0') {
    error = "HTTPS_PROXY is not set";
    return std::nullopt;
  }
  std::string_view text = value;
  if (text.ends_with('/')) text.remove_suffix(1);
  std::optional<base::HostPort> proxy;
  if (text.starts_with("http://")) proxy = ParseAuthority(text.substr(7), 80);
  if (!proxy) error = "HTTPS_PROXY is not http://HOST:PORT";
  return proxy;
}

// TCP to the proxy and a CONNECT for the target; the tunnel's socket, or -1 with the report
// saying why.
int OpenTunnel(const Target& target, const Deadline& deadline, Report& report) {
  const std::optional<base::HostPort> proxy = ProxyFromEnvironment(report.error);
  if (!proxy) return -1;
  const Dialed dialed = Dial(proxy->host, proxy->port, deadline);
  if (dialed.fd < 0) {
    report.error = "proxy: " + dialed.error;
    return -1;
  }
  const std::string authority = Authority(target.host, target.port);
  const std::string request =
      "CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n";
  std::string head;
  if (!SendAll(dialed.fd, request, deadline, report.error) ||
      !ReadPlainHead(dialed.fd, deadline, head, report.error)) {
    report.error = "proxy: " + report.error;
    close(dialed.fd);
    return -1;
  }
  report.status = StatusOf(head);
  if (report.status == 200) {
    report.status = 0;  // from here on `status` is the target's answer
    return dialed.fd;
  }
  report.error = "proxy refused CONNECT: " + FirstLine(head);
  close(dialed.fd);
  return -1;
}

int OpenFirstHop(const HttpsOptions& options, const Target& target, const Deadline& deadline,
                 Report& report) {
  if (!options.no_proxy) {
    report.stage = "proxy";
    return OpenTunnel(target, deadline, report);
  }
  report.stage = "connect";
  const Dialed dialed = Dial(target.host, target.port, deadline);
  report.error = dialed.error;
  return dialed.fd;
}

// The trust store: --ca-file, else SSL_CERT_FILE, else the system's. A named file that holds no
// certificate (/dev/null, an empty file, a missing file) leaves the store empty, so verification
// fails; it never falls back to the system store.
base::SslCtxPtr MakeContext(const HttpsOptions& options) {
  base::SslCtxPtr ctx(SSL_CTX_new(TLS_client_method()));
  if (!ctx) return ctx;
  SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  // Connection: close ends the body at EOF; a server that skips close_notify is not an error.
  SSL_CTX_set_options(ctx.get(), SSL_OP_IGNORE_UNEXPECTED_EOF);
  const char* env = std::getenv("SSL_CERT_FILE");
  std::optional<std::string> file = options.ca_file;
  if (!file && env != nullptr && *env != '\0') file = env;
  if (!file) {
    SSL_CTX_set_default_verify_paths(ctx.get());
  } else if (SSL_CTX_load_verify_locations(ctx.get(), file->c_str(), nullptr) != 1) {
    ERR_clear_error();  // the empty store is the intended result; keep the queue for real errors
  }
  return ctx;
}

std::string SslErrorText(SSL* ssl, int reason) {
  const long verify = SSL_get_verify_result(ssl);
  if (verify != X509_V_OK) {
    return std::string("certificate verify failed: ") + X509_verify_cert_error_string(verify);
  }
  if (const unsigned long e = ERR_peek_error(); e != 0) {
    char text[256];
    ERR_error_string_n(e, text, sizeof text);
    return text;
  }
  if (reason == SSL_ERROR_SYSCALL) return errno != 0 ? std::strerror(errno) : "connection closed";
  return "TLS error " + std::to_string(reason);
}

// Runs one OpenSSL call on the non-blocking socket, waiting as OpenSSL asks, until it succeeds
// (its result), the peer closes cleanly (0) or it fails or the deadline passes (-1, `error`).
template <typename Call>
int SslRun(SSL* ssl, int fd, const Deadline& deadline, Call call, std::string& error) {
  for (;;) {
    ERR_clear_error();
    errno = 0;
    const int rc = call();
    if (rc > 0) return rc;
    const int reason = SSL_get_error(ssl, rc);
    if (reason == SSL_ERROR_ZERO_RETURN) return 0;
    const short events = reason == SSL_ERROR_WANT_READ    ? POLLIN
                         : reason == SSL_ERROR_WANT_WRITE ? POLLOUT
                                                          : 0;
    if (events == 0) {
      error = SslErrorText(ssl, reason);
      return -1;
    }
    if (!WaitFor(fd, events, deadline)) {
      error = "timed out";
      return -1;
    }
  }
}

base::SslPtr StartTls(SSL_CTX* ctx, int fd, const Target& target, const Deadline& deadline,
                      Report& report) {
  report.stage = "tls";
  base::SslPtr ssl(ctx != nullptr ? SSL_new(ctx) : nullptr);
  if (!ssl) {
    report.error = "cannot create a TLS session";
    return nullptr;
  }
  SSL_set_fd(ssl.get(), fd);
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl.get());
  if (IsIpLiteral(target.host)) {
    // No SNI for an address (RFC 6066); the certificate must name the address itself.
    X509_VERIFY_PARAM_set1_ip_asc(param, target.host.c_str());
  } else {
    SSL_set_tlsext_host_name(ssl.get(), target.host.c_str());
    X509_VERIFY_PARAM_set1_host(param, target.host.c_str(), 0);
  }
  if (SslRun(ssl.get(), fd, deadline, [&] { return SSL_connect(ssl.get()); }, report.error) <= 0) {
    if (report.error.empty()) report.error = "TLS handshake failed";
    return nullptr;
  }
  return ssl;
}

std::string BuildRequest(const Target& target, const HttpsOptions& options) {
  // The default port stays out of Host, as clients write it (the proxy accepts both forms).
  const std::string host =
      target.port == 443 ? Bracketed(target.host) : Authority(target.host, target.port);
  std::string request =
      options.method + " " + target.path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n";
  if (options.body) request += "Content-Length: " + std::to_string(options.body->size()) + "\r\n";
  request += "\r\n";
  if (options.body) request += *options.body;
  return request;
}

// Appends what one SSL_read returns to `data`: bytes read, 0 at the end, -1 with `error`.
int SslReadSome(SSL* ssl, int fd, const Deadline& deadline, std::string& data,
                std::string& error) {
  char buffer[16384];
  const int n = SslRun(
      ssl, fd, deadline, [&] { return SSL_read(ssl, buffer, sizeof buffer); }, error);
  if (n > 0) data.append(buffer, static_cast<size_t>(n));
  return n;
}

// The value of a header in a response head (case-insensitive name), trimmed; nullopt if absent.
std::optional<std::string> HeaderValue(std::string_view head, std::string_view name) {
  std::string lower(head);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const size_t at = lower.find("\r\n" + std::string(name) + ":");
  if (at == std::string::npos) return std::nullopt;
  const size_t start = at + 3 + name.size();
  std::string value(head.substr(start, head.find('\r', start) - start));
  value.erase(0, value.find_first_not_of(" \t"));
  value.erase(value.find_last_not_of(" \t") + 1);
  return value;
}

// Payload bytes of a chunked body so far, and whether its last chunk (and trailer) arrived.
std::pair<bool, size_t> Dechunk(std::string_view raw) {
  size_t pos = 0, total = 0;
  for (;;) {
    const size_t eol = raw.find("\r\n", pos);
    if (eol == std::string_view::npos) return {false, total};
    const std::string_view line = raw.substr(pos, eol - pos);
    size_t size = 0;
    const auto [end, error] = std::from_chars(line.data(), line.data() + line.size(), size, 16);
    if (error != std::errc() || end == line.data()) return {true, total};  // not chunked after all
    if (size == 0) return {raw.find("\r\n\r\n", eol) != std::string_view::npos, total};
    const size_t data = eol + 2;
    if (raw.size() < data + size + 2) return {false, total + std::min(size, raw.size() - data)};
    total += size;
    pos = data + size + 2;
  }
}

// Reads the body until its framing says it is complete or the server closes the connection
// (Connection: close), and counts its payload bytes.
void ReadBody(SSL* ssl, int fd, const std::string& head, std::string body,
              const Deadline& deadline, Report& report) {
  const std::optional<std::string> encoding = HeaderValue(head, "transfer-encoding");
  const bool chunked = encoding && encoding->find("chunked") != std::string::npos;
  const std::optional<std::string> length_text = HeaderValue(head, "content-length");
  const std::optional<long long> length =
      length_text ? ParseInteger(*length_text, 0, 1LL << 50) : std::nullopt;
  for (;;) {
    if (chunked ? Dechunk(body).first
                : (length && body.size() >= static_cast<size_t>(*length))) {
      break;
    }
    std::string error;
    const int n = SslReadSome(ssl, fd, deadline, body, error);
    if (n < 0) report.error = "reading the body: " + error;
    if (n <= 0) break;
  }
  report.body_bytes = chunked  ? Dechunk(body).second
                      : length ? std::min(body.size(), static_cast<size_t>(*length))
                               : body.size();
}

void Exchange(SSL* ssl, int fd, const Target& target, const HttpsOptions& options,
              const Deadline& deadline, Report& report) {
  report.stage = "http";
  const std::string request = BuildRequest(target, options);
  if (SslRun(
          ssl, fd, deadline,
          [&] { return SSL_write(ssl, request.data(), static_cast<int>(request.size())); },
          report.error) <= 0) {
    report.error = "sending the request: " + report.error;
    return;
  }
  std::string data;
  size_t head_end;
  while ((head_end = data.find("\r\n\r\n")) == std::string::npos) {
    if (data.size() > kMaxHeadBytes) {
      report.error = "response head too large";
      return;
    }
    const int n = SslReadSome(ssl, fd, deadline, data, report.error);
    if (n == 0) report.error = "connection closed before a response head";
    if (n <= 0) return;
  }
  const std::string head = data.substr(0, head_end + 4);
  report.status = StatusOf(head);
  if (report.status == 0) {
    report.error = "not an HTTP response: " + FirstLine(head);
    return;
  }
  report.ok = true;
  ReadBody(ssl, fd, head, data.substr(head_end + 4), deadline, report);
}

}  // namespace

std::optional<int> HttpsGetCommand(const Args& args) {
  const std::optional<HttpsOptions> options = ParseHttpsArgs(args);
  const std::optional<Target> target = options ? ParseTarget(options->url) : std::nullopt;
  if (!target) return std::nullopt;
  // OpenSSL writes with write(2), not send(MSG_NOSIGNAL): a peer that hangs up must end in a
  // report, not in death by SIGPIPE.
  signal(SIGPIPE, SIG_IGN);
  const Deadline deadline(options->timeout_ms);
  Report report;
  const int fd = OpenFirstHop(*options, *target, deadline, report);
  if (fd >= 0) {
    {
      const base::SslCtxPtr ctx = MakeContext(*options);
      const base::SslPtr ssl = StartTls(ctx.get(), fd, *target, deadline, report);
      if (ssl) Exchange(ssl.get(), fd, *target, *options, deadline, report);
    }
    close(fd);
  }
  PrintJson(report.ToJson());
  return 0;
}

}  // namespace azure_pricing::probe
