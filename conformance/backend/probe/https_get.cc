// https-get: HTTPS requests made the way the pricing CLI makes them inside a sandbox, so a
// conformance suite can see whether the sandbox's egress path works end to end and what it
// refuses. The report's `stage` is the step the FIRST request got to:
//   proxy    HTTPS_PROXY missing or unreadable, the proxy unreachable, or CONNECT not answered
//            200 (`status` is then the proxy's answer)
//   connect  --no-proxy: resolving or connecting to the URL's host failed
//   tls      the handshake failed (verification included)
//   http     the request was sent; `ok` is true once a response status line was read
// `ok`, `status`, `body_bytes` and `error` describe the first request too. The options that try
// the proxy's rules from the client's side:
//   --host-header VALUE  the Host header instead of the URL's authority
//   --sni NAME           the TLS server name instead of the URL's host
//   --then METHOD        (up to 8) one more request on the same TLS connection, same target and
//                        Host, no body (Content-Length: 0 unless GET or HEAD); no request has a
//                        Connection header, so HTTP/1.1 keep-alive is what is asked for
//   --pipeline           with --then: every request written before any response is read
//   --header "N: V"      (up to 8) one more header line on the first request, as given
//   --then-host VALUE    the Host header of the requests after the first (default: the first's)
//   --then-target PATH   the request target of the requests after the first, sent as given
//   --raw                (alone, without --then) `raw_base64`: every byte read from the tunnel
//                        for the first response, head and body as they came, so the caller can
//                        compare it with what the upstream sent
//   --name-unchecked     the certificate's chain is verified against the trust store as always,
//                        its name is not; `name_matches` says whether it names the URL's host.
//                        A chain that verifies against the sandbox's SSL_CERT_FILE was issued by
//                        the proxy's CA, so whatever answers inside that session is the proxy,
//                        never the target: the suite uses it to read a refusal the proxy sends
//                        inside TLS with a certificate that cannot name an IP literal
// `responses` lists every request in order, first included, as {"method", "status", "ok"} once
// the handshake succeeded (empty before): status 0 and ok false for a request that got no
// response, e.g. because the connection closed after the previous one.
#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "conformance/backend/probe/https_wire.h"
#include "conformance/backend/probe/net_io.h"
#include "conformance/backend/probe/probe.h"
#include "ref/base/address.h"
#include "ref/base/openssl.h"

namespace azure_pricing::conformance::backend::probe {
namespace {

constexpr size_t kMaxThen = 8;

struct HttpsOptions {
  std::string url;
  std::string method = "GET";  // sent exactly as given: "get" stays "get"
  std::optional<std::string> ca_file;
  bool no_proxy = false;
  int timeout_ms = 10'000;  // the whole command: tunnel, handshake and every request
  std::optional<std::string> body;
  std::optional<std::string> host_header;
  std::optional<std::string> sni;
  std::vector<std::string> then;  // the methods of the requests after the first
  bool pipeline = false;
  std::vector<std::string> headers;  // extra "Name: value" lines of the first request
  std::optional<std::string> then_host;
  std::optional<std::string> then_target;
  bool raw = false;
  bool name_unchecked = false;
};

struct Target {
  std::string host;  // without brackets
  int port = 443;
  std::string path;  // origin-form: "/..." with the query, without the fragment
};

std::string Base64(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()),
                                static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

struct Report {
  std::string stage = "proxy";
  bool ok = false;
  int status = 0;
  size_t body_bytes = 0;
  std::string error;
  Json responses = Json::array();
  std::optional<std::string> raw;  // --raw: the first response's bytes as read
  std::optional<bool> name_matches;  // --name-unchecked, once the handshake succeeded

  Json ToJson() const {
    Json out = {{"stage", stage},           {"ok", ok},       {"status", status},
                {"body_bytes", body_bytes}, {"error", error}, {"responses", responses}};
    if (raw) out["raw_base64"] = Base64(*raw);
    if (name_matches) out["name_matches"] = *name_matches;
    return out;
  }
};

// RFC 9110 token characters: a method is never allowed to smuggle spaces or line breaks.
bool IsToken(std::string_view text) {
  return !text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                 "0123456789!#$%&'*+-.^_`|~") == std::string_view::npos;
}

// A Host value or server name from the command line: visible ASCII, so it can neither end the
// header line it is on nor start another.
bool IsVisible(std::string_view text) {
  return !text.empty() && text.size() <= 255 &&
         std::all_of(text.begin(), text.end(),
                     [](unsigned char c) { return c > 0x20 && c < 0x7f; });
}

// "Name: value" with a token for a name and visible ASCII or spaces for a value: one header line,
// never two.
bool IsHeaderLine(std::string_view text) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos || !IsToken(text.substr(0, colon))) return false;
  const std::string_view value = text.substr(colon + 1);
  return value.size() <= 1024 && std::all_of(value.begin(), value.end(), [](unsigned char c) {
           return c >= 0x20 && c < 0x7f;
         });
}

