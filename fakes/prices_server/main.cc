// prices_server: the fake prices.azure.com over HTTP and HTTPS, for tests on one machine.
// httplib listens with a backlog of 5: under the stack's load test (16 lookups at a time) the
// kernel dropped connection attempts, which came back a second later as a latency tail.
#define CPPHTTPLIB_LISTEN_BACKLOG 128
#include <httplib.h>

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "fakes/prices_server/faults.h"
#include "fakes/prices_server/page_cache.h"
#include "fakes/prices_server/price_api.h"
#include "fakes/prices_server/replay.h"
#include "ref/base/address.h"
#include "ref/base/files.h"
#include "ref/base/flags.h"
#include "ref/base/main_guard.h"
#include "ref/base/openssl.h"
#include "ref/base/paths.h"
#include "ref/status/status.h"
#include "ref/status/status_macros.h"
#include "ref/tls/runtime_ca.h"

namespace azure_pricing::fakes::prices {
namespace {

constexpr char kUsage[] =
    "usage: prices_server [--catalog FILE]... | --replay FILE\n"
    "                     [--listen HOST:PORT] [--tls-listen HOST:PORT] [--ca-dir DIR]\n"
    "                     [--faults FILE] [--page-cache-mib N]\n"
    "The fake prices.azure.com: GET /api/retail/prices as the real API answers it, from\n"
    "catalogs loaded at start, or from recorded exchanges. Listens on loopback only.\n"
    "  --catalog FILE     a page ({\"Items\": [...]}) or JSON Lines of items; repeatable\n"
    "  --replay FILE      JSON Lines of recorded exchanges, instead of catalogs:\n"
    "                     {\"target\": \"/api/retail/prices?...\", \"status\": 200, \"body\": \"...\"}\n"
    "                     (optionally \"content_type\"). A GET whose target (path and query,\n"
    "                     byte for byte) was recorded gets that answer, repeated targets in\n"
    "                     recorded order and then the last again; any other request gets 404\n"
    "                     with the API's error body and \"replay\": \"unmatched\" in the log\n"
    "  --listen ADDR      plain HTTP, e.g. 127.0.0.1:0 (port 0 picks one)\n"
    "  --tls-listen ADDR  HTTPS with a leaf for prices.azure.com, localhost and 127.0.0.1\n"
    "                     signed by a CA made at start and written to DIR/ca.pem\n"
    "  --ca-dir DIR       where ca.pem goes (required with --tls-listen)\n"
    "  --faults FILE      a JSON array of faults to serve first (same shape as the admin API)\n"
    "  --page-cache-mib N keep up to N MiB (0 to 65536, default 64, 0 keeps none) of whole\n"
    "                     answers by request target; a catalog is fixed once loaded, so a\n"
    "                     kept answer is the answer, byte for byte\n"
    "Once the files are loaded, DIR/ca.pem is written and every address is bound, each bound\n"
    "address is printed as one line: `http http://127.0.0.1:PORT` or\n"
    "`https https://127.0.0.1:PORT DIR/ca.pem`, then `ready`. Otherwise one line on stderr\n"
    "names the flag, the path or address and the reason, and the exit status is 1 (64 for\n"
    "the command line), with nothing on stdout.\n"
    "Admin (same listeners): GET /_admin/requests lists every request received as JSON\n"
    "(with --replay each API request has \"replay\": \"matched\" or \"unmatched\"; one no\n"
    "route served, such as another path or a method refused before routing, has\n"
    "\"routed\": false);\n"
    "POST /_admin/faults appends faults (a list with a bad one is refused whole, 400 with the\n"
    "reason); POST /_admin/reset (any body or none) clears requests and faults.\n"
    "A fault applies to the next API request, in order, `times` times (default 1):\n"
    "  {\"status\": 429, \"retry_after\": 2}   any status with the API's error body\n"
    "  {\"latency_ms\": 500}                 answer late\n"
    "  {\"reset\": true}                     the status line and head (Content-Length of the\n"
    "                                     whole body), then close before any body byte\n"
    "  {\"drop\": true}                      no answer at all: the connection ends with a TCP\n"
    "                                     reset before any byte\n"
    "  {\"truncate\": 100}                   send only the first N bytes of the body\n"
    "  {\"body\": \"...\"}                     send this body instead (invalid UTF-8 as \\u "
    "escapes\n"
    "                                     of bytes via \"body_hex\": \"c3 28\")\n"
    "  {\"next_page_link\": \"https://evil.example/...\"}   replace the page's NextPageLink\n"
    "  {\"endless_empty_pages\": true}       an empty page whose NextPageLink is itself, until a\n"
    "                                     reset (or `times` pages)\n"
    "  {\"page_size\": 6000}                 answer with pages of N items instead of 1,000\n";

struct State {
  Catalog catalog;
  std::unique_ptr<PageCache> cache;
  std::optional<Replay> replay;  // set: answers come from it, never from the catalog
  FaultQueue faults;
  std::mutex mu;  // guards `requests`
  Json requests = Json::array();
};

// `text` as JSON; nullopt with `problem` ("malformed JSON at line N") when it does not parse.
std::optional<Json> ParseJson(const std::string& text, std::string& problem) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    const size_t end = std::min<size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    const auto line =
        1 + std::count(text.begin(), text.begin() + static_cast<ptrdiff_t>(end), '\n');
    problem = "malformed JSON at line " + std::to_string(line);
    return std::nullopt;
  }
}

