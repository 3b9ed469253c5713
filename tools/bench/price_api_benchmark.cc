// The fake price API's handler in process, without sockets, on a generated catalog (default
// 1,000,000 items; --items=N to change): a full 1,000-item page of an indexed filter and a filter
// the indexes cannot answer (contains), each against the handler before items were
// pre-serialised (price_api_oracle), measured in the same run.
//   tools/bazel run -c opt //tools/bench:price_api_benchmark -- [--items=N] [--rows]
// --rows prints one JSON object per measure (tools/bench/ROWS.md) instead of Google Benchmark's
// table.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>

#include "fakes/prices_server/catalog_generator.h"
#include "fakes/prices_server/price_api.h"
#include "fakes/prices_server/price_api_oracle.h"
#include "ref/base/main_guard.h"
#include "tools/bench/console_reporter.h"

namespace {

namespace prices = azure_pricing::fakes::prices;
using Clock = std::chrono::steady_clock;

constexpr char kIndexed[] =
    "/api/retail/prices?currencyCode=USD&$filter=priceType%20eq%20%27Consumption%27%20and%20"
    "serviceName%20eq%20%27Virtual%20Machines%27";
constexpr char kUnindexed[] =
    "/api/retail/prices?currencyCode=USD&$filter=contains(meterId,%27-00000001234%27)";

int64_t g_items = 1'000'000;

template <typename C>
const C& Shared(const char* what) {
  static const C* catalog = [what] {
    auto* c = new C();
    std::string text;
    const auto start = Clock::now();
    prices::GenerateCatalog(17, g_items, [&](const std::string& line) {
      text += line;
      text += '\n';
      if (text.size() > (64 << 20)) {
        c->Add(text, nullptr);
        text.clear();
      }
    });
    c->Add(text, nullptr);
    const double s = std::chrono::duration<double>(Clock::now() - start).count();
    std::fprintf(stderr, "%s: %zu items generated and loaded in %.1f s\n", what, c->size(), s);
    return c;
  }();
  return *catalog;
}

const prices::Catalog& Fast() { return Shared<prices::Catalog>("catalog"); }
const prices::oracle::Catalog& Before() {
  return Shared<prices::oracle::Catalog>("catalog for the handler before");
}

template <typename C, typename Handle>
void Run(benchmark::State& state, const C& catalog, const char* target, Handle handle) {
  size_t bytes = 0;
  for (auto _ : state) {
    prices::HttpResponse r = handle(catalog, target);
    bytes += r.body.size();
    benchmark::DoNotOptimize(r);
  }
  state.counters["body_bytes"] =
      static_cast<double>(bytes) / static_cast<double>(state.iterations());
}

prices::HttpResponse HandleFast(const prices::Catalog& c, const char* t) {
  return prices::HandlePrices(c, t);
}
prices::HttpResponse HandleBefore(const prices::oracle::Catalog& c, const char* t) {
  return prices::oracle::HandlePrices(c, t);
}

void BM_IndexedFilter(benchmark::State& s) { Run(s, Fast(), kIndexed, HandleFast); }
void BM_IndexedFilterBefore(benchmark::State& s) { Run(s, Before(), kIndexed, HandleBefore); }
void BM_UnindexedFilter(benchmark::State& s) { Run(s, Fast(), kUnindexed, HandleFast); }
void BM_UnindexedFilterBefore(benchmark::State& s) {
  Run(s, Before(), kUnindexed, HandleBefore);
}
BENCHMARK(BM_IndexedFilter)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_IndexedFilterBefore)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_UnindexedFilter)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_UnindexedFilterBefore)->Unit(benchmark::kMillisecond);

// Milliseconds per request, over at least `seconds` and 3 requests.
template <typename C, typename Handle>
double MsPerRequest(const C& catalog, const char* target, Handle handle, double seconds) {
  size_t n = 0;
  const Clock::time_point start = Clock::now();
  double elapsed = 0;
  while (n < 3 || elapsed < seconds) {
    benchmark::DoNotOptimize(handle(catalog, target));
    ++n;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  }
  return elapsed * 1000 / static_cast<double>(n);
}

double Round(double v) { return std::round(v * 1000) / 1000; }

// 1000000 as "1,000,000": the figures read as people write them.
std::string Grouped(size_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

void PrintRows() {
  const char* baseline =
      "the handler before this change (price_api_oracle: nlohmann items copied, edited and "
      "dumped per page, index lists intersected in full), same catalog, same run";
  const struct {
    const char* measure;
    const char* target;
  } cases[] = {
      {"fake price API in process: 1,000-item page of an indexed filter", kIndexed},
      {"fake price API in process: a filter the indexes cannot answer (contains, full scan)",
       kUnindexed},
  };
  for (const auto& c : cases) {
    const double fast = MsPerRequest(Fast(), c.target, HandleFast, 2);
    const double before = MsPerRequest(Before(), c.target, HandleBefore, 2);
    const nlohmann::ordered_json row = {
        {"measure", std::string(c.measure) + ", " + Grouped(Fast().size()) + " items"},
        {"figure", Round(fast)}, {"unit", "ms"}, {"baseline", baseline},
        {"baseline_figure", Round(before)}, {"ratio", std::round(before / fast * 100) / 100},
        {"ratio_meaning", "baseline / figure"},
        {"floor", "none in process (the floor is over HTTP: prices_server_load)"},
        {"verdict", "info"},
        {"note", std::to_string(prices::HandlePrices(Fast(), c.target).body.size()) +
                     "-byte answer"}};
    std::printf("%s\n", row.dump().c_str());
  }
}

}  // namespace

static int UnguardedMain(int argc, char** argv) {
  bool rows = false;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--items=", 8) == 0) {
      g_items = std::stoll(argv[i] + 8);
    } else if (std::strcmp(argv[i], "--rows") == 0) {
      rows = true;
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  if (rows) {
    PrintRows();
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  // Google Benchmark keeps the arguments it does not know; they are ours to refuse.
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 64;
  Fast();
  Before();
  azure_pricing::tools::bench::ConsoleReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("price_api_benchmark", [&] { return UnguardedMain(argc, argv); });
}
