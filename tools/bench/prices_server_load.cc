// Requests per second, latency and peak memory of the fake price API as a real HTTP server
// (//fakes/prices_server:prices_server, started as a child process) on a generated catalog
// (default 1,000,000 items), for an indexed filter that returns a full 1,000-item page, over
// keep-alive connections (default 2). The baseline, measured in the same run, is the same server
// with its page cache off (--page-cache-mib 0): every request then matches and splices its page.
// The two servers' pages are compared byte for byte. Memory is the server's peak resident set
// (VmHWM) after loading the catalog and serving.
//   tools/bazel run -c opt //tools/bench:prices_server_load -- [--items=N] [--seconds=S]
//                                                              [--connections=C] [--rows]
// --rows prints one JSON object per measure (tools/bench/ROWS.md) and the rest on stderr.
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "fakes/prices_server/catalog_generator.h"
#include "ref/base/main_guard.h"
#include "ref/base/ready_child.h"
#include "tools/bench/rows.h"

namespace {

using Clock = std::chrono::steady_clock;
using Json = nlohmann::ordered_json;

constexpr char kIndexed[] =
    "/api/retail/prices?currencyCode=USD&$filter=priceType%20eq%20%27Consumption%27%20and%20"
    "serviceName%20eq%20%27Virtual%20Machines%27";
constexpr char kUnindexed[] =
    "/api/retail/prices?currencyCode=USD&$filter=contains(meterId,%27-00000001234%27)";
constexpr int kIoTimeoutSeconds = 60;
constexpr int kStartTimeoutMs = 600'000;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

// Progress and the human report go to stdout, or to stderr when stdout carries rows.
FILE* g_out = stdout;

// A keep-alive HTTP/1.1 client on a plain socket, reading with a large buffer: the load driver
// shares the machine with the server, so it must cost little per response. Every read and write
// has a deadline (SO_RCVTIMEO, SO_SNDTIMEO).
class HttpConnection {
 public:
  explicit HttpConnection(int port) : port_(port) {}
  ~HttpConnection() { Close(); }
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  // One GET: the status (0 when the exchange failed); the body in `keep` when given.
  int Get(const std::string& target, std::string* keep) {
    if (fd_ < 0 && !Connect()) return 0;
    const std::string request =
        "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port_) + "\r\n\r\n";
    if (send(fd_, request.data(), request.size(), MSG_NOSIGNAL) !=
        static_cast<ssize_t>(request.size())) {
      Close();
      return 0;
    }
    const int status = ReadResponse(keep);
    if (status == 0 || close_after_) Close();
    return status;
  }

 private:
  bool Connect() {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) return false;
    const timeval timeout{kIoTimeoutSeconds, 0};
    const int one = 1;
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port_));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
      Close();
      return false;
    }
    return true;
  }

  void Close() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

  // Reads the head and exactly Content-Length bytes of body; the status, or 0.
  int ReadResponse(std::string* keep) {
    std::string head;
    size_t head_end;
    while ((head_end = head.find("\r\n\r\n")) == std::string::npos) {
      const ssize_t n = recv(fd_, buffer_.data(), buffer_.size(), 0);
      if (n <= 0 || head.size() > 65536) return 0;
      head.append(buffer_.data(), static_cast<size_t>(n));
    }
    std::string lower = head.substr(0, head_end);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
      return static_cast<char>(std::tolower(c));
    });
    const size_t length_at = lower.find("\r\ncontent-length:");
    if (lower.rfind("http/1.1 ", 0) != 0 || length_at == std::string::npos) return 0;
    const size_t length = std::strtoull(lower.c_str() + length_at + 17, nullptr, 10);
    close_after_ = lower.find("\r\nconnection: close") != std::string::npos;
    std::string body = head.substr(head_end + 4);
    size_t got = body.size();
    if (keep == nullptr) body.clear();
    while (got < length) {
      const ssize_t n = recv(fd_, buffer_.data(), std::min(buffer_.size(), length - got), 0);
      if (n <= 0) return 0;
      if (keep != nullptr) body.append(buffer_.data(), static_cast<size_t>(n));
      got += static_cast<size_t>(n);
    }
    if (got != length) return 0;  // more than announced
    if (keep != nullptr) *keep = std::move(body);
    return std::atoi(lower.c_str() + 9);
  }

  const int port_;
  int fd_ = -1;
  bool close_after_ = false;
  std::vector<char> buffer_ = std::vector<char>(1 << 20);
};