// Set by RecordRequest for the request this thread is serving, so the logger (which httplib
// calls for every response, routed or not) records only what no route recorded.
thread_local bool g_request_recorded = false;

// `replay_mark` ("matched", "unmatched") tells a replay test which requests were not recorded.
void RecordRequest(State& state, const httplib::Request& req,
                   std::optional<std::string_view> replay_mark) {
  g_request_recorded = true;
  std::lock_guard<std::mutex> lock(state.mu);
  Json headers = Json::object();
  for (const auto& [k, v] : req.headers) {
    if (k == "Host" || k == "User-Agent" || k == "Accept") headers[k] = v;
  }
  Json entry = {{"method", req.method}, {"target", req.target}, {"headers", headers}};
  if (replay_mark) entry["replay"] = *replay_mark;
  state.requests.push_back(std::move(entry));
}

// The recorded answer for `target`, or the API's 404 error body when nothing was recorded.
HttpResponse ReplayAnswer(State& state, const std::string& target, bool& matched) {
  std::optional<RecordedAnswer> recorded;
  {
    std::lock_guard<std::mutex> lock(state.mu);
    recorded = state.replay->Next(target);
  }
  matched = recorded.has_value();
  if (!recorded) {
    const Json body = {{"Error",
                        {{"Code", "NotFound"},
                         {"Message", "No recorded exchange matches this request (replay mode)"}}}};
    return {404, "application/json; charset=utf-8", body.dump()};
  }
  return {recorded->status, recorded->content_type, std::move(recorded->body)};
}

// The answer before any fault: recorded (with --replay), or the catalog's through the page cache.
std::shared_ptr<const HttpResponse> Answer(State& state, const httplib::Request& req,
                                           const std::optional<Json>& fault) {
  if (state.replay) {
    bool matched = false;
    auto answer = std::make_shared<const HttpResponse>(ReplayAnswer(state, req.target, matched));
    RecordRequest(state, req, matched ? "matched" : "unmatched");
    return answer;
  }
  RecordRequest(state, req, std::nullopt);
  return state.cache->Answer(state.catalog, req.target,
                             fault ? fault->value("page_size", kPageSize) : kPageSize);
}

void ServeApi(State& state, const httplib::Request& req, httplib::Response& res) {
  if (req.method != "GET") {
    RecordRequest(state, req, std::nullopt);
    res.status = 405;
    return;
  }
  std::optional<Json> fault = state.faults.Next();
  const std::shared_ptr<const HttpResponse> shared = Answer(state, req, fault);
  if (!fault) {
    res.status = shared->status;
    res.set_content(shared->body, shared->content_type);
    return;
  }
  // A copy: the cached answer stays as it is.
  ServeFaulted(state.faults, *fault, *shared, req, res);
}

