// azmcp (fake): `azmcp pricing get` of Azure MCP 3.0.0-beta.46 as observed on the real binary
// (recorded in fixtures/azmcp-3.0.0-beta.46): options and validation
// messages, filter composition (fixed clause order, " and " joins, no parentheses, quote doubling,
// percent-encoding), api-version only with savings plans, NextPageLink followed verbatim with a
// silent stop at 5,000 rows, the projection, error envelopes and exit codes, and retries (5xx and
// network errors 3 times, 429 after Retry-After, 400/404 never). It honours HTTPS_PROXY and
// SSL_CERT_FILE and always verifies certificates. Its command line is read as System.CommandLine
// reads it (command_line.h). --refuse-foreign-next-page (a switch of this
// fake, not of the real CLI) selects the later behaviour of refusing a NextPageLink to another
// host. Under an address-space limit too small for the .NET runtime it fails as the runtime does
// (FailLikeTheRuntimeIfTheAddressSpaceIsTooSmall).
#include <netdb.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cctype>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "azmcp/cli_version.h"
#include "fakes/azmcp/command_line.h"
#include "fakes/azmcp/dotnet_json.h"
#include "fakes/azmcp/help_text.h"
#include "fakes/azmcp/learn_text.h"
#include "fakes/azmcp/retail_page.h"
#include "fakes/azmcp/stj_document.h"
#include "ref/base/main_guard.h"
#include "ref/base/openssl.h"

namespace azure_pricing::fakes::azmcp {
namespace {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

constexpr int kMaxRows = 5000;
constexpr int kMaxTries = 4;
constexpr char kMitigate[] =
    ". To mitigate this issue, please refer to the troubleshooting guidelines here at "
    "https://aka.ms/azmcp/troubleshooting.";

using Options = PricingGetOptions;

// The .NET runtime sizes its reservations to the address-space limit it is given (under 4 GiB
// the GC took 2 GiB) and keeps only tens of MiB spare; under too small a limit the real CLI
// never reaches its command. Measured on 2026-12-03 (fixtures/azmcp-3.0.0-beta.46-differential's
// "address space too small for the .NET runtime", docs/reference.md): at 3,440 to 3,464 MiB it
// prints "Out of memory." and aborts (SIGABRT) before any request, every time; elsewhere below
// about 3.5 GiB it fails in other ways (another message, exit 1 with an error envelope, SIGSEGV)
// or completes. The fake models the recorded failure for every limit below the band's top and
// runs normally above it.
constexpr uint64_t kDotnetStartAddressSpace = 3472ULL << 20;

// What the runtime does when its start-up reservations do not fit: one line, then abort.
void FailLikeTheRuntimeIfTheAddressSpaceIsTooSmall() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY ||
      limit.rlim_cur >= kDotnetStartAddressSpace) {
    return;
  }
  std::fputs("Out of memory.\n", stderr);
  std::fflush(stderr);
  const rlimit no_core{0, 0};  // the abort is the message; a core file would be litter
  setrlimit(RLIMIT_CORE, &no_core);
  std::signal(SIGABRT, SIG_DFL);
  std::raise(SIGABRT);
}

struct Failure {
  int status;
  std::string message;  // without the mitigation sentence
  std::string type;     // results.type; empty for validation errors (no results)
};

int Emit(const Json& envelope) {
  std::cout << WriteIndented(envelope) << "\n";
  return envelope["status"].get<int>() >= 200 && envelope["status"].get<int>() < 300 ? 0 : 1;
}

int64_t Millis(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

int EmitFailure(const Failure& f, Clock::time_point start) {
  Json env = Json::object();
  env["status"] = f.status;
  if (f.type.empty()) {
    env["message"] = f.message;
  } else {
    env["message"] = f.message + kMitigate;
    env["results"] = {{"message", f.message}, {"type", f.type}};
  }
  env["duration"] = Millis(start);
  return Emit(env);
}

// Uri.EscapeDataString: everything but unreserved characters, upper-case hex.
std::string Escape(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

std::string Quoted(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\'') out.push_back('\'');
    out.push_back(c);
  }
  return "'" + out + "'";
}

