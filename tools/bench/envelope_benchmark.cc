// Throughput of validate+project on a 5,000-row envelope printed the way the CLI prints it,
// beside two baselines measured in the same run: nlohmann's DOM parse alone, and the strict
// Python implementation in strict_validate.py. Prints the ratios at the end.
//   tools/bazel run -c opt //tools/bench:envelope_benchmark
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "ref/base/files.h"
#include "ref/pricing/envelope.h"
#include "ref/pricing/report.h"

namespace {

constexpr char kEnvelopeFile[] = "fixtures/azmcp-3.0.0-beta.46/cli-stdout/pagination-cap-5000.json";

const std::string& Envelope() {
  static const std::string text = [] {
    azure_pricing::StatusOr<std::string> file = azure_pricing::base::ReadFile(kEnvelopeFile);
    if (!file.ok()) {
      std::fprintf(stderr, "envelope_benchmark: cannot read %s: %s\n", kEnvelopeFile,
                   file.status().message().c_str());
      std::exit(1);
    }
    return std::move(file).value();
  }();
  return text;
}

void BM_ValidateAndProject(benchmark::State& state) {
  azure_pricing::CliResult result;
  result.stdout_bytes = Envelope();
  for (auto _ : state) {
    auto rows = azure_pricing::ValidateCliResult(result, 8 * 1024 * 1024);
    if (!rows.ok()) {
      state.SkipWithError("the fixture was not accepted");
      return;
    }
    const azure_pricing::Report report = azure_pricing::BuildReport(std::move(rows).value(), 100);
    std::string json = azure_pricing::ReportToJson(report);
    benchmark::DoNotOptimize(json);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * Envelope().size()));
}
BENCHMARK(BM_ValidateAndProject)->Unit(benchmark::kMillisecond);

void BM_NlohmannDomParseOnly(benchmark::State& state) {
  for (auto _ : state) {
    nlohmann::json doc = nlohmann::json::parse(Envelope());
    benchmark::DoNotOptimize(doc);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * Envelope().size()));
}
BENCHMARK(BM_NlohmannDomParseOnly)->Unit(benchmark::kMillisecond);

class RecordingReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      const auto it = run.counters.find("bytes_per_second");
      if (it != run.counters.end()) mb_per_s[run.benchmark_name()] = it->second.value / 1e6;
    }
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, double> mb_per_s;
};

double PythonBaseline() {
  const std::string command =
      std::string("python3 tools/bench/strict_validate.py ") + kEnvelopeFile + " --iterations 10";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return 0;
  std::string out;
  char buf[256];
  while (std::fgets(buf, sizeof(buf), pipe) != nullptr) out += buf;
  if (pclose(pipe) != 0) return 0;
  const nlohmann::json line = nlohmann::json::parse(out, nullptr, false);
  return line.is_object() && line.contains("mb_per_s") ? line["mb_per_s"].get<double>() : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (Envelope().empty()) {
    std::fprintf(stderr, "cannot read %s\n", kEnvelopeFile);
    return 1;
  }
  benchmark::Initialize(&argc, argv);
  RecordingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  const double ours = reporter.mb_per_s["BM_ValidateAndProject"];
  const double dom = reporter.mb_per_s["BM_NlohmannDomParseOnly"];
  const double python = PythonBaseline();
  std::printf("\nenvelope: %zu bytes, 5,000 rows\n", Envelope().size());
  std::printf("validate+project (reference)   %8.1f MB/s\n", ours);
  std::printf("nlohmann DOM parse only        %8.1f MB/s   ratio %.2fx\n", dom,
              dom > 0 ? ours / dom : 0);
  if (python > 0) {
    std::printf("strict Python (same checks)    %8.1f MB/s   ratio %.2fx (goal >= 3x)\n", python,
                ours / python);
  } else {
    std::printf("strict Python baseline did not run (python3 missing?)\n");
  }
  return 0;
}