// POST /_admin/reset: no faults queued and an empty request log; any body is ignored.
void Reset(State& state, httplib::Response& res) {
  state.faults.Clear();
  {
    std::lock_guard<std::mutex> lock(state.mu);
    state.requests = Json::array();
  }
  res.set_content("reset: no faults queued, no requests logged\n", "text/plain");
}

void Install(httplib::Server& server, State& state) {
  // httplib writes the head and the body apart: with Nagle's algorithm a small body waited for
  // the client's delayed ACK, 40 ms a page (the bytes sent do not change).
  server.set_tcp_nodelay(true);
  // httplib's default adds SO_REUSEPORT, with which a second server bound a busy port and took
  // a share of the first one's connections; SO_REUSEADDR alone lets a restart reuse the port.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  server.Get("/api/retail/prices",
             [&](const httplib::Request& q, httplib::Response& r) { ServeApi(state, q, r); });
  server.Post("/api/retail/prices",
              [&](const httplib::Request& q, httplib::Response& r) { ServeApi(state, q, r); });
  // A request no route takes (another path, or a method httplib refuses before routing, such
  // as a lower-case `get`) still reached this server: a test that asks "did anything but a GET
  // arrive?" must see it, so it is logged with "routed": false.
  server.set_logger([&](const httplib::Request& q, const httplib::Response&) {
    const bool recorded = std::exchange(g_request_recorded, false);
    if (recorded || q.path.rfind("/_admin/", 0) == 0) return;
    std::lock_guard<std::mutex> lock(state.mu);
    state.requests.push_back({{"method", q.method}, {"target", q.target}, {"routed", false}});
  });
  server.Get("/_admin/requests", [&](const httplib::Request&, httplib::Response& r) {
    std::lock_guard<std::mutex> lock(state.mu);
    r.set_content(state.requests.dump(), "application/json");
  });
  server.Post("/_admin/faults", [&](const httplib::Request& q, httplib::Response& r) {
    std::string error;
    const std::optional<Json> list = ParseJson(q.body, error);
    if (!list || !state.faults.Add(*list, error)) {
      r.status = 400;
      r.set_content(error, "text/plain");
    }
  });
  // A POST without a body and without Content-Length is refused by httplib with a bare 400
  // before any route; a reset needs no body, so a body-less one is taken here, ahead of that
  // check, and one with a body goes to the route (which reads it).
  server.set_pre_routing_handler([&](const httplib::Request& q, httplib::Response& r) {
    const bool bodyless =
        (!q.has_header("Content-Length") || q.get_header_value("Content-Length") == "0") &&
        !q.has_header("Transfer-Encoding");
    if (q.method != "POST" || q.path != "/_admin/reset" || !bodyless) {
      return httplib::Server::HandlerResponse::Unhandled;
    }
    Reset(state, r);
    return httplib::Server::HandlerResponse::Handled;
  });
  server.Post("/_admin/reset",
              [&](const httplib::Request&, httplib::Response& r) { Reset(state, r); });
}

// Reason codes of command-line problems this program adds to base::Flags' and ParseHostPort's.
constexpr char kNotLoopback[] = "address_not_loopback";
constexpr char kNoListener[] = "no_listener";
constexpr char kTlsWithoutCaDir[] = "tls_without_ca_dir";
constexpr char kCaDirWithoutTls[] = "ca_dir_without_tls";
constexpr char kReplayWithCatalog[] = "replay_with_catalog";
constexpr char kBadCacheSize[] = "bad_page_cache_size";

// 64 GiB: more than any machine here has, so a larger figure is a typo, not a wish.
constexpr size_t kMaxPageCacheMib = 65536;

struct Options {
  bool help = false;
  std::vector<std::string> catalogs;
  std::optional<std::string> listen, tls_listen;  // as given, for messages
  base::HostPort listen_address, tls_address;
  std::optional<std::string> ca_dir, faults_file, replay_file;
  size_t page_cache_mib = 64;
};