std::string ReasonPhrase(int status) {
  switch (status) {
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 408:
      return "Request Timeout";
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    case 504:
      return "Gateway Timeout";
    default:
      return "";
  }
}

struct Url {
  std::string host;
  int port = 443;
  std::string path_and_query;
};

std::optional<Url> ParseHttpsUrl(const std::string& url) {
  const std::string scheme = "https://";
  if (url.rfind(scheme, 0) != 0) return std::nullopt;
  const size_t slash = url.find('/', scheme.size());
  std::string authority = url.substr(
      scheme.size(), slash == std::string::npos ? std::string::npos : slash - scheme.size());
  Url u;
  u.path_and_query = slash == std::string::npos ? "/" : url.substr(slash);
  const size_t colon = authority.rfind(':');
  if (colon != std::string::npos) {
    u.port = std::atoi(authority.c_str() + colon + 1);
    authority = authority.substr(0, colon);
  }
  u.host = authority;
  return u;
}

struct Fetched {
  bool network_error = false;
  std::string network_message;
  int status = 0;
  std::string body;
  std::string retry_after;
};

// The socket, or -1 with `refused` telling whether the peer actively refused (ECONNREFUSED).
int Dial(const std::string& host, int port, bool& refused) {
  refused = false;
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res) != 0) return -1;
  int fd = -1;
  for (addrinfo* a = res; a != nullptr; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (fd < 0) continue;
    timeval tv{100, 0};  // .NET's default network timeout per try
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) break;
    refused = errno == ECONNREFUSED;
    close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  return fd;
}

struct Proxy {
  std::string host;  // empty: no proxy
  int port = 0;
};

// HTTPS_PROXY (or https_proxy) as .NET reads it: an optional http:// prefix, a trailing slash,
// port 80 when none is given.
Proxy ProxyFromEnvironment() {
  const char* proxy_env = std::getenv("HTTPS_PROXY");
  if (proxy_env == nullptr) proxy_env = std::getenv("https_proxy");
  Proxy proxy;
  if (proxy_env == nullptr || *proxy_env == '\0') return proxy;
  std::string text = proxy_env;
  if (text.rfind("http://", 0) == 0) text = text.substr(7);
  if (!text.empty() && text.back() == '/') text.pop_back();
  const size_t colon = text.rfind(':');
  proxy.host = text.substr(0, colon);
  proxy.port = colon == std::string::npos ? 80 : std::atoi(text.c_str() + colon + 1);
  return proxy;
}

// CONNECT through the proxy; the failure message .NET gives when the proxy refuses.
std::optional<std::string> OpenTunnel(int fd, const Url& url, const Proxy& proxy) {
  const std::string authority = url.host + ":" + std::to_string(url.port);
  const std::string connect_req =
      "CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n";
  send(fd, connect_req.data(), connect_req.size(), MSG_NOSIGNAL);
  std::string reply;
  char c;
  while (reply.find("\r\n\r\n") == std::string::npos && recv(fd, &c, 1, 0) == 1) reply.push_back(c);
  const int status = reply.size() > 12 ? std::atoi(reply.c_str() + 9) : 0;
  if (status == 200) return std::nullopt;
  // .NET's message, stray quote included.
  return "The proxy tunnel request to proxy 'http://" + proxy.host + ":" +
         std::to_string(proxy.port) + "/' failed with status code '" + std::to_string(status) +
         "'.\"";
}

// TLS (verified: SSL_CERT_FILE or the system store), one GET, the raw response to its end.
// False when the handshake fails.
bool TlsGet(int fd, const Url& url, std::string& raw) {
  const base::SslCtxPtr ctx(SSL_CTX_new(TLS_client_method()));
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  const char* ca = std::getenv("SSL_CERT_FILE");
  if (ca != nullptr) {
    SSL_CTX_load_verify_locations(ctx.get(), ca, nullptr);
  } else {
    SSL_CTX_set_default_verify_paths(ctx.get());
  }
  const base::SslPtr ssl(SSL_new(ctx.get()));
  SSL_set_fd(ssl.get(), fd);
  SSL_set_tlsext_host_name(ssl.get(), url.host.c_str());
  SSL_set1_host(ssl.get(), url.host.c_str());
  if (SSL_connect(ssl.get()) != 1) return false;
  const std::string request = "GET " + url.path_and_query + " HTTP/1.1\r\nHost: " + url.host +
                              "\r\nAccept: application/json\r\nUser-Agent: "
                              "Azure.Mcp.Tools.Pricing/" AZMCP_CLI_VERSION " (fake)\r\n"
                              "Connection: close\r\n\r\n";
  SSL_write(ssl.get(), request.data(), static_cast<int>(request.size()));
  char buf[16384];
  int n;
  while ((n = SSL_read(ssl.get(), buf, sizeof buf)) > 0) raw.append(buf, static_cast<size_t>(n));
  return true;
}

