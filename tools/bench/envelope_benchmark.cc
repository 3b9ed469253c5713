// The host's processing of one CLI result: validate + select + project of the 5,000-row
// envelope printed the way the CLI prints it (3.1 MB), for an expanded eastus query, beside
// baselines measured in the same run: the strict Python implementation of the same checks
// (strict_validate.py), nlohmann's DOM parse, and simdjson's DOM parse of the same bytes (the
// practical ceiling for reading them at all). Then the host's peak memory on an 8 MiB envelope
// (the output cap), in a freshly executed copy of this program (--measure-peak-child FILE),
// against the input's size.
//   tools/bazel run -c opt //tools/bench:envelope_benchmark [-- --rows]
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "ref/base/files.h"
#include "ref/base/main_guard.h"
#include "ref/base/subprocess.h"
#include "ref/pricing/envelope.h"
#include "ref/pricing/lookup.h"
#include "ref/pricing/report.h"
#include "ref/pricing/selection.h"
#include "tools/bench/console_reporter.h"
#include "tools/bench/rows.h"

namespace {

namespace ap = azure_pricing;

constexpr char kEnvelopeFile[] = "fixtures/azmcp-3.0.0-beta.46/cli-stdout/pagination-cap-5000.json";
constexpr char kArguments[] = R"({"service_family":"Compute","region":"eastus"})";
constexpr int64_t kOutputCap = 8 * 1024 * 1024;

const std::string& Envelope() {
  static const std::string text = [] {
    ap::StatusOr<std::string> file = ap::base::ReadFile(kEnvelopeFile);
    if (!file.ok()) {
      std::fprintf(stderr, "envelope_benchmark: cannot read %s\n", kEnvelopeFile);
      std::exit(1);
    }
    return std::move(file).value();
  }();
  return text;
}

const ap::LookupPlan& Plan() {
  static const ap::LookupPlan plan = *ap::PlanLookup(kArguments, ap::HostBounds{});
  return plan;
}

// What the host does with one CLI result: the same steps RunLookup takes after the CLI ran.
bool Process(const ap::CliResult& result, std::string& json) {
  ap::StatusOr<std::vector<ap::PriceRow>> rows = ap::ValidateCliResult(result, kOutputCap);
  if (!rows.ok()) return false;
  const int64_t received = static_cast<int64_t>(rows->size());
  ap::Selection selection = ap::SelectRows(std::move(*rows), Plan().region, received >= ap::kCliRowCeiling);
  json = ap::ReportToJson(
      ap::BuildExpandedReport(std::move(selection), received, Plan().region.requested_region, 100));
  return true;
}

bool Process(const std::string& stdout_bytes, std::string& json) {
  ap::CliResult result;
  result.stdout_bytes = stdout_bytes;
  return Process(result, json);
}

void BM_ValidateSelectProject(benchmark::State& state) {
  std::string json;
  for (auto _ : state) {
    if (!Process(Envelope(), json)) {
      state.SkipWithError("the fixture was not accepted");
      return;
    }
    benchmark::DoNotOptimize(json);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * Envelope().size()));
}
BENCHMARK(BM_ValidateSelectProject)->Unit(benchmark::kMillisecond);

void BM_NlohmannDomParse(benchmark::State& state) {
  for (auto _ : state) {
    nlohmann::json doc = nlohmann::json::parse(Envelope());
    benchmark::DoNotOptimize(doc);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * Envelope().size()));
}
BENCHMARK(BM_NlohmannDomParse)->Unit(benchmark::kMillisecond);

void BM_SimdjsonDomParse(benchmark::State& state) {
  simdjson::dom::parser parser;
  const simdjson::padded_string padded(Envelope());
  for (auto _ : state) {
    simdjson::dom::element doc;
    if (parser.parse(padded).get(doc) != simdjson::SUCCESS) {
      state.SkipWithError("simdjson refused the fixture");
      return;
    }
    benchmark::DoNotOptimize(doc);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * Envelope().size()));
}
BENCHMARK(BM_SimdjsonDomParse)->Unit(benchmark::kMillisecond);