int Usage(const std::string& problem) {
  std::cerr << "prices_server: " << problem << "\n" << kUsage;
  return 64;
}

Status ReadLoopback(const std::string& flag, const std::string& text, base::HostPort& out,
                    std::string* problem) {
  StatusOr<base::HostPort> address = base::ParseHostPort(text);
  if (address.ok() && address->host != "127.0.0.1" && address->host != "localhost" &&
      address->host != "::1") {
    address = ProgramError(kNotLoopback, "the host is not a loopback address");
  }
  if (!address.ok()) {
    *problem = flag + " must be a loopback HOST:PORT (" + address.status().message() + ")";
    return address.status();
  }
  out = *address;
  return OkStatus();
}

// --page-cache-mib, when given, into `out`.
Status ReadPageCacheMib(const base::Flags& flags, size_t& out, std::string* problem) {
  const std::optional<std::string> mib = flags.Value("--page-cache-mib");
  if (!mib) return OkStatus();
  if (mib->empty() || mib->size() > 6 ||
      mib->find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(*mib) > kMaxPageCacheMib) {
    *problem = "--page-cache-mib must be a whole number from 0 to " +
               std::to_string(kMaxPageCacheMib) + " (MiB; 0 keeps none)";
    return ProgramError(kBadCacheSize, "--page-cache-mib is out of range");
  }
  out = std::stoul(*mib);
  return OkStatus();
}

// The command line as Options; on failure `problem` is the line to show.
StatusOr<Options> ParseFlags(int argc, char** argv, std::string* problem) {
  const StatusOr<base::Flags> flags =
      base::Flags::ParseOrExplain(argc, argv,
                                  {{"--help", base::FlagKind::kSwitch},
                                   {"-h", base::FlagKind::kSwitch},
                                   {"--catalog", base::FlagKind::kRepeatable},
                                   {"--replay", base::FlagKind::kValue},
                                   {"--listen", base::FlagKind::kValue},
                                   {"--tls-listen", base::FlagKind::kValue},
                                   {"--ca-dir", base::FlagKind::kValue},
                                   {"--faults", base::FlagKind::kValue},
                                   {"--page-cache-mib", base::FlagKind::kValue}},
                                  problem);
  if (!flags.ok()) return flags.status();
  Options o;
  o.help = flags->Has("--help") || flags->Has("-h");
  if (o.help) return o;
  // Under `bazel run` a relative path means the caller's directory, not the runfiles.
  const auto caller = [](std::optional<std::string> path) {
    if (path) path = base::CallerPath(*path);
    return path;
  };
  for (const std::string& catalog : flags->Values("--catalog")) {
    o.catalogs.push_back(base::CallerPath(catalog));
  }
  o.listen = flags->Value("--listen");
  o.tls_listen = flags->Value("--tls-listen");
  o.ca_dir = caller(flags->Value("--ca-dir"));
  o.faults_file = caller(flags->Value("--faults"));
  o.replay_file = caller(flags->Value("--replay"));
  RETURN_IF_ERROR(ReadPageCacheMib(*flags, o.page_cache_mib, problem));
  if (o.replay_file && !o.catalogs.empty()) {
    *problem = "--replay excludes --catalog (recorded answers or a catalog, not both)";
    return ProgramError(kReplayWithCatalog, "--replay excludes --catalog");
  }
  if (!o.listen && !o.tls_listen) {
    *problem = "give --listen or --tls-listen";
    return ProgramError(kNoListener, "no address to listen on");
  }
  if (o.tls_listen && !o.ca_dir) {
    *problem = "--tls-listen needs --ca-dir";
    return ProgramError(kTlsWithoutCaDir, "--tls-listen needs --ca-dir");
  }
  if (o.ca_dir && !o.tls_listen) {
    *problem = "--ca-dir is where --tls-listen's ca.pem goes; give it with --tls-listen";
    return ProgramError(kCaDirWithoutTls, "--ca-dir needs --tls-listen");
  }
  if (o.listen) {
    if (Status s = ReadLoopback("--listen", *o.listen, o.listen_address, problem); !s.ok())
      return s;
  }
  if (o.tls_listen) {
    if (Status s = ReadLoopback("--tls-listen", *o.tls_listen, o.tls_address, problem); !s.ok()) {
      return s;
    }
  }
  return o;
}

