// prices_server: the fake prices.azure.com over HTTP and HTTPS, for tests on one machine.
// httplib listens with a backlog of 5: under the stack's load test (16 lookups at a time) the
// kernel dropped connection attempts, which came back a second later as a latency tail.
#define CPPHTTPLIB_LISTEN_BACKLOG 128
#include <httplib.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <deque>
#include <fstream>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "fakes/prices_server/page_cache.h"
#include "fakes/prices_server/price_api.h"
#include "fakes/prices_server/replay.h"
#include "ref/base/address.h"
#include "ref/base/files.h"
#include "ref/base/flags.h"
#include "ref/base/openssl.h"
#include "ref/status/status.h"
#include "ref/tls/runtime_ca.h"

namespace azure_pricing::fakes::prices {
namespace {

using Json = nlohmann::ordered_json;

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
    "  --page-cache-mib N keep up to N MiB of whole answers by request target (default 64,\n"
    "                     0 keeps none); a catalog is fixed once loaded, so a kept answer is\n"
    "                     the answer, byte for byte\n"
    "Each bound address is printed as one line: `http http://127.0.0.1:PORT` or\n"
    "`https https://127.0.0.1:PORT DIR/ca.pem`, then `ready`.\n"
    "Admin (same listeners): GET /_admin/requests lists every request received as JSON\n"
    "(with --replay each API request has \"replay\": \"matched\" or \"unmatched\");\n"
    "POST /_admin/faults appends faults; POST /_admin/reset clears requests and faults.\n"
    "A fault applies to the next API request, in order, `times` times (default 1):\n"
    "  {\"status\": 429, \"retry_after\": 2}   any status with the API's error body\n"
    "  {\"latency_ms\": 500}                 answer late\n"
    "  {\"reset\": true}                     close the connection without an answer\n"
    "  {\"truncate\": 100}                   send only the first N bytes of the body\n"
    "  {\"body\": \"...\"}                     send this body instead (invalid UTF-8 as \\u "
    "escapes\n"
    "                                     of bytes via \"body_hex\": \"c3 28\")\n"
    "  {\"next_page_link\": \"https://evil.example/...\"}   replace the page's NextPageLink\n"
    "  {\"endless_empty_pages\": true}       an empty page whose NextPageLink is itself, until a\n"
    "                                     reset (or `times` pages)\n"
    "  {\"page_size\": 6000}                 answer with pages of N items instead of 1,000\n";

struct Fault {
  Json spec;
  int remaining = 1;
};

struct State {
  Catalog catalog;
  std::unique_ptr<PageCache> cache;
  std::optional<Replay> replay;  // set: answers come from it, never from the catalog
  std::mutex mu;
  std::deque<Fault> faults;
  Json requests = Json::array();
};

bool AddFaults(State& state, const Json& list, std::string& error) {
  if (!list.is_array()) {
    error = "faults must be a JSON array";
    return false;
  }
  std::lock_guard<std::mutex> lock(state.mu);
  for (const Json& f : list) {
    if (!f.is_object()) {
      error = "each fault must be an object";
      return false;
    }
    static const std::set<std::string> kKeys = {
        "status",   "retry_after",    "latency_ms",          "reset",     "truncate", "body",
        "body_hex", "next_page_link", "endless_empty_pages", "page_size", "times"};
    for (const auto& [key, value] : f.items()) {
      if (!kKeys.count(key)) {
        error = "unknown fault key: " + key;
        return false;
      }
    }
    if (f.contains("page_size") &&
        (!f["page_size"].is_number_integer() || f["page_size"].get<int64_t>() < 1 ||
         f["page_size"].get<int64_t>() > 1000000)) {
      error = "page_size must be an integer from 1 to 1000000";
      return false;
    }
    state.faults.push_back({f, f.value("times", 1)});
  }
  return true;
}

std::optional<Json> NextFault(State& state) {
  std::lock_guard<std::mutex> lock(state.mu);
  if (state.faults.empty()) return std::nullopt;
  Fault& f = state.faults.front();
  Json spec = f.spec;
  if (--f.remaining <= 0) state.faults.pop_front();
  return spec;
}

std::string FromHex(const std::string& hex) {
  std::string out;
  std::string digits;
  for (char c : hex) {
    if (std::isxdigit(static_cast<unsigned char>(c))) digits.push_back(c);
    if (digits.size() == 2) {
      out.push_back(static_cast<char>(std::stoi(digits, nullptr, 16)));
      digits.clear();
    }
  }
  return out;
}

// `replay_mark` ("matched", "unmatched") tells a replay test which requests were not recorded.
void RecordRequest(State& state, const httplib::Request& req,
                   std::optional<std::string_view> replay_mark) {
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

// An empty page whose NextPageLink is the same query again.
HttpResponse EndlessEmptyPage(const std::string& target) {
  const size_t question = target.find('?');
  Json page = {
      {"BillingCurrency", "USD"},
      {"CustomerEntityId", "Default"},
      {"CustomerEntityType", "Retail"},
      {"Items", Json::array()},
      {"NextPageLink", std::string(kPublicBase) +
                           target.substr(question == std::string::npos ? target.size() : question)},
      {"Count", 0}};
  return {200, "application/json; charset=utf-8", page.dump()};
}

// Rewrites `answer` as the fault says (latency, status, body, links, endless pages).
void ApplyFault(State& state, const Json& fault, const std::string& target, HttpResponse& answer,
                httplib::Response& res) {
  if (fault.contains("latency_ms")) {
    std::this_thread::sleep_for(std::chrono::milliseconds(fault["latency_ms"].get<int>()));
  }
  if (fault.contains("status")) {
    answer.status = fault["status"].get<int>();
    answer.body = Json({{"Error", {{"Code", "Fault"}, {"Message", "Injected fault"}}}}).dump();
    if (fault.contains("retry_after")) {
      res.set_header("Retry-After", std::to_string(fault["retry_after"].get<int>()));
    }
  }
  if (fault.contains("body")) answer.body = fault["body"].get<std::string>();
  if (fault.contains("body_hex")) answer.body = FromHex(fault["body_hex"].get<std::string>());
  if (fault.contains("next_page_link") && answer.status == 200) {
    Json page = Json::parse(answer.body, nullptr, false);
    if (!page.is_discarded()) {
      page["NextPageLink"] = fault["next_page_link"];
      answer.body = page.dump();
    }
  }
  if (fault.value("endless_empty_pages", false)) {
    answer = EndlessEmptyPage(target);
    // Without `times` it never ends (until a reset); with it, that many pages.
    if (!fault.contains("times")) {
      std::lock_guard<std::mutex> lock(state.mu);
      state.faults.push_front({fault, 1});
    }
  }
}

// A reset or truncate fault: the body stops after `keep` bytes and the connection closes.
void SendCut(const Json& fault, const HttpResponse& answer, httplib::Response& res) {
  const size_t keep = fault.value("reset", false)
                          ? 0
                          : std::min(answer.body.size(), fault["truncate"].get<size_t>());
  const std::string body = answer.body;
  res.status = answer.status;
  res.set_content_provider(body.size(), answer.content_type,
                           [body, keep](size_t offset, size_t, httplib::DataSink& sink) {
                             if (offset < keep) sink.write(body.data() + offset, keep - offset);
                             return false;  // abort: the connection closes mid-body
                           });
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
  std::optional<Json> fault = NextFault(state);
  const std::shared_ptr<const HttpResponse> shared = Answer(state, req, fault);
  if (!fault) {
    res.status = shared->status;
    res.set_content(shared->body, shared->content_type);
    return;
  }
  HttpResponse answer = *shared;  // the cached answer stays as it is
  ApplyFault(state, *fault, req.target, answer, res);
  if (fault->value("reset", false) || fault->contains("truncate")) {
    SendCut(*fault, answer, res);
    return;
  }
  res.status = answer.status;
  res.set_content(answer.body, answer.content_type);
}

void Install(httplib::Server& server, State& state) {
  // httplib writes the head and the body apart: with Nagle's algorithm a small body waited for
  // the client's delayed ACK, 40 ms a page (the bytes sent do not change).
  server.set_tcp_nodelay(true);
  server.Get("/api/retail/prices",
             [&](const httplib::Request& q, httplib::Response& r) { ServeApi(state, q, r); });
  server.Post("/api/retail/prices",
              [&](const httplib::Request& q, httplib::Response& r) { ServeApi(state, q, r); });
  server.Get("/_admin/requests", [&](const httplib::Request&, httplib::Response& r) {
    std::lock_guard<std::mutex> lock(state.mu);
    r.set_content(state.requests.dump(), "application/json");
  });
  server.Post("/_admin/faults", [&](const httplib::Request& q, httplib::Response& r) {
    std::string error;
    Json list = Json::parse(q.body, nullptr, false);
    if (list.is_discarded() || !AddFaults(state, list, error)) {
      r.status = 400;
      r.set_content(error.empty() ? "faults must be JSON" : error, "text/plain");
    }
  });
  server.Post("/_admin/reset", [&](const httplib::Request&, httplib::Response&) {
    std::lock_guard<std::mutex> lock(state.mu);
    state.faults.clear();
    state.requests = Json::array();
  });
}

// Reason codes of command-line problems this program adds to base::Flags' and ParseHostPort's.
constexpr char kNotLoopback[] = "address_not_loopback";
constexpr char kNoListener[] = "no_listener";
constexpr char kTlsWithoutCaDir[] = "tls_without_ca_dir";
constexpr char kReplayWithCatalog[] = "replay_with_catalog";
constexpr char kBadCacheSize[] = "bad_page_cache_size";

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
    address = Status(Outcome::kRefused, kNotLoopback, "the host is not a loopback address");
  }
  if (!address.ok()) {
    *problem = flag + " must be a loopback HOST:PORT (" + address.status().message() + ")";
    return address.status();
  }
  out = *address;
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
  o.catalogs = flags->Values("--catalog");
  o.listen = flags->Value("--listen");
  o.tls_listen = flags->Value("--tls-listen");
  o.ca_dir = flags->Value("--ca-dir");
  o.faults_file = flags->Value("--faults");
  o.replay_file = flags->Value("--replay");
  if (const std::optional<std::string> mib = flags->Value("--page-cache-mib")) {
    if (mib->empty() || mib->size() > 6 || mib->find_first_not_of("0123456789") != std::string::npos) {
      *problem = "--page-cache-mib must be a whole number of MiB (0 keeps none)";
      return Status(Outcome::kRefused, kBadCacheSize, "--page-cache-mib is not a number");
    }
    o.page_cache_mib = std::stoul(*mib);
  }
  if (o.replay_file && !o.catalogs.empty()) {
    *problem = "--replay excludes --catalog (recorded answers or a catalog, not both)";
    return Status(Outcome::kRefused, kReplayWithCatalog, "--replay excludes --catalog");
  }
  if (!o.listen && !o.tls_listen) {
    *problem = "give --listen or --tls-listen";
    return Status(Outcome::kRefused, kNoListener, "no address to listen on");
  }
  if (o.tls_listen && !o.ca_dir) {
    *problem = "--tls-listen needs --ca-dir";
    return Status(Outcome::kRefused, kTlsWithoutCaDir, "--tls-listen needs --ca-dir");
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

// Catalogs (or the replay) and faults from the files given; false after one line on stderr.
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
      std::cerr << "prices_server: cannot load catalog " << path << ": " << error << "\n";
      return false;
    }
  }
  if (!options.faults_file) return true;
  StatusOr<std::string> text = base::ReadFile(*options.faults_file);
  if (!text.ok()) {
    std::cerr << "prices_server: cannot read --faults " << *options.faults_file << ": "
              << text.status().message() << "\n";
    return false;
  }
  std::string error;
  Json list = Json::parse(*text, nullptr, false);
  if (list.is_discarded() || !AddFaults(state, list, error)) {
    std::cerr << "prices_server: bad --faults file\n";
    return false;
  }
  return true;
}

