// The fake price API on a generated catalog (default 1,000,000 items; --items=N to change):
// indexed equality filters against a filter the indexes cannot answer (contains), measured in the
// same run, with the ratio printed at the end. In process, without sockets: this measures the
// fake's own work per request.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "fakes/prices_server/catalog_generator.h"
#include "fakes/prices_server/price_api.h"

namespace {

int64_t g_items = 1'000'000;

const azure_pricing::fakes::prices::Catalog& SharedCatalog() {
  static const azure_pricing::fakes::prices::Catalog* catalog = [] {
    auto* c = new azure_pricing::fakes::prices::Catalog();
    std::string text;
    const auto start = std::chrono::steady_clock::now();
    azure_pricing::fakes::prices::GenerateCatalog(17, g_items, [&](const std::string& line) {
      text += line;
      text += '\n';
      if (text.size() > (64 << 20)) {
        c->Add(text, nullptr);
        text.clear();
      }
    });
    c->Add(text, nullptr);
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "catalog: %zu items generated and indexed in %.1f s\n", c->size(), s);
    return c;
  }();
  return *catalog;
}

double g_indexed_ns = 0, g_scan_ns = 0;

void Run(benchmark::State& state, const char* target, double* out) {
  const auto& catalog = SharedCatalog();
  size_t bytes = 0;
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    azure_pricing::fakes::prices::HttpResponse r = azure_pricing::fakes::prices::HandlePrices(catalog, target);
    bytes += r.body.size();
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["body_bytes"] =
      static_cast<double>(bytes) / static_cast<double>(state.iterations());
  // Per-request wall time, for the ratio printed at exit.
  const double ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  if (state.iterations() > 0) *out = ns / static_cast<double>(state.iterations());
}

void BM_IndexedFilter(benchmark::State& state) {
  Run(state,
      "/api/retail/prices?currencyCode=USD&$filter=armSkuName%20eq%20%27Standard_D8s_v5%27%20and%20"
      "armRegionName%20eq%20%27westeurope%27%20and%20priceType%20eq%20%27Consumption%27",
      &g_indexed_ns);
}
BENCHMARK(BM_IndexedFilter)->Unit(benchmark::kMillisecond);

void BM_UnindexedFilter(benchmark::State& state) {
  Run(state, "/api/retail/prices?currencyCode=USD&$filter=contains(meterId,%27-00000001234%27)",
      &g_scan_ns);
}
BENCHMARK(BM_UnindexedFilter)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--items=", 8) == 0) g_items = std::stoll(argv[i] + 8);
  }
  benchmark::Initialize(&argc, argv);
  SharedCatalog();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (g_indexed_ns > 0 && g_scan_ns > 0) {
    std::printf(
        "indexed filter: %.3f ms per request; full scan: %.1f ms; indexes are %.0fx faster\n",
        g_indexed_ns / 1e6, g_scan_ns / 1e6, g_scan_ns / g_indexed_ns);
  }
  return 0;
}