// The --replay file; false after one line on stderr naming the file, the line and the problem.
bool LoadReplay(const std::string& path, State& state) {
  StatusOr<std::string> text = base::ReadFile(path);
  if (!text.ok()) {
    std::cerr << "prices_server: cannot read --replay " << path << ": "
              << text.status().message() << "\n";
    return false;
  }
  ReplayLine where;
  StatusOr<Replay> replay = ParseReplay(*text, &where);
  if (!replay.ok()) {
    std::cerr << "prices_server: bad --replay " << path
              << (where.line > 0 ? ": line " + std::to_string(where.line) : std::string()) << ": "
              << replay.status().message() << "\n";
    return false;
  }
  state.replay = std::move(*replay);
  return true;
}

// The --faults file queued; false after one line on stderr naming the file and the problem.
bool LoadFaults(const std::string& path, State& state) {
  StatusOr<std::string> text = base::ReadFile(path);
  if (!text.ok()) {
    std::cerr << "prices_server: cannot read --faults " << path << ": " << text.status().message()
              << "\n";
    return false;
  }
  std::string error;
  const std::optional<Json> list = ParseJson(*text, error);
  if (!list || !state.faults.Add(*list, error)) {
    std::cerr << "prices_server: bad --faults " << path << ": " << error << "\n";
    return false;
  }
  return true;
}

// --ca-dir must be a directory this process can write ca.pem into; checked before anything
// listens, so `ready` is never printed for a CA that was not written.
bool CheckCaDir(const std::string& dir) {
  const Status exists = base::CheckExistingDirectory(dir);
  const std::string problem = !exists.ok() ? exists.message()
                              : access(dir.c_str(), W_OK | X_OK) != 0
                                  ? "the directory is not writable"
                                  : "";
  if (!problem.empty()) {
    std::cerr << "prices_server: cannot write ca.pem into --ca-dir " << dir << ": " << problem
              << "\n";
  }
  return problem.empty();
}

// Catalogs (or the replay), faults and the CA directory; false after one line on stderr.
bool Load(const Options& options, State& state) {
  if (options.replay_file && !LoadReplay(*options.replay_file, state)) return false;
  for (const std::string& path : options.catalogs) {
    StatusOr<std::string> text = base::ReadFile(path);
    std::string error;
    if (!text.ok()) {
      std::cerr << "prices_server: cannot read --catalog " << path << ": "
                << text.status().message() << "\n";
      return false;
    }
    if (!state.catalog.Add(*text, &error)) {
      std::cerr << "prices_server: bad --catalog " << path << ": " << error << "\n";
      return false;
    }
  }
  if (options.faults_file && !LoadFaults(*options.faults_file, state)) return false;
  return !options.tls_listen || CheckCaDir(*options.ca_dir);
}

// Binds `server` (port 0 picks one); the bound port, or -1.
template <typename Server>
int Bind(Server& server, const base::HostPort& address) {
  if (address.port == 0) return server.bind_to_any_port(address.host);
  return server.bind_to_port(address.host, address.port) ? address.port : -1;
}

