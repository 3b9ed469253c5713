// Requests per second and latency of the fake price API as a real HTTP server
// (//fakes/prices_server:prices_server, started as a child process) on a generated catalog
// (default 1,000,000 items), for an indexed filter that returns a full 1,000-item page and for a
// filter the indexes cannot answer (contains). The baseline, measured in the same run, is the
// same indexed request handled in process without sockets; the report gives the ratio.
//   tools/bazel run -c opt //tools/bench:prices_server_load -- [--items=N] [--seconds=S]
//                                                              [--connections=C]
#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "fakes/prices_server/catalog_generator.h"
#include "fakes/prices_server/price_api.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr char kIndexed[] =
    "/api/retail/prices?currencyCode=USD&$filter=priceType%20eq%20%27Consumption%27%20and%20"
    "serviceName%20eq%20%27Virtual%20Machines%27";
constexpr char kUnindexed[] =
    "/api/retail/prices?currencyCode=USD&$filter=contains(meterId,%27-00000001234%27)";

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

struct Load {
  size_t requests = 0, failures = 0;
  double seconds = 0;
  std::vector<double> latencies_ms;
};

Load Drive(int port, const char* target, int connections, double seconds) {
  std::vector<Load> per(static_cast<size_t>(connections));
  std::vector<std::thread> threads;
  const Clock::time_point start = Clock::now();
  for (int c = 0; c < connections; ++c) {
    threads.emplace_back([&, c] {
      httplib::Client client("127.0.0.1", port);
      client.set_keep_alive(true);
      client.set_read_timeout(120, 0);
      Load& mine = per[static_cast<size_t>(c)];
      while (Seconds(start) < seconds) {
        const Clock::time_point t = Clock::now();
        auto r = client.Get(target);
        mine.latencies_ms.push_back(Seconds(t) * 1000);
        ++mine.requests;
        if (!r || r->status != 200) ++mine.failures;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  Load all;
  all.seconds = Seconds(start);
  for (const Load& l : per) {
    all.requests += l.requests;
    all.failures += l.failures;
    all.latencies_ms.insert(all.latencies_ms.end(), l.latencies_ms.begin(), l.latencies_ms.end());
  }
  std::sort(all.latencies_ms.begin(), all.latencies_ms.end());
  return all;
}

double Percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const size_t i = std::min(sorted.size() - 1, static_cast<size_t>(p * static_cast<double>(sorted.size())));
  return sorted[i];
}

void Report(const char* what, const Load& l, int connections) {
  std::printf(
      "%-28s %6zu requests in %.1f s over %d connections: %8.1f req/s; latency p50 %.2f ms, "
      "p90 %.2f ms, p99 %.2f ms, max %.2f ms; %zu failed\n",
      what, l.requests, l.seconds, connections, static_cast<double>(l.requests) / l.seconds,
      Percentile(l.latencies_ms, 0.5), Percentile(l.latencies_ms, 0.9),
      Percentile(l.latencies_ms, 0.99), l.latencies_ms.empty() ? 0 : l.latencies_ms.back(),
      l.failures);
}

int Usage() {
  std::fprintf(stderr,
               "usage: prices_server_load [--items=N] [--seconds=S] [--connections=C]\n");
  return 2;
}

struct Options {
  int64_t items = 1'000'000;
  double seconds = 5;
  int connections = 2;
};

// `--name=value` flags, each at most once; nullopt (after the usage line) on anything else.
std::optional<Options> ParseFlags(int argc, char** argv) {
  Options o;
  std::set<std::string> seen;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const size_t eq = a.find('=');
    const std::string name = a.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : a.substr(eq + 1);
    char* end = nullptr;
    if (name != "--items" && name != "--seconds" && name != "--connections") {
      std::fprintf(stderr, "prices_server_load: unknown option %s\n", name.c_str());
      return std::nullopt;
    }
    if (!seen.insert(name).second) {
      std::fprintf(stderr, "prices_server_load: %s is given more than once\n", name.c_str());
      return std::nullopt;
    }
    if (value.empty()) {
      std::fprintf(stderr, "prices_server_load: %s needs a value (%s=N)\n", name.c_str(),
                   name.c_str());
      return std::nullopt;
    }
    if (name == "--items") o.items = std::strtoll(value.c_str(), &end, 10);
    if (name == "--seconds") o.seconds = std::strtod(value.c_str(), &end);
    if (name == "--connections") o.connections = static_cast<int>(std::strtol(value.c_str(), &end, 10));
    if (end == nullptr || *end != '\0') {
      std::fprintf(stderr, "prices_server_load: %s needs a number\n", name.c_str());
      return std::nullopt;
    }
  }
  if (o.items < 1 || o.seconds <= 0 || o.connections < 1) {
    std::fprintf(stderr, "prices_server_load: every value must be positive\n");
    return std::nullopt;
  }
  return o;
}

// One generated catalog, written for the server and indexed here for the baseline.
void WriteCatalog(int64_t items, const std::string& path,
                  azure_pricing::fakes::prices::Catalog& in_process) {
  std::ofstream out(path);
  std::string chunk;
  azure_pricing::fakes::prices::GenerateCatalog(
      17, static_cast<size_t>(items), [&](const std::string& line) {
        chunk += line;
        chunk += '\n';
        if (chunk.size() > (64 << 20)) {
          out << chunk;
          in_process.Add(chunk, nullptr);
          chunk.clear();
        }
      });
  out << chunk;
  in_process.Add(chunk, nullptr);
}

// Starts prices_server on the catalog; its pid and port, or pid -1.
std::pair<pid_t, int> StartServer(const std::string& catalog_path) {
  int out_pipe[2];
  if (pipe(out_pipe) != 0) return {-1, 0};
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out_pipe[1], 1);
    close(out_pipe[0]);
    const char* server = "fakes/prices_server/prices_server";
    execl(server, server, "--catalog", catalog_path.c_str(), "--listen", "127.0.0.1:0",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out_pipe[1]);
  std::string banner;
  char c;
  while (banner.find("ready\n") == std::string::npos && read(out_pipe[0], &c, 1) == 1) {
    banner.push_back(c);
  }
  close(out_pipe[0]);
  const size_t at = banner.find("http://127.0.0.1:");
  if (at == std::string::npos) {
    std::fprintf(stderr, "prices_server did not start: %s\n", banner.c_str());
    kill(pid, SIGTERM);
    return {-1, 0};
  }
  return {pid, std::atoi(banner.c_str() + at + std::strlen("http://127.0.0.1:"))};
}

// The same indexed request handled in process, one at a time, against the HTTP median.
void ReportBaseline(const azure_pricing::fakes::prices::Catalog& in_process, double seconds,
                    const Load& indexed, const Load& unindexed) {
  size_t n = 0;
  size_t body = 0;
  const Clock::time_point t = Clock::now();
  while (Seconds(t) < seconds) {
    body = azure_pricing::fakes::prices::HandlePrices(in_process, kIndexed).body.size();
    ++n;
  }
  const double in_process_ms = Seconds(t) * 1000 / static_cast<double>(n);
  const double http_p50 = Percentile(indexed.latencies_ms, 0.5);
  std::printf(
      "baseline: the indexed request in process takes %.2f ms (%zu-byte page); over HTTP its "
      "median is %.2f ms, %.2fx the in-process time\n",
      in_process_ms, body, http_p50, http_p50 / in_process_ms);
  std::printf("unindexed vs indexed median latency over HTTP: %.0fx\n",
              Percentile(unindexed.latencies_ms, 0.5) / http_p50);
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Options> options = ParseFlags(argc, argv);
  if (!options) return Usage();
  char dir_template[] = "/tmp/prices_server_load.XXXXXX";
  const char* dir = mkdtemp(dir_template);
  if (dir == nullptr) return 1;
  const std::string catalog_path = std::string(dir) + "/catalog.jsonl";
  Clock::time_point t = Clock::now();
  azure_pricing::fakes::prices::Catalog in_process;
  WriteCatalog(options->items, catalog_path, in_process);
  std::printf("catalog: %zu items generated, written and indexed in process in %.1f s\n",
              in_process.size(), Seconds(t));
  std::fflush(stdout);
  t = Clock::now();
  const auto [pid, port] = StartServer(catalog_path);
  if (pid < 0) return 1;
  std::printf("server: loaded and listening in %.1f s\n", Seconds(t));
  std::fflush(stdout);
  // Warm-up, then the two loads.
  Drive(port, kIndexed, 1, 0.5);
  const Load indexed = Drive(port, kIndexed, options->connections, options->seconds);
  Report("indexed filter, full page:", indexed, options->connections);
  std::fflush(stdout);
  const Load unindexed = Drive(port, kUnindexed, options->connections, options->seconds);
  Report("unindexed filter (contains):", unindexed, options->connections);
  ReportBaseline(in_process, options->seconds, indexed, unindexed);
  kill(pid, SIGTERM);
  waitpid(pid, nullptr, 0);
  std::remove(catalog_path.c_str());
  rmdir(dir);
  return indexed.failures + unindexed.failures == 0 ? 0 : 1;
}