// Binds `server` (port 0 picks one); the bound port, or -1.
template <typename Server>
int Bind(Server& server, const base::HostPort& address) {
  if (address.port == 0) return server.bind_to_any_port(address.host);
  return server.bind_to_port(address.host, address.port) ? address.port : -1;
}

// The HTTPS server with a fresh CA (written to DIR/ca.pem) and a leaf signed by it.
std::unique_ptr<httplib::SSLServer> MakeHttpsServer(const std::string& ca_path) {
  auto ca = azure_pricing::tls::MakeCa("azure-pricing-conformance fake prices.azure.com CA");
  auto leaf = ca ? azure_pricing::tls::IssueLeaf(*ca, {"prices.azure.com", "localhost"},
                                                 {"127.0.0.1", "::1"})
                 : std::nullopt;
  std::ofstream(ca_path) << (ca ? ca->cert_pem : "");
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
  return https;
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
  State state;
  state.cache = std::make_unique<PageCache>(options->page_cache_mib << 20);
  if (!Load(*options, state)) return 1;
  std::vector<std::thread> threads;
  std::unique_ptr<httplib::Server> http;
  std::unique_ptr<httplib::SSLServer> https;
  if (options->listen) {
    http = std::make_unique<httplib::Server>();
    Install(*http, state);
    const int bound = Bind(*http, options->listen_address);
    if (bound < 0) {
      std::cerr << "prices_server: cannot bind " << *options->listen << "\n";
      return 1;
    }
    std::cout << "http http://" << options->listen_address.host << ":" << bound << std::endl;
    threads.emplace_back([&] { http->listen_after_bind(); });
  }
  if (options->tls_listen) {
    const std::string ca_path = *options->ca_dir + "/ca.pem";
    https = MakeHttpsServer(ca_path);
    if (https == nullptr) return 1;
    Install(*https, state);
    const int bound = Bind(*https, options->tls_address);
    if (bound < 0) {
      std::cerr << "prices_server: cannot bind " << *options->tls_listen << "\n";
      return 1;
    }
    std::cout << "https https://" << options->tls_address.host << ":" << bound << " " << ca_path
              << std::endl;
    threads.emplace_back([&] { https->listen_after_bind(); });
  }
  std::cout << "ready" << std::endl;
  for (std::thread& t : threads) t.join();
  return 0;
}

}  // namespace
}  // namespace azure_pricing::fakes::prices

int main(int argc, char** argv) { return azure_pricing::fakes::prices::Main(argc, argv); }
