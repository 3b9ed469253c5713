// prices_server: the fake prices.azure.com over HTTP and HTTPS, for tests on one machine.
#include <httplib.h>
#include <openssl/pem.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <deque>
#include <fstream>
#include <iostream>
#include <iterator>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "fakes/prices_server/price_api.h"
#include "ref/tls/test_ca.h"

namespace azure_pricing::fakes::prices {
namespace {

using Json = nlohmann::ordered_json;

constexpr char kUsage[] =
    "usage: prices_server [--catalog FILE]... [--listen HOST:PORT] [--tls-listen HOST:PORT]\n"
    "                     [--ca-dir DIR] [--faults FILE]\n"
    "The fake prices.azure.com: GET /api/retail/prices as the real API answers it, from\n"
    "catalogs loaded at start. Listens on loopback only.\n"
    "  --catalog FILE     a page ({\"Items\": [...]}) or JSON Lines of items; repeatable\n"
    "  --listen ADDR      plain HTTP, e.g. 127.0.0.1:0 (port 0 picks one)\n"
    "  --tls-listen ADDR  HTTPS with a leaf for prices.azure.com, localhost and 127.0.0.1\n"
    "                     signed by a CA made at start and written to DIR/ca.pem\n"
    "  --ca-dir DIR       where ca.pem goes (required with --tls-listen)\n"
    "  --faults FILE      a JSON array of faults to serve first (same shape as the admin API)\n"
    "Each bound address is printed as one line: `http http://127.0.0.1:PORT` or\n"
    "`https https://127.0.0.1:PORT DIR/ca.pem`, then `ready`.\n"
    "Admin (same listeners): GET /_admin/requests lists every request received as JSON;\n"
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
  std::mutex mu;
  std::deque<Fault> faults;
  Json requests = Json::array();
};

bool ParseAddress(const std::string& text, std::string& host, int& port) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos) return false;
  host = text.substr(0, colon);
  try {
    port = std::stoi(text.substr(colon + 1));
  } catch (...) {
    return false;
  }
  return (host == "127.0.0.1" || host == "localhost" || host == "::1") && port >= 0 && port < 65536;
}

std::optional<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

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
        "status", "retry_after", "latency_ms", "reset", "truncate", "body", "body_hex",
        "next_page_link", "endless_empty_pages", "page_size", "times"};
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

void ServeApi(State& state, const httplib::Request& req, httplib::Response& res) {
  {
    std::lock_guard<std::mutex> lock(state.mu);
    Json headers = Json::object();
    for (const auto& [k, v] : req.headers) {
      if (k == "Host" || k == "User-Agent" || k == "Accept") headers[k] = v;
    }
    state.requests.push_back(
        {{"method", req.method}, {"target", req.target}, {"headers", headers}});
  }
  if (req.method != "GET") {
    res.status = 405;
    return;
  }
  std::optional<Json> fault = NextFault(state);
  HttpResponse answer = HandlePrices(state.catalog, req.target,
                                     fault ? fault->value("page_size", kPageSize) : kPageSize);
  if (fault) {
    if (fault->contains("latency_ms")) {
      std::this_thread::sleep_for(std::chrono::milliseconds((*fault)["latency_ms"].get<int>()));
    }
    if (fault->contains("status")) {
      answer.status = (*fault)["status"].get<int>();
      answer.body = Json({{"Error", {{"Code", "Fault"}, {"Message", "Injected fault"}}}}).dump();
      if (fault->contains("retry_after")) {
        res.set_header("Retry-After", std::to_string((*fault)["retry_after"].get<int>()));
      }
    }
    if (fault->contains("body")) answer.body = (*fault)["body"].get<std::string>();
    if (fault->contains("body_hex")) answer.body = FromHex((*fault)["body_hex"].get<std::string>());
    if (fault->contains("next_page_link") && answer.status == 200) {
      Json page = Json::parse(answer.body, nullptr, false);
      if (!page.is_discarded()) {
        page["NextPageLink"] = (*fault)["next_page_link"];
        answer.body = page.dump();
      }
    }
    if (fault->value("endless_empty_pages", false)) {
      Json page = {{"BillingCurrency", "USD"},
                   {"CustomerEntityId", "Default"},
                   {"CustomerEntityType", "Retail"},
                   {"Items", Json::array()},
                   {"NextPageLink", std::string(kPublicBase) +
                                        req.target.substr(req.target.find('?') == std::string::npos
                                                              ? req.target.size()
                                                              : req.target.find('?'))},
                   {"Count", 0}};
      answer = {200, "application/json; charset=utf-8", page.dump()};
      // Without `times` it never ends (until a reset); with it, that many pages.
      if (!fault->contains("times")) {
        std::lock_guard<std::mutex> lock(state.mu);
        state.faults.push_front({*fault, 1});
      }
    }
    if (fault->value("reset", false) || fault->contains("truncate")) {
      const size_t keep = fault->value("reset", false)
                              ? 0
                              : std::min(answer.body.size(), (*fault)["truncate"].get<size_t>());
      const std::string body = answer.body;
      res.status = answer.status;
      res.set_content_provider(body.size(), answer.content_type,
                               [body, keep](size_t offset, size_t, httplib::DataSink& sink) {
                                 if (offset < keep) sink.write(body.data() + offset, keep - offset);
                                 return false;  // abort: the connection closes mid-body
                               });
      return;
    }
  }
  res.status = answer.status;
  res.set_content(answer.body, answer.content_type);
}