class RecordingReporter : public ap::tools::bench::ConsoleReporter {
 public:
  explicit RecordingReporter(bool quiet) : quiet_(quiet) {}
  bool ReportContext(const Context& context) override {
    return quiet_ ? true : ap::tools::bench::ConsoleReporter::ReportContext(context);
  }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      const auto it = run.counters.find("bytes_per_second");
      if (it != run.counters.end()) mb_per_s[run.benchmark_name()] = it->second.value / 1e6;
    }
    if (!quiet_) ap::tools::bench::ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, double> mb_per_s;

 private:
  bool quiet_;
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

// An envelope of just under the 8 MiB output cap: the fixture's rows repeated.
std::string CapSizedEnvelope() {
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(Envelope());
  nlohmann::ordered_json& prices = doc["results"]["prices"];
  const nlohmann::ordered_json original = prices;
  const size_t row_bytes = Envelope().size() / original.size();
  const size_t target = 8'000'000;
  for (size_t i = 0; (original.size() + i) * row_bytes < target; ++i) {
    prices.push_back(original[i % original.size()]);
  }
  return doc.dump(2) + "\n";
}

long StatusKb(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const size_t n = std::strlen(field);
  while (std::getline(in, line)) {
    if (line.compare(0, n, field) == 0) return std::atol(line.c_str() + n);
  }
  return -1;
}

// The hidden flag with which this program re-executes itself for the peak memory measure (only
// PeakGrowthKb passes it): `--measure-peak-child FILE`.
constexpr char kPeakChildFlag[] = "--measure-peak-child";

// The re-executed side: peak resident growth (kB) while this otherwise idle process reads the
// envelope in `path` and processes it, printed on stdout for the parent. The bytes are read
// straight into the CliResult, as the host receives them: one copy of the input, not two.
int MeasurePeakChild(const char* path) {
  const long before = StatusKb("VmRSS:");
  ap::StatusOr<std::string> text = ap::base::ReadFile(path);
  if (!text.ok()) {
    std::fprintf(stderr, "envelope_benchmark: cannot read %s\n", path);
    return 1;
  }
  ap::CliResult result;
  result.stdout_bytes = std::move(text).value();
  std::string json;
  if (!Process(result, json)) {
    std::fprintf(stderr, "envelope_benchmark: %s was not accepted\n", path);
    return 1;
  }
  const long peak = StatusKb("VmHWM:");
  if (before < 0 || peak < 0) {
    std::fprintf(stderr, "envelope_benchmark: no VmRSS/VmHWM in /proc/self/status\n");
    return 1;
  }
  std::printf("%ld\n", peak - before);
  return 0;
}

// Peak resident growth of a freshly executed copy of this program (/proc/self/exe) that reads
// the envelope from a file and processes it; nullopt after saying why on stderr. Not a forked
// child: this process has run the benchmarks, and the envelope processing keeps its freed memory
// for the next envelope, so a fork would reuse those pages and its VmHWM would hardly move.
std::optional<long> PeakGrowthKb(const std::string& path) {
  const ap::StatusOr<ap::base::SubprocessResult> run = ap::base::Subprocess::Run(
      {.argv = {"/proc/self/exe", kPeakChildFlag, path}, .in = ap::base::Stdio::DevNull(),
       .out = ap::base::Stdio::Pipe()},
      std::chrono::seconds(120));
  if (!run.ok() || run->exit_code != 0) {
    std::fprintf(stderr, "envelope_benchmark: the peak memory child failed (%s)\n",
                 !run.ok() ? run.status().message().c_str()
                 : run->timed_out ? "it ran past 120 s"
                                  : "see above");
    return std::nullopt;
  }
  const std::string& out = run->out;
  char* end = nullptr;
  const long kb = std::strtol(out.c_str(), &end, 10);
  if (end == out.c_str() || *end != '\n' || kb < 0) return std::nullopt;
  return kb;
}

// The peak memory measure on an envelope just under the output cap, written to a file for the
// child to read; false after saying why on stderr.
bool MeasurePeak(double& input_mib, double& peak_mib) {
  const std::string big = CapSizedEnvelope();
  const char* tmp = std::getenv("TMPDIR");
  const std::string path = std::string(tmp != nullptr ? tmp : "/tmp") + "/envelope-8mib.json";
  if (!ap::base::WriteFileAtomically(path, big).ok()) {
    std::fprintf(stderr, "envelope_benchmark: cannot write %s\n", path.c_str());
    return false;
  }
  const std::optional<long> growth = PeakGrowthKb(path);
  std::remove(path.c_str());
  if (!growth) return false;
  input_mib = static_cast<double>(big.size()) / (1 << 20);
  peak_mib = static_cast<double>(*growth) / 1024;
  return true;
}