// The flags that shape the requests after the first, and the extra header lines.
bool SetRequestOption(HttpsOptions& o, const std::string& flag, const std::string& value) {
  if (flag == "--header" && IsHeaderLine(value) && o.headers.size() < kMaxThen) {
    o.headers.push_back(value);
  } else if (flag == "--then-host" && IsVisible(value)) {
    o.then_host = value;
  } else if (flag == "--then-target" && IsVisible(value)) {
    o.then_target = value;
  } else {
    return false;
  }
  return true;
}

// One flag that takes a value; false when the flag is unknown or its value does not read.
bool SetOption(HttpsOptions& o, const std::string& flag, const std::string& value) {
  std::optional<long long> timeout;
  if (flag == "--method" && IsToken(value)) {
    o.method = value;
  } else if (flag == "--then" && IsToken(value) && o.then.size() < kMaxThen) {
    o.then.push_back(value);
  } else if (flag == "--ca-file") {
    o.ca_file = value;
  } else if (flag == "--body") {
    o.body = value;
  } else if (flag == "--host-header" && IsVisible(value)) {
    o.host_header = value;
  } else if (flag == "--sni" && IsVisible(value)) {
    o.sni = value;
  } else if (flag == "--timeout-ms" && (timeout = ParseInteger(value, 1, 3'600'000))) {
    o.timeout_ms = static_cast<int>(*timeout);
  } else {
    return SetRequestOption(o, flag, value);
  }
  return true;
}

std::optional<HttpsOptions> ParseHttpsArgs(const Args& args) {
  HttpsOptions o;
  o.url = args[0];
  std::set<std::string> seen;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& flag = args[i];
    // A repeated flag is a mistake in the caller's argv, not a "last one wins"; each --then is
    // one more request.
    if (flag != "--then" && flag != "--header" && !seen.insert(flag).second) return std::nullopt;
    if (flag == "--no-proxy") {
      o.no_proxy = true;
    } else if (flag == "--raw") {
      o.raw = true;
    } else if (flag == "--name-unchecked") {
      o.name_unchecked = true;
    } else if (flag == "--pipeline") {
      o.pipeline = true;
    } else if (i + 1 >= args.size() || !SetOption(o, flag, args[i + 1])) {
      return std::nullopt;
    } else {
      ++i;
    }
  }
  // Alone there is nothing to pipeline: the caller would read a single exchange as a pipelined one.
  if (o.pipeline && o.then.empty()) return std::nullopt;
  // Likewise a later request's Host or target without a later request; and the raw bytes of
  // one response are only that response's when nothing follows it on the stream.
  if ((o.then_host || o.then_target) && o.then.empty()) return std::nullopt;
  if (o.raw && !o.then.empty()) return std::nullopt;
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
  // A body without a length ends at the connection's close; a server that skips close_notify
  // there is not an error.
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

// Whether the peer's certificate names `host` (an address as an IP entry, a name as a DNS one).
bool NamesTarget(SSL* ssl, const std::string& host, bool ip) {
  const base::X509Ptr cert(SSL_get1_peer_certificate(ssl));
  if (cert == nullptr) return false;
  return ip ? X509_check_ip_asc(cert.get(), host.c_str(), 0) == 1
            : X509_check_host(cert.get(), host.c_str(), host.size(), 0, nullptr) == 1;
}