// The HTTPS server with a fresh CA (its PEM in `ca_pem`, for the caller to write once the port
// is bound) and a leaf signed by it; nullptr after one line on stderr.
std::unique_ptr<httplib::SSLServer> MakeHttpsServer(std::string& ca_pem) {
  auto ca = azure_pricing::tls::MakeCa("azure-pricing-conformance fake prices.azure.com CA");
  auto leaf = ca ? azure_pricing::tls::IssueLeaf(*ca, {"prices.azure.com", "localhost"},
                                                 {"127.0.0.1", "::1"})
                 : std::nullopt;
  if (!leaf) {
    std::cerr << "prices_server: cannot make the test certificates\n";
    return nullptr;
  }
  const base::EvpPkeyPtr key = base::ReadPemKey(leaf->key_pem);
  const base::X509Ptr cert = base::ReadPemCert(leaf->cert_pem);
  auto https = std::make_unique<httplib::SSLServer>(cert.get(), key.get());
  if (!https->is_valid()) {
    std::cerr << "prices_server: TLS setup failed\n";
    return nullptr;
  }
  ca_pem = ca->cert_pem;
  return https;
}

// Binds `server` to `address` (port 0 picks one); the line announcing it, or nullopt after one
// line on stderr naming the flag and the address.
template <typename Server>
std::optional<std::string> BindOrExplain(Server& server, const char* flag,
                                         const std::string& given,
                                         const base::HostPort& address) {
  const int bound = Bind(server, address);
  if (bound < 0) {
    std::cerr << "prices_server: cannot listen on " << flag << " " << given
              << ": the address cannot be bound (in use, or not this machine's)\n";
    return std::nullopt;
  }
  // An IPv6 literal in a URL is bracketed: http://[::1]:8080.
  const bool v6 = address.host.find(':') != std::string::npos;
  return (v6 ? "[" + address.host + "]" : address.host) + ":" + std::to_string(bound);
}

// Everything a run promises (files read, CA written, sockets bound) before any line is printed,
// then the bound addresses and `ready`; a failure is one line on stderr and exit 1.
int Serve(const Options& options) {
  State state;
  state.cache = std::make_unique<PageCache>(options.page_cache_mib << 20);
  if (!Load(options, state)) return 1;
  std::unique_ptr<httplib::Server> http;
  std::unique_ptr<httplib::SSLServer> https;
  std::vector<std::string> lines;
  if (options.listen) {
    http = MakePlainServer();
    Install(*http, state);
    const auto bound = BindOrExplain(*http, "--listen", *options.listen, options.listen_address);
    if (!bound) return 1;
    lines.push_back("http http://" + *bound);
  }
  if (options.tls_listen) {
    const std::string ca_path = *options.ca_dir + "/ca.pem";
    std::string ca_pem;
    https = MakeHttpsServer(ca_pem);
    if (https == nullptr) return 1;
    Install(*https, state);
    const auto bound =
        BindOrExplain(*https, "--tls-listen", *options.tls_listen, options.tls_address);
    if (!bound) return 1;
    // Only a server that holds its port replaces ca.pem: a refused second start must not leave a
    // running server's clients with a CA that does not verify it.
    if (const Status written = base::WriteFileAtomically(ca_path, ca_pem); !written.ok()) {
      std::cerr << "prices_server: cannot write " << ca_path << " (--ca-dir): "
                << written.message() << "\n";
      return 1;
    }
    lines.push_back("https https://" + *bound + " " + ca_path);
  }
  std::vector<std::thread> threads;
  if (http) threads.emplace_back([&] { http->listen_after_bind(); });
  if (https) threads.emplace_back([&] { https->listen_after_bind(); });
  for (const std::string& line : lines) std::cout << line << "\n";
  std::cout << "ready" << std::endl;
  for (std::thread& t : threads) t.join();
  return 0;
}

int Main(int argc, char** argv) {
  // OpenSSL writes with plain write(): a client that hangs up mid-response (a CLI at its row
  // cap, a proxy at its idle timeout, a reset fault) must cost that connection, not the server.
  signal(SIGPIPE, SIG_IGN);
  std::string problem;
  const StatusOr<Options> options = ParseFlags(argc, argv, &problem);
  if (!options.ok()) return Usage(problem);
  if (options->help) {
    std::cout << kUsage;
    return 0;
  }
  return Serve(*options);
}

}  // namespace
}  // namespace azure_pricing::fakes::prices

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain(
      "prices_server", [&] { return azure_pricing::fakes::prices::Main(argc, argv); });
}