constexpr char kResponseEnded[] = "The response ended prematurely. (ResponseEnded)";

// A chunked body decoded; nullopt when it ends before its last chunk.
std::optional<std::string> DecodeChunked(const std::string& body) {
  std::string decoded;
  size_t pos = 0;
  for (;;) {
    const size_t line_end = body.find("\r\n", pos);
    if (line_end == std::string::npos) return std::nullopt;
    const size_t size = std::strtoul(body.substr(pos, line_end - pos).c_str(), nullptr, 16);
    if (size == 0) return decoded;
    if (line_end + 2 + size > body.size()) return std::nullopt;
    decoded += body.substr(line_end + 2, size);
    pos = line_end + 2 + size + 2;
  }
}

// Status, body (framed by Content-Length or chunked) and Retry-After of a raw response.
Fetched ParseResponse(const std::string& raw) {
  Fetched f;
  auto fail = [&f](std::string message) {
    f.network_error = true;
    f.network_message = std::move(message);
    return f;
  };
  const size_t head_end = raw.find("\r\n\r\n");
  if (head_end == std::string::npos || raw.size() < 12) {
    return fail(raw.empty() ? "An error occurred while sending the request." : kResponseEnded);
  }
  f.status = std::atoi(raw.c_str() + 9);
  std::string lower_head = raw.substr(0, head_end);
  for (char& ch : lower_head) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  auto header = [&](const std::string& name) -> std::optional<std::string> {
    const size_t at = lower_head.find("\r\n" + name + ":");
    if (at == std::string::npos) return std::nullopt;
    size_t v = at + name.size() + 3;
    while (v < lower_head.size() && lower_head[v] == ' ') ++v;
    const size_t e = lower_head.find("\r\n", v);
    return raw.substr(v, (e == std::string::npos ? lower_head.size() : e) - v);
  };
  f.body = raw.substr(head_end + 4);
  if (std::optional<std::string> length = header("content-length")) {
    const size_t want = static_cast<size_t>(std::atoll(length->c_str()));
    if (f.body.size() < want) return fail(kResponseEnded);
    f.body.resize(want);
  } else if (std::optional<std::string> te = header("transfer-encoding");
             te && te->find("chunked") != std::string::npos) {
    std::optional<std::string> decoded = DecodeChunked(f.body);
    if (!decoded) return fail(kResponseEnded);
    f.body = std::move(*decoded);
  }
  f.retry_after = header("retry-after").value_or("");
  return f;
}

Fetched NetworkError(std::string message) {
  Fetched f;
  f.network_error = true;
  f.network_message = std::move(message);
  return f;
}

// One HTTPS GET, through HTTPS_PROXY when set, certificates always verified (SSL_CERT_FILE or the
// system store). Written on sockets and OpenSSL so proxy refusals and broken responses surface
// the way .NET reports them.
Fetched FetchOnce(const Url& url) {
  const Proxy proxy = ProxyFromEnvironment();
  const std::string dial_host = proxy.host.empty() ? url.host : proxy.host;
  const int dial_port = proxy.host.empty() ? url.port : proxy.port;
  bool refused = false;
  const int fd = Dial(dial_host, dial_port, refused);
  if (fd < 0) {
    // .NET's SocketException names the endpoint it tried (recorded: network-connection-refused).
    return NetworkError(refused ? "Connection refused (" + dial_host + ":" +
                                      std::to_string(dial_port) + ")"
                                : "An error occurred while sending the request.");
  }
  if (!proxy.host.empty()) {
    if (std::optional<std::string> refusal = OpenTunnel(fd, url, proxy)) {
      close(fd);
      return NetworkError(std::move(*refusal));
    }
  }
  std::string raw;
  const bool tls_ok = TlsGet(fd, url, raw);
  close(fd);
  if (!tls_ok) {
    return NetworkError("The SSL connection could not be established, see inner exception.");
  }
  return ParseResponse(raw);
}