// The certificate is verified for the URL's host (its name too, unless --name-unchecked), also
// under --sni: the point of --sni is to see whether the proxy compares the SNI with the CONNECT
// target, so an interceptor that issues its certificate for the CONNECT host must still complete
// the handshake.
base::SslPtr StartTls(SSL_CTX* ctx, int fd, const Target& target, const HttpsOptions& options,
                      const Deadline& deadline, Report& report) {
  report.stage = "tls";
  base::SslPtr ssl(ctx != nullptr ? SSL_new(ctx) : nullptr);
  if (!ssl) {
    report.error = "cannot create a TLS session";
    return nullptr;
  }
  SSL_set_fd(ssl.get(), fd);
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl.get());
  const bool ip = IsIpLiteral(target.host);
  // No SNI for an address (RFC 6066); the certificate must name the address itself.
  if (!ip) SSL_set_tlsext_host_name(ssl.get(), target.host.c_str());
  // Under --name-unchecked the chain is still verified (SSL_VERIFY_PEER); the name is
  // NamesTarget's to report, not the handshake's to refuse.
  if (!options.name_unchecked && ip) X509_VERIFY_PARAM_set1_ip_asc(param, target.host.c_str());
  if (!options.name_unchecked && !ip) X509_VERIFY_PARAM_set1_host(param, target.host.c_str(), 0);
  if (options.sni) SSL_set_tlsext_host_name(ssl.get(), options.sni->c_str());
  if (SslRun(ssl.get(), fd, deadline, [&] { return SSL_connect(ssl.get()); }, report.error) <= 0) {
    if (report.error.empty()) report.error = "TLS handshake failed";
    return nullptr;
  }
  if (options.name_unchecked) report.name_matches = NamesTarget(ssl.get(), target.host, ip);
  return ssl;
}

const std::string& MethodOf(const HttpsOptions& options, size_t index) {
  return index == 0 ? options.method : options.then[index - 1];
}

// Request `index` of the exchange: the first carries --method and --body, the later ones their
// --then method and no body. No Connection header on any: HTTP/1.1's default, keep-alive, is
// what lets the later requests follow on the same connection.
std::string BuildRequest(const Target& target, const HttpsOptions& options, size_t index) {
  const std::string& method = MethodOf(options, index);
  // The default port stays out of Host, as clients write it (the proxy accepts both forms).
  std::string host = options.host_header  ? *options.host_header
                     : target.port == 443 ? Bracketed(target.host)
                                          : Authority(target.host, target.port);
  std::string path = target.path;
  if (index > 0 && options.then_host) host = *options.then_host;
  if (index > 0 && options.then_target) path = *options.then_target;
  std::string request = method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\n";
  if (index == 0) {
    for (const std::string& line : options.headers) request += line + "\r\n";
  }
  std::optional<std::string> body = options.body;
  if (index > 0) {
    body.reset();
    if (method != "GET" && method != "HEAD") body = "";  // says "no body" to the server
  }
  if (body) request += "Content-Length: " + std::to_string(body->size()) + "\r\n";
  request += "\r\n";
  if (body) request += *body;
  return request;
}

// Sends the requests and reads the responses, in order; one response per request at most, none
// once the stream has ended. Without --pipeline each request waits for the previous response.
std::vector<HttpResponse> Converse(TlsStream& stream, const Target& target,
                                   const HttpsOptions& options, std::string& send_error) {
  const size_t count = 1 + options.then.size();
  std::vector<HttpResponse> responses;
  size_t sent = 0;
  while (responses.size() < count && !stream.ended) {
    if (sent == responses.size()) {
      const size_t until = options.pipeline ? count : sent + 1;
      std::string requests;
      for (size_t i = sent; i < until; ++i) requests += BuildRequest(target, options, i);
      std::string error;
      if (!SslWriteAll(stream, requests, error)) {
        if (sent == 0) send_error = "sending the request: " + error;
        break;
      }
      sent = until;
    }
    responses.push_back(ReadResponse(stream, MethodOf(options, responses.size()) == "HEAD"));
    stream.record = nullptr;  // --raw keeps the first response only
  }
  return responses;
}

void Exchange(SSL* ssl, int fd, const Target& target, const HttpsOptions& options,
              const Deadline& deadline, Report& report) {
  report.stage = "http";
  TlsStream stream{ssl, fd, deadline};
  if (options.raw) {
    report.raw.emplace();
    stream.record = &*report.raw;
  }
  const std::vector<HttpResponse> responses = Converse(stream, target, options, report.error);
  if (!responses.empty()) {
    const HttpResponse& first = responses.front();
    report.ok = first.status != 0;
    report.status = first.status;
    report.body_bytes = first.body_bytes;
    report.error = first.error;
  }
  for (size_t i = 0; i < 1 + options.then.size(); ++i) {
    const int status = i < responses.size() ? responses[i].status : 0;
    report.responses.push_back(
        {{"method", MethodOf(options, i)}, {"status", status}, {"ok", status != 0}});
  }
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
      const base::SslPtr ssl = StartTls(ctx.get(), fd, *target, *options, deadline, report);
      if (ssl) Exchange(ssl.get(), fd, *target, *options, deadline, report);
    }
    close(fd);
  }
  PrintJson(report.ToJson());
  return 0;
}

}  // namespace azure_pricing::conformance::backend::probe