struct Figures {
  double ours = 0, python = 0, nlohmann = 0, simdjson = 0;
  double input_mib = 0, peak_mib = 0;
};

void PrintRows(const Figures& f) {
  namespace bench = azure_pricing::tools::bench;
  const double py = f.python > 0 ? f.ours / f.python : 0;
  bench::PrintRow({.measure = "host: validate + select + project, 5,000-row envelope (3.1 MB)",
                   .figure = f.ours, .unit = "MB/s",
                   .baseline = "strict Python, same checks (strict_validate.py)",
                   .baseline_figure = f.python, .ratio = py, .floor = ">= 5x Python",
                   .verdict = bench::Verdict(py >= 5),
                   .note = "aim: half of simdjson's DOM parse; at " +
                           std::to_string(f.ours / f.simdjson).substr(0, 4) + "x of it"});
  bench::PrintRow({.measure = "host: the same, against nlohmann's DOM parse of the bytes",
                   .figure = f.ours, .unit = "MB/s", .baseline = "nlohmann::json::parse",
                   .baseline_figure = f.nlohmann, .ratio = f.ours / f.nlohmann});
  bench::PrintRow({.measure = "host: the same, against simdjson's DOM parse (the ceiling)",
                   .figure = f.ours, .unit = "MB/s", .baseline = "simdjson::dom::parser::parse",
                   .baseline_figure = f.simdjson, .ratio = f.ours / f.simdjson,
                   .floor = ">= 0.5 (aim)", .verdict = f.ours / f.simdjson >= 0.5 ? "met" : "missed"});
  const double mem = f.peak_mib / f.input_mib;
  bench::PrintRow({.measure = "host: peak resident growth on an envelope at the 8 MiB output cap",
                   .figure = f.peak_mib, .unit = "MiB", .baseline = "the envelope's size",
                   .baseline_figure = f.input_mib, .ratio = mem, .floor = "<= 4x the input",
                   .verdict = bench::Verdict(mem <= 4),
                   .note = "VmHWM - VmRSS of a freshly executed copy that reads and processes "
                           "it (not a fork of this process, which keeps freed memory)"});
}

}  // namespace

static int UnguardedMain(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], kPeakChildFlag) == 0) return MeasurePeakChild(argv[2]);
  bool rows = false;
  for (int i = 1; i < argc; ++i) rows = rows || std::strcmp(argv[i], "--rows") == 0;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--rows") != 0) args.push_back(argv[i]);
  }
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  // Google Benchmark keeps the arguments it does not know; they are ours to refuse.
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 64;
  RecordingReporter reporter(rows);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  Figures f{.ours = reporter.mb_per_s["BM_ValidateSelectProject"],
            .python = PythonBaseline(),
            .nlohmann = reporter.mb_per_s["BM_NlohmannDomParse"],
            .simdjson = reporter.mb_per_s["BM_SimdjsonDomParse"]};
  if (!MeasurePeak(f.input_mib, f.peak_mib)) return 1;
  if (rows) {
    PrintRows(f);
    return 0;
  }
  std::printf("\nenvelope: %zu bytes, 5,000 rows, expanded eastus query\n", Envelope().size());
  std::printf("validate+select+project (reference) %8.1f MB/s\n", f.ours);
  std::printf("strict Python (same checks)         %8.1f MB/s   ratio %.2fx (floor >= 5x)\n",
              f.python, f.python > 0 ? f.ours / f.python : 0);
  std::printf("nlohmann DOM parse                  %8.1f MB/s   ratio %.2fx\n", f.nlohmann,
              f.ours / f.nlohmann);
  std::printf("simdjson DOM parse (ceiling)        %8.1f MB/s   ratio %.2fx (aim >= 0.5x)\n",
              f.simdjson, f.ours / f.simdjson);
  std::printf("peak memory, %.1f MiB envelope       %8.1f MiB    ratio %.2fx (floor <= 4x)\n",
              f.input_mib, f.peak_mib, f.peak_mib / f.input_mib);
  return 0;
}

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("envelope_benchmark", [&] { return UnguardedMain(argc, argv); });
}