// One logical request with the CLI's retry policy.
std::optional<Failure> Fetch(const Url& url, std::string& body) {
  std::vector<std::string> network_errors;
  for (int attempt = 1; attempt <= kMaxTries; ++attempt) {
    Fetched f = FetchOnce(url);
    if (f.network_error) {
      network_errors.push_back(f.network_message);
    } else if (f.status == 200) {
      body = std::move(f.body);
      return std::nullopt;
    } else if (f.status != 429 && f.status < 500) {
      return Failure{500,
                     "Service request failed.\nStatus: " + std::to_string(f.status) + " (" +
                         ReasonPhrase(f.status) + ")\n",
                     "ClientResultException"};
    }
    if (attempt == kMaxTries) {
      if (!f.network_error) {
        return Failure{500,
                       "Service request failed.\nStatus: " + std::to_string(f.status) + " (" +
                           ReasonPhrase(f.status) + ")\n",
                       "ClientResultException"};
      }
      break;
    }
    int delay_ms = 50;
    if (!f.network_error && f.status == 429 && !f.retry_after.empty()) {
      delay_ms = std::atoi(f.retry_after.c_str()) * 1000;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
  }
  std::string message = "Retry failed after " + std::to_string(kMaxTries) + " tries.";
  for (const std::string& e : network_errors) message += " (" + e + ")";
  return Failure{500, message, "AggregateException"};
}

// A .NET exception from reading a page, reported the way HandleException reports it.
Failure FromException(const stj::DotnetError& e) {
  return Failure{StatusForException(e.type), e.message, e.type};
}

bool AllFinite(const Json& v) {
  if (v.is_number_float()) return std::isfinite(v.get<double>());
  if (v.is_structured()) {
    for (const Json& child : v) {
      if (!AllFinite(child)) return false;
    }
  }
  return true;
}

// The CLI's own option checks, before any request.
std::optional<Failure> Validate(const Options& o) {
  if (o.sku.empty() && o.service.empty() && o.region.empty() && o.service_family.empty() &&
      o.price_type.empty() && o.filter.empty()) {
    return Failure{400,
                   "At least one filter is required. Specify --sku, --service, --region, "
                   "--service-family, --price-type, or --filter.",
                   ""};
  }
  if (!o.service.empty() && o.sku.empty()) {
    return Failure{
        400,
        "When querying by service '" + o.service +
            "', you must also specify --sku to narrow results. Ask the user which specific SKU "
            "they want pricing for. Examples: --sku Standard_D4s_v5 (for VMs), --sku Standard_LRS "
            "(for Storage), --sku GP_Gen5_2 (for SQL).",
        ""};
  }
  return std::nullopt;
}

// The first page's URL: the clauses in their fixed order, joined by " and ", no parentheses.
std::string FirstPageUrl(const Options& o) {
  std::vector<std::string> clauses;
  if (!o.sku.empty()) clauses.push_back("armSkuName eq " + Quoted(o.sku));
  if (!o.service.empty()) clauses.push_back("serviceName eq " + Quoted(o.service));
  if (!o.region.empty()) clauses.push_back("armRegionName eq " + Quoted(o.region));
  if (!o.service_family.empty()) clauses.push_back("serviceFamily eq " + Quoted(o.service_family));
  if (!o.price_type.empty()) clauses.push_back("priceType eq " + Quoted(o.price_type));
  if (!o.filter.empty()) clauses.push_back(o.filter);
  std::string filter;
  for (size_t i = 0; i < clauses.size(); ++i) filter += (i > 0 ? " and " : "") + clauses[i];
  std::string url = "https://prices.azure.com/api/retail/prices?";
  if (o.include_savings_plan) url += "api-version=2023-01-01-preview&";
  url += "currencyCode=" + Escape(o.currency.value_or("USD")) + "&$filter=" + Escape(filter);
  return url;
}

// Follows NextPageLink from `url`, mapping rows into `rows` up to the silent cap.
std::optional<Failure> CollectRows(const Options& o, std::string url, Json& rows) {
  while (!url.empty()) {
    std::optional<Url> parsed = ParseHttpsUrl(url);
    if (!parsed) {
      return Failure{500, "The request URI is not a valid absolute HTTPS URI.",
                     "UriFormatException"};
    }
    if (o.refuse_foreign_next_page && parsed->host != "prices.azure.com") {
      return Failure{500, "The URI '" + url + "' is not a valid pricing domain.",
                     "SecurityException"};
    }
    std::string body;
    if (std::optional<Failure> f = Fetch(*parsed, body)) return f;
    const stj::ParseResult parsed_body = stj::Parse(body);
    if (!parsed_body.root) return Failure{500, parsed_body.error, "JsonReaderException"};
    // The page is deserialised whole before its rows are mapped one by one up to the cap.
    PageModel page;
    if (auto e = DeserializePage(*parsed_body.root, page)) return FromException(*e);
    if (page.null_root || !page.items) return FromException(NullReference());
    for (const std::optional<PriceItemModel>& item : *page.items) {
      if (static_cast<int>(rows.size()) >= kMaxRows) break;
      Json row;
      if (auto e = MapRow(item, row)) return FromException(*e);
      rows.push_back(std::move(row));
    }
    if (static_cast<int>(rows.size()) >= kMaxRows) break;  // the silent cap
    url = page.next_page_link.value_or("");
  }
  return std::nullopt;
}

int PricingGet(const Options& o, Clock::time_point start) {
  if (std::optional<Failure> f = Validate(o)) return EmitFailure(*f, start);
  Json rows = Json::array();
  if (std::optional<Failure> f = CollectRows(o, FirstPageUrl(o), rows)) {
    return EmitFailure(*f, start);
  }
  Json env = Json::object();
  env["status"] = 200;
  env["message"] = "Success";
  env["results"] = {{"prices", rows}};
  env["duration"] = Millis(start);
  // System.Text.Json cannot write an infinity: the real CLI then prints nothing and fails.
  if (!AllFinite(rows)) return 1;
  return Emit(env);
}

// The recording the help text comes from is a parse error's stdout: the blank line that ends
// the typo suggestions comes first.
const char* PricingGetHelp() {
  static_assert(kPricingGetHelp[0] == '\n');
  return kPricingGetHelp + 1;
}

int Main(int argc, char** argv) {
  FailLikeTheRuntimeIfTheAddressSpaceIsTooSmall();
  const Clock::time_point start = Clock::now();
  signal(SIGPIPE, SIG_IGN);  // a server that hangs up is a network error, not a crash
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() < 2 || args[0] != "pricing" || args[1] != "get") {
    std::cerr << "azmcp (fake): only `azmcp pricing get` is implemented\n";
    return 1;
  }
  const ParsedCommandLine parsed = ParsePricingGet({args.begin() + 2, args.end()});
  switch (parsed.action) {
    case CommandLineAction::kRun:
      break;
    case CommandLineAction::kHelp:
      std::cout << PricingGetHelp();
      return 0;
    case CommandLineAction::kLearn:
      std::cout << kPricingGetLearn;
      return 0;
    case CommandLineAction::kParseError:
      std::cout << parsed.suggestions;
      std::cerr << parsed.errors;
      std::cout << PricingGetHelp();
      return 1;
    case CommandLineAction::kException:
      // The host's last-chance handler: a compact envelope, not the indented one.
      std::cout << "{\"status\":500,\"message\":" << JsonStringDefaultEncoder(parsed.exception)
                << ",\"duration\":" << Millis(start) << "}\n";
      return 1;
  }
  return PricingGet(parsed.options, start);
}

}  // namespace
}  // namespace azure_pricing::fakes::azmcp

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("azmcp", [&] { return azure_pricing::fakes::azmcp::Main(argc, argv); });
}
