// azure_pricing: drive the reference implementation from a shell.
//   --args-json '{...}'      the tool arguments exactly as a model sends them (required)
//   --print-argv             validate and plan only; print the argv or the refusal
//   --replay-stdout FILE [--replay-stderr FILE] [--replay-exit N]
//                            treat a recorded CLI result as what the sandbox returned
//   --max-rows N --exec-timeout-seconds N --max-output-bytes N   host bounds
//   --json                   one JSON object on stdout instead of a table
//   --schema                 print the tool's parameter schema and exit
// Exit status: 0 completed (or planned), 2 refused, 3 failed, 64 usage error.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "ref/json/json.h"
#include "ref/pricing/arguments.h"
#include "ref/pricing/lookup.h"
#include "ref/pricing/schema.h"

namespace azure_pricing {
namespace {

constexpr int kExitUsage = 64;

constexpr char kUsage[] =
    "usage: azure_pricing --args-json JSON [--print-argv | --replay-stdout FILE\n"
    "                     [--replay-stderr FILE] [--replay-exit N]] [--json]\n"
    "                     [--max-rows N] [--exec-timeout-seconds N] [--max-output-bytes N]\n"
    "       azure_pricing --schema\n"
    "Runs the reference azure_pricing_get on arguments as a model sends them.\n"
    "  --print-argv      validate and plan only: print the argv, or the refusal\n"
    "  --replay-stdout   process a recorded CLI stdout as if the sandbox returned it\n"
    "  --replay-stderr   the recorded stderr (default: empty)\n"
    "  --replay-exit     the recorded exit code (default: 0)\n"
    "  --json            one JSON object: outcome, reason, message, report\n"
    "Exit status: 0 completed, 2 refused, 3 failed, 64 usage error.\n";

int Usage(const std::string& problem) {
  std::cerr << "azure_pricing: " << problem << "\n" << kUsage;
  return kExitUsage;
}

// `bazel run` starts programs in their runfiles; relative paths mean the caller's directory.
std::string ResolvePath(const std::string& path) {
  const char* cwd = std::getenv("BUILD_WORKING_DIRECTORY");
  if (path.empty() || path[0] == '/' || cwd == nullptr) return path;
  return std::string(cwd) + "/" + path;
}

std::optional<std::string> ReadFile(const std::string& path) {
  std::ifstream in(ResolvePath(path), std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::optional<int64_t> ParseInt(std::string_view text) {
  if (text.empty() || text.size() > 12) return std::nullopt;
  int64_t value = 0;
  size_t i = 0;
  const bool negative = text[0] == '-';
  if (negative) ++i;
  if (i == text.size()) return std::nullopt;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  return negative ? -value : value;
}

// Serves one recorded CLI result, as the sandbox would have returned it.
class ReplayRunner : public CliRunner {
 public:
  explicit ReplayRunner(CliResult result) : result_(std::move(result)) {}
  CliResult Run(const std::vector<std::string>&, const std::vector<std::string>&,
                const HostBounds& bounds) override {
    CliResult r = result_;
    // A real bounded exec stops reading at the budget; the recording may be larger.
    if (static_cast<int64_t>(r.stdout_bytes.size() + r.stderr_bytes.size()) >
        bounds.max_output_bytes) {
      r.output_limit_exceeded = true;
    }
    return r;
  }

 private:
  CliResult result_;
};

int ExitCodeFor(Outcome outcome) {
  switch (outcome) {
    case Outcome::kCompleted:
      return 0;
    case Outcome::kRefused:
      return 2;
    case Outcome::kFailed:
      return 3;
  }
  return 3;
}

std::string PriceText(double value) {
  std::string s;
  json::AppendNumber(s, value);
  return s;
}

void PrintTable(const LookupOutcome& outcome) {
  std::cout << "outcome: " << OutcomeName(outcome.outcome());
  if (!outcome.status.ok()) std::cout << " (" << outcome.reason() << ")";
  std::cout << "\n" << outcome.message() << "\n";
  if (!outcome.report.has_value()) return;
  const Report& r = *outcome.report;
  const bool expanded = r.expansion.has_value();
  std::printf("%-28s %-12s %-22s %-14s %-18s %-10s %s%s\n", "meterName", "armSkuName",
              "productName", "region", "priceType", "unit", "retailPrice",
              expanded ? "  [matched_by]" : "");
  // Row text comes from outside: never let it drive the terminal.
  auto cell = [](const std::string& s, size_t n) { return TerminalSafe(s, n - 1); };
  for (size_t i = 0; i < r.prices.size(); ++i) {
    const PriceRow& row = r.prices[i];
    std::string price = PriceText(row.retail_price) + " " + TerminalSafe(row.currency_code, 8);
    if (row.reservation_term) price += " per " + TerminalSafe(*row.reservation_term, 16);
    if (expanded) {
      const SelectedRow& a = r.expansion->annotations[i];
      price += "  [" + a.matched_by;
      if (a.zone) price += ": " + *a.zone_family + " " + *a.zone + ", " + *a.zone_basis;
      if (a.zone_reference_region) price += " via " + *a.zone_reference_region;
      price += "]";
    }
    std::printf("%-28s %-12s %-22s %-14s %-18s %-10s %s\n", cell(row.meter_name, 28).c_str(),
                cell(row.arm_sku_name, 12).c_str(), cell(row.product_name, 22).c_str(),
                cell(row.region, 14).c_str(), TerminalSafe(row.price_type, 18).c_str(),
                cell(row.unit_of_measure, 10).c_str(), price.c_str());
    for (const SavingsPlanPrice& plan : row.savings_plan) {
      std::printf("%-28s savings plan %s: %s\n", "", TerminalSafe(plan.term, 16).c_str(),
                  PriceText(plan.retail_price).c_str());
    }
  }
  std::printf("returned_rows=%lld received_rows=%lld truncated=%s upstream_limit_reached=%s\n",
              static_cast<long long>(r.returned_rows), static_cast<long long>(r.received_rows),
              r.truncated ? "true" : "false", r.upstream_limit_reached ? "true" : "false");
  if (expanded) {
    std::printf("requested_region=%s selected_rows=%lld\n",
                TerminalSafe(r.expansion->requested_region, 64).c_str(),
                static_cast<long long>(r.expansion->selected_rows));
    for (const std::string& note : r.expansion->selection_notes) {
      std::printf("note: %s\n", note.c_str());
    }
  }
}

int Main(int argc, char** argv) {
  std::optional<std::string> args_json, replay_stdout, replay_stderr;
  int replay_exit = 0;
  bool print_argv = false, as_json = false;
  HostBounds bounds;
  std::vector<std::string_view> args(argv + 1, argv + argc);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    auto value = [&](std::optional<std::string>& out) {
      if (i + 1 >= args.size()) return false;
      out = std::string(args[++i]);
      return true;
    };
    auto number = [&](int64_t& out) {
      if (i + 1 >= args.size()) return false;
      const std::optional<int64_t> n = ParseInt(args[++i]);
      if (!n) return false;
      out = *n;
      return true;
    };
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--schema") {
      std::cout << ParameterSchemaJson() << "\n";
      return 0;
    } else if (a == "--args-json") {
      if (!value(args_json)) return Usage("--args-json needs a value");
    } else if (a == "--replay-stdout") {
      if (!value(replay_stdout)) return Usage("--replay-stdout needs a file");
    } else if (a == "--replay-stderr") {
      if (!value(replay_stderr)) return Usage("--replay-stderr needs a file");
    } else if (a == "--replay-exit") {
      int64_t n = 0;
      if (!number(n)) return Usage("--replay-exit needs an integer");
      replay_exit = static_cast<int>(n);
    } else if (a == "--max-rows") {
      if (!number(bounds.max_rows)) return Usage("--max-rows needs an integer");
    } else if (a == "--exec-timeout-seconds") {
      if (!number(bounds.exec_timeout_seconds)) {
        return Usage("--exec-timeout-seconds needs an integer");
      }
    } else if (a == "--max-output-bytes") {
      if (!number(bounds.max_output_bytes)) return Usage("--max-output-bytes needs an integer");
    } else if (a == "--print-argv") {
      print_argv = true;
    } else if (a == "--json") {
      as_json = true;
    } else {
      return Usage("unknown option " + std::string(a));
    }
  }
  if (!args_json) return Usage("--args-json is required");
  if (print_argv == replay_stdout.has_value()) {
    return Usage("give exactly one of --print-argv and --replay-stdout");
  }
  if (replay_stderr && !replay_stdout) return Usage("--replay-stderr needs --replay-stdout");

  if (print_argv) {
    StatusOr<LookupPlan> plan = PlanLookup(*args_json, bounds);
    if (as_json) {
      std::string out = "{\"outcome\":";
      json::AppendQuoted(out, plan.ok() ? "planned" : OutcomeName(plan.status().outcome()));
      out += ",\"reason\":";
      if (plan.ok()) {
        out += "null,\"argv\":[";
        for (size_t i = 0; i < plan->argv.size(); ++i) {
          if (i > 0) out += ",";
          json::AppendQuoted(out, plan->argv[i]);
        }
        out += "],\"env\":[";
        for (size_t i = 0; i < plan->env.size(); ++i) {
          if (i > 0) out += ",";
          json::AppendQuoted(out, plan->env[i]);
        }
        out += "]}";
      } else {
        json::AppendQuoted(out, plan.status().reason());
        out += ",\"message\":";
        json::AppendQuoted(out, plan.status().message());
        out += "}";
      }
      std::cout << out << "\n";
    } else if (plan.ok()) {
      for (const std::string& arg : plan->argv) {
        std::string quoted;
        json::AppendQuoted(quoted, arg);
        std::cout << quoted << "\n";
      }
    } else {
      std::cout << "refused (" << plan.status().reason() << "): " << plan.status().message()
                << "\n";
    }
    return plan.ok() ? 0 : ExitCodeFor(plan.status().outcome());
  }

  CliResult recorded;
  std::optional<std::string> out = ReadFile(*replay_stdout);
  if (!out) return Usage("cannot read --replay-stdout file");
  recorded.stdout_bytes = std::move(*out);
  if (replay_stderr) {
    std::optional<std::string> err = ReadFile(*replay_stderr);
    if (!err) return Usage("cannot read --replay-stderr file");
    recorded.stderr_bytes = std::move(*err);
  }
  recorded.exit_code = replay_exit;
  ReplayRunner runner(std::move(recorded));
  const LookupOutcome outcome = RunLookup(*args_json, bounds, runner);
  if (as_json) {
    std::cout << OutcomeToJson(outcome) << "\n";
  } else {
    PrintTable(outcome);
  }
  return ExitCodeFor(outcome.outcome());
}

}  // namespace
}  // namespace azure_pricing

int main(int argc, char** argv) { return azure_pricing::Main(argc, argv); }