struct Load {
  size_t requests = 0, failures = 0;
  double seconds = 0;
  std::vector<double> latencies_ms;
  std::string first_body;
};

// `connections` clients, each sending the next request when the last answer is read.
Load Drive(int port, const char* target, int connections, double seconds) {
  std::vector<Load> per(static_cast<size_t>(connections));
  std::vector<std::thread> threads;
  const Clock::time_point start = Clock::now();
  for (int c = 0; c < connections; ++c) {
    threads.emplace_back([&, c] {
      HttpConnection connection(port);
      Load& mine = per[static_cast<size_t>(c)];
      while (Seconds(start) < seconds) {
        const Clock::time_point t = Clock::now();
        const int status = connection.Get(target, mine.requests == 0 ? &mine.first_body : nullptr);
        mine.latencies_ms.push_back(Seconds(t) * 1000);
        ++mine.requests;
        if (status != 200) ++mine.failures;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  Load all;
  all.seconds = Seconds(start);
  for (Load& l : per) {
    all.requests += l.requests;
    all.failures += l.failures;
    all.latencies_ms.insert(all.latencies_ms.end(), l.latencies_ms.begin(), l.latencies_ms.end());
    if (all.first_body.empty()) all.first_body = std::move(l.first_body);
  }
  std::sort(all.latencies_ms.begin(), all.latencies_ms.end());
  return all;
}

double Percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const size_t i =
      std::min(sorted.size() - 1, static_cast<size_t>(p * static_cast<double>(sorted.size())));
  return sorted[i];
}

double Rate(const Load& l) { return static_cast<double>(l.requests) / l.seconds; }

void Report(const char* what, const Load& l, int connections) {
  std::fprintf(g_out,
               "%-36s %6zu requests in %.1f s over %d connections: %8.1f req/s; latency p50 "
               "%.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms; %zu failed\n",
               what, l.requests, l.seconds, connections, Rate(l), Percentile(l.latencies_ms, 0.5),
               Percentile(l.latencies_ms, 0.9), Percentile(l.latencies_ms, 0.99),
               l.latencies_ms.empty() ? 0 : l.latencies_ms.back(), l.failures);
  std::fflush(g_out);
}

int Usage() {
  std::fprintf(stderr,
               "usage: prices_server_load [--items=N] [--seconds=S] [--connections=C] [--rows]\n");
  return 64;
}

struct Options {
  int64_t items = 1'000'000;
  double seconds = 5;
  int connections = 2;
  bool rows = false;
};

// `--name=value` flags and `--rows`, each at most once; nullopt (after one line) on anything else.
std::optional<Options> ParseFlags(int argc, char** argv) {
  Options o;
  std::set<std::string> seen;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const size_t eq = a.find('=');
    const std::string name = a.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : a.substr(eq + 1);
    char* end = nullptr;
    if (!seen.insert(name).second) {
      std::fprintf(stderr, "prices_server_load: %s is given more than once\n", name.c_str());
      return std::nullopt;
    }
    if (a == "--rows") {
      o.rows = true;
      continue;
    }
    if (name != "--items" && name != "--seconds" && name != "--connections") {
      std::fprintf(stderr, "prices_server_load: unknown option %s\n", a.c_str());
      return std::nullopt;
    }
    if (name == "--items") o.items = std::strtoll(value.c_str(), &end, 10);
    if (name == "--seconds") o.seconds = std::strtod(value.c_str(), &end);
    if (name == "--connections") o.connections = static_cast<int>(std::strtol(value.c_str(), &end, 10));
    if (value.empty() || end == nullptr || *end != '\0') {
      std::fprintf(stderr, "prices_server_load: %s needs a number (%s=N)\n", name.c_str(),
                   name.c_str());
      return std::nullopt;
    }
  }
  if (o.items < 1 || o.seconds <= 0 || o.connections < 1) {
    std::fprintf(stderr, "prices_server_load: every value must be positive\n");
    return std::nullopt;
  }
  return o;
}

// A generated catalog (seed 17) written for the server; its size in bytes, or 0.
size_t WriteCatalog(int64_t items, const std::string& path) {
  std::ofstream out(path);
  size_t bytes = 0;
  azure_pricing::fakes::prices::GenerateCatalog(17, items, [&](const std::string& line) {
    out << line << '\n';
    bytes += line.size() + 1;
  });
  out.close();
  return out ? bytes : 0;
}

struct Server {
  std::unique_ptr<azure_pricing::base::ReadyChild> child;  // stopped and reaped when it goes
  int port = 0;
  pid_t pid() const { return child->pid(); }
};

void Stop(Server& server) { server = Server(); }

// Starts prices_server on the catalog with the page cache of `cache_mib`; port 0 when it did not
// start, said on stderr.
Server StartServer(const std::string& catalog_path, const std::string& cache_mib) {
  azure_pricing::base::ReadyChildSpec spec;
  spec.argv = {"fakes/prices_server/prices_server", "--catalog", catalog_path, "--listen",
               "127.0.0.1:0", "--page-cache-mib", cache_mib};
  spec.timeout = std::chrono::milliseconds(kStartTimeoutMs);
  std::string banner;
  auto child = azure_pricing::base::ReadyChild::Start(spec, &banner);
  const auto port = child.ok() ? (*child)->BannerLine("http http://127.0.0.1:") : std::nullopt;
  if (!port.has_value()) {
    std::fprintf(stderr, "prices_server did not start: %s\n", banner.c_str());
    return {};
  }
  return {std::move(*child), std::atoi(port->c_str())};
}

using azure_pricing::tools::bench::PeakRssMiB;

// Rounded to `unit` (0.1, 0.01, ...) and printed as such: dividing by 1/unit, not multiplying by
// unit, keeps 8.7 from printing as 8.700000000000001.
double Round(double v, double unit) {
  const double scale = std::round(1 / unit);
  return std::round(v * scale) / scale;
}

// 1000000 as "1,000,000", as the issue writes it.
std::string Grouped(int64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

std::string Fixed(double v, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

struct Measured {
  Load cached, uncached, unindexed;
  double peak_mib = 0, catalog_mib = 0, load_seconds = 0;
  int64_t items = 0;
  int connections = 0;
};

void PrintRows(const Measured& m) {
  const double fig = Rate(m.cached), base = Rate(m.uncached);
  const double p99 = Percentile(m.cached.latencies_ms, 0.99);
  const double base_p99 = Percentile(m.uncached.latencies_ms, 0.99);
  const std::string shape = "1,000-item page of an indexed filter, " + Grouped(m.items) +
                            " items, " + std::to_string(m.connections) + " connections";
  const std::string baseline =
      "the same server with its page cache off (--page-cache-mib 0): each request matches and "
      "splices its page from item texts made at load";
  char note[256];
  std::snprintf(note, sizeof note, "p99 %.2f ms (baseline p99 %.2f ms); %zu requests, %zu failed",
                p99, base_p99, m.cached.requests, m.cached.failures + m.uncached.failures);
  const bool fast = fig >= 2000 && p99 < 20 && m.cached.failures == 0;
  const Json rows[] = {
      {{"measure", "fake price API: " + shape}, {"figure", Round(fig, 0.1)}, {"unit", "req/s"},
       {"baseline", baseline}, {"baseline_figure", Round(base, 0.1)},
       {"ratio", Round(fig / base, 0.01)}, {"ratio_meaning", "figure / baseline"},
       {"floor", ">= 2000 req/s and p99 < 20 ms"}, {"verdict", fast ? "met" : "missed"},
       {"note", note}},
      {{"measure", "fake price API: p99 latency of the " + shape}, {"figure", Round(p99, 0.01)},
       {"unit", "ms"}, {"baseline", baseline}, {"baseline_figure", Round(base_p99, 0.01)},
       {"ratio", Round(base_p99 / p99, 0.01)}, {"ratio_meaning", "baseline / figure"},
       {"floor", "< 20 ms"}, {"verdict", p99 < 20 ? "met" : "missed"},
       {"note", "p50 " + Fixed(Percentile(m.cached.latencies_ms, 0.5), 2) + " ms"}},
      {{"measure", "fake price API: peak resident set holding " + Grouped(m.items) +
                       " items (VmHWM of the server process, after loading and serving)"},
       {"figure", Round(m.peak_mib, 0.1)}, {"unit", "MiB"},
       {"baseline", "the catalog file's size (JSON Lines)"},
       {"baseline_figure", Round(m.catalog_mib, 0.1)},
       {"ratio", Round(m.peak_mib / m.catalog_mib, 0.01)},
       {"ratio_meaning", "figure / baseline"}, {"floor", "< 1536 MiB (1.5 GiB)"},
       {"verdict", m.peak_mib > 0 && m.peak_mib < 1536 ? "met" : "missed"},
       {"note", "loaded and listening in " + Fixed(m.load_seconds, 1) + " s"}},
  };
  for (const Json& row : rows) std::printf("%s\n", row.dump().c_str());
}

void PrintHuman(const Measured& m) {
  const double ratio = Rate(m.cached) / Rate(m.uncached);
  std::fprintf(g_out, "page cache on vs off: %.1fx the requests per second\n", ratio);
  std::fprintf(g_out,
               "server peak resident set (VmHWM): %.0f MiB for %lld items (catalog file %.0f "
               "MiB)\n",
               m.peak_mib, static_cast<long long>(m.items), m.catalog_mib);
}

}  // namespace

static int UnguardedMain(int argc, char** argv) {
  const std::optional<Options> options = ParseFlags(argc, argv);
  if (!options) return Usage();
  if (options->rows) g_out = stderr;
  char dir_template[] = "/tmp/prices_server_load.XXXXXX";
  const char* dir = mkdtemp(dir_template);
  if (dir == nullptr) return 1;
  const std::string catalog_path = std::string(dir) + "/catalog.jsonl";
  Measured m;
  m.items = options->items;
  m.connections = options->connections;
  Clock::time_point t = Clock::now();
  m.catalog_mib = static_cast<double>(WriteCatalog(options->items, catalog_path)) / (1 << 20);
  std::fprintf(g_out, "catalog: %lld items generated and written (%.0f MiB) in %.1f s\n",
               static_cast<long long>(options->items), m.catalog_mib, Seconds(t));
  t = Clock::now();
  Server server = StartServer(catalog_path, "64");
  m.load_seconds = Seconds(t);
  if (server.port > 0) {
    std::fprintf(g_out, "server (page cache 64 MiB): loaded and listening in %.1f s, %.0f MiB\n",
                 m.load_seconds, PeakRssMiB(server.pid()));
    Drive(server.port, kIndexed, 1, 0.5);  // warm-up
    m.cached = Drive(server.port, kIndexed, options->connections, options->seconds);
    Report("indexed filter, full page, cached:", m.cached, options->connections);
    m.peak_mib = PeakRssMiB(server.pid());
  }
  Stop(server);
  server = StartServer(catalog_path, "0");
  if (server.port > 0) {
    Drive(server.port, kIndexed, 1, 0.5);
    m.uncached = Drive(server.port, kIndexed, options->connections, options->seconds);
    Report("indexed filter, full page, no cache:", m.uncached, options->connections);
    m.unindexed = Drive(server.port, kUnindexed, options->connections, options->seconds);
    Report("unindexed (contains), no cache:", m.unindexed, options->connections);
  }
  Stop(server);
  std::remove(catalog_path.c_str());
  rmdir(dir);
  const bool same = !m.cached.first_body.empty() && m.cached.first_body == m.uncached.first_body;
  std::fprintf(g_out, "pages with and without the cache: %s (%zu bytes)\n",
               same ? "identical" : "DIFFERENT", m.cached.first_body.size());
  if (m.cached.requests == 0 || m.uncached.requests == 0) return 1;
  PrintHuman(m);
  if (options->rows) PrintRows(m);
  const size_t failed = m.cached.failures + m.uncached.failures + m.unindexed.failures;
  return failed == 0 && same ? 0 : 1;
}

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("prices_server_load", [&] { return UnguardedMain(argc, argv); });
}
