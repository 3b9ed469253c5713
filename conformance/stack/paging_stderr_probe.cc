// paging_stderr_probe: what the CLI writes to stderr while it pages, seen from inside the stack.
// The tool never shows a CLI's stderr (it fails closed with stderr_not_empty and fixed text), so
// this testonly program runs the stack suite's paging lookup (price_type Consumption over the
// suite's 7,000-row catalog: 5 pages, 5,000 rows) through the whole stack, with every page of
// the fake API held back --delay-ms, and prints per run the outcome, the CLI's exit code, the
// wall time and the CLI's stderr verbatim; --address-space-mib replaces the sandbox's RLIMIT_AS.
// It exists to measure when the real azmcp writes there (docs/reference.md, "When the CLI
// writes to its error stream", has the finding).
//
//   tools/bazel run --config=cache //conformance/stack:paging_stderr_probe --
//       --delay-ms 2000 --runs 3 [--exec-timeout-seconds 60] [--address-space-mib 4096]
#include <charconv>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/backend/price_api_process.h"
#include "conformance/stack/local_stack.h"
#include "fakes/prices_server/catalog_generator.h"
#include "ref/base/flags.h"
#include "ref/base/main_guard.h"

namespace azure_pricing::conformance::stack {
namespace {

constexpr int kUsageExit = 64;
constexpr int kPages = 5;  // the CLI's ceiling: 5,000 rows in pages of 1,000

struct ProbeOptions {
  int64_t delay_ms = 0;
  int64_t runs = 1;
  int64_t exec_timeout_seconds = 60;  // the spec's default
  std::optional<uint64_t> address_space_mib;  // unset: the backend's default limit
};

// The stack suite's served catalog: the bundled pages and its generated 7,000 rows.
std::string SuiteCatalog() {
  StatusOr<std::string> bundled = BundledCatalog();
  std::string text = bundled.ok() ? *bundled : "";
  fakes::prices::GenerateCatalog(12, 7000,
                                 [&text](const std::string& line) { text += line + "\n"; });
  return text;
}

// The CLI's own result, before the tool judged it: its stderr verbatim, since finding out what
// it says is this program's purpose.
void PrintExec(const StackExec& e) {
  if (!e.result.ok()) {
    std::cout << " exec=" << e.result.status().reason() << "\n";
    return;
  }
  std::cout << " exit=" << e.result->exit_code << " stdout_bytes=" << e.result->stdout_bytes.size()
            << " stderr_bytes=" << e.result->stderr_bytes.size() << "\n";
  if (!e.result->stderr_bytes.empty()) {
    std::cout << e.result->stderr_bytes << "--- end of stderr\n";
  }
}

// A non-negative whole-number flag value, `fallback` when the flag is absent; nullopt when the
// value is not one.
std::optional<int64_t> Number(const base::Flags& flags, std::string_view name, int64_t fallback) {
  const std::optional<std::string> text = flags.Value(name);
  if (!text) return fallback;
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || value < 0) return std::nullopt;
  return value;
}

// One paging lookup; false when the stack could not run it at all.
bool ProbeOnce(LocalStack& stack, const ProbeOptions& o, int64_t run) {
  const backend::PriceApi& api = *stack.price_api();
  const std::string faults = R"([{"latency_ms":)" + std::to_string(o.delay_ms) +
                             R"(,"times":)" + std::to_string(kPages + 1) + "}]";
  if (!backend::ResetRequestLog(api).ok() || !backend::AddFaults(api, faults).ok()) {
    std::cerr << "paging_stderr_probe: the fake API refused the reset or the delay\n";
    return false;
  }
  std::vector<StackExec> execs;
  const auto start = std::chrono::steady_clock::now();
  StatusOr<host::CallReport> report =
      stack.Call({.arguments = R"({"price_type":"Consumption"})",
                  .exec_timeout_seconds = o.exec_timeout_seconds},
                 &execs);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!report.ok()) {
    std::cerr << "paging_stderr_probe: the host did not run the call\n";
    return false;
  }
  std::cout << "run " << run << ": delay_ms=" << o.delay_ms << " address_space_mib="
            << (o.address_space_mib ? std::to_string(*o.address_space_mib) : "default")
            << " seconds=" << seconds << " outcome=" << OutcomeName(report->outcome)
            << (report->reason.empty() ? "" : " reason=" + report->reason);
  for (const StackExec& e : execs) PrintExec(e);
  if (execs.empty()) std::cout << " (no execution)\n";
  std::cout.flush();  // runs are long; each line is a result even if the probe is stopped
  return true;
}

int Main(int argc, char** argv) {
  std::string problem;
  StatusOr<base::Flags> flags = base::Flags::ParseOrExplain(
      argc, argv,
      {{"--delay-ms", base::FlagKind::kValue}, {"--runs", base::FlagKind::kValue},
       {"--exec-timeout-seconds", base::FlagKind::kValue},
       {"--address-space-mib", base::FlagKind::kValue}},
      &problem);
  if (!flags.ok()) {
    std::cerr << "paging_stderr_probe: " << problem << "\n";
    return kUsageExit;
  }
  const std::optional<int64_t> delay = Number(*flags, "--delay-ms", 0);
  const std::optional<int64_t> runs = Number(*flags, "--runs", 1);
  const std::optional<int64_t> timeout = Number(*flags, "--exec-timeout-seconds", 60);
  const std::optional<int64_t> mib = Number(*flags, "--address-space-mib", -1);
  if (!delay || !runs || !timeout || !mib) {
    std::cerr << "paging_stderr_probe: flag values are non-negative whole numbers\n";
    return kUsageExit;
  }
  ProbeOptions o{.delay_ms = *delay, .runs = *runs, .exec_timeout_seconds = *timeout};
  if (*mib >= 0) o.address_space_mib = static_cast<uint64_t>(*mib);
  const CliChoice cli = DefaultCli();
  LocalStackOptions stack_options{.cli = cli, .catalog_jsonl = SuiteCatalog()};
  if (o.address_space_mib) stack_options.address_space_bytes = *o.address_space_mib << 20;
  StatusOr<std::unique_ptr<LocalStack>> stack = LocalStack::Start(std::move(stack_options));
  if (!stack.ok()) {
    std::cerr << "paging_stderr_probe: the stack did not start: " << stack.status().message()
              << "\n";
    return 1;
  }
  std::cout << "cli: " << cli.description << "\n";
  for (int64_t i = 1; i <= o.runs; ++i) {
    if (!ProbeOnce(**stack, o, i)) return 1;
  }
  return 0;
}

}  // namespace
}  // namespace azure_pricing::conformance::stack

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain(
      "paging_stderr_probe", [&] { return azure_pricing::conformance::stack::Main(argc, argv); });
}