void Install(httplib::Server& server, State& state) {
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

int Main(int argc, char** argv) {
  // OpenSSL writes with plain write(): a client that hangs up mid-response (a CLI at its row
  // cap, a proxy at its idle timeout, a reset fault) must cost that connection, not the server.
  signal(SIGPIPE, SIG_IGN);
  std::vector<std::string> catalogs;
  std::optional<std::string> listen, tls_listen, ca_dir, faults_file;
  std::vector<std::string> args(argv + 1, argv + argc);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::optional<std::string>& out) {
      if (i + 1 >= args.size()) return false;
      out = args[++i];
      return true;
    };
    std::optional<std::string> v;
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--catalog" && value(v)) {
      catalogs.push_back(*v);
    } else if (a == "--listen" && value(listen)) {
    } else if (a == "--tls-listen" && value(tls_listen)) {
    } else if (a == "--ca-dir" && value(ca_dir)) {
    } else if (a == "--faults" && value(faults_file)) {
    } else {
      std::cerr << "prices_server: bad option " << a << "\n" << kUsage;
      return 64;
    }
  }
  if (!listen && !tls_listen) {
    std::cerr << "prices_server: give --listen or --tls-listen\n" << kUsage;
    return 64;
  }
  if (tls_listen && !ca_dir) {
    std::cerr << "prices_server: --tls-listen needs --ca-dir\n";
    return 64;
  }
  State state;
  for (const std::string& path : catalogs) {
    std::optional<std::string> text = ReadFile(path);
    std::string error;
    if (!text || !state.catalog.Add(*text, &error)) {
      std::cerr << "prices_server: cannot load catalog " << path << ": "
                << (text ? error : "unreadable") << "\n";
      return 1;
    }
  }
  if (faults_file) {
    std::optional<std::string> text = ReadFile(*faults_file);
    std::string error;
    Json list = text ? Json::parse(*text, nullptr, false) : Json();
    if (!text || list.is_discarded() || !AddFaults(state, list, error)) {
      std::cerr << "prices_server: bad --faults file\n";
      return 1;
    }
  }
  std::vector<std::thread> threads;
  std::unique_ptr<httplib::Server> http;
  std::unique_ptr<httplib::SSLServer> https;
  if (listen) {
    std::string host;
    int port = 0;
    if (!ParseAddress(*listen, host, port)) {
      std::cerr << "prices_server: --listen must be a loopback HOST:PORT\n";
      return 64;
    }
    http = std::make_unique<httplib::Server>();
    Install(*http, state);
    const int bound =
        port == 0 ? http->bind_to_any_port(host) : (http->bind_to_port(host, port) ? port : -1);
    if (bound < 0) {
      std::cerr << "prices_server: cannot bind " << *listen << "\n";
      return 1;
    }
    std::cout << "http http://" << host << ":" << bound << std::endl;
    threads.emplace_back([&] { http->listen_after_bind(); });
  }
  if (tls_listen) {
    std::string host;
    int port = 0;
    if (!ParseAddress(*tls_listen, host, port)) {
      std::cerr << "prices_server: --tls-listen must be a loopback HOST:PORT\n";
      return 64;
    }
    auto ca = azure_pricing::tls::MakeCa("azure-pricing-conformance fake prices.azure.com CA");
    auto leaf = ca ? azure_pricing::tls::IssueLeaf(*ca, {"prices.azure.com", "localhost"}, {"127.0.0.1", "::1"})
                   : std::nullopt;
    const std::string ca_path = *ca_dir + "/ca.pem";
    std::ofstream(ca_path) << (ca ? ca->cert_pem : "");
    if (!leaf) {
      std::cerr << "prices_server: cannot make the test certificates\n";
      return 1;
    }
    BIO* kb = BIO_new_mem_buf(leaf->key_pem.data(), static_cast<int>(leaf->key_pem.size()));
    BIO* cb = BIO_new_mem_buf(leaf->cert_pem.data(), static_cast<int>(leaf->cert_pem.size()));
    EVP_PKEY* key = PEM_read_bio_PrivateKey(kb, nullptr, nullptr, nullptr);
    X509* cert = PEM_read_bio_X509(cb, nullptr, nullptr, nullptr);
    BIO_free(kb);
    BIO_free(cb);
    https = std::make_unique<httplib::SSLServer>(cert, key);
    X509_free(cert);
    EVP_PKEY_free(key);
    if (!https->is_valid()) {
      std::cerr << "prices_server: TLS setup failed\n";
      return 1;
    }
    Install(*https, state);
    const int bound =
        port == 0 ? https->bind_to_any_port(host) : (https->bind_to_port(host, port) ? port : -1);
    if (bound < 0) {
      std::cerr << "prices_server: cannot bind " << *tls_listen << "\n";
      return 1;
    }
    std::cout << "https https://" << host << ":" << bound << " " << ca_path << std::endl;
    threads.emplace_back([&] { https->listen_after_bind(); });
  }
  std::cout << "ready" << std::endl;
  for (std::thread& t : threads) t.join();
  return 0;
}

}  // namespace
}  // namespace azure_pricing::fakes::prices

int main(int argc, char** argv) { return azure_pricing::fakes::prices::Main(argc, argv); }
