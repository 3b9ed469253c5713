// azure_pricing: drive the reference implementation from a shell.
//   --args-json '{...}'      the tool arguments exactly as a model sends them (required)
//   --print-argv             validate and plan only; print the argv or the refusal
//   --replay-stdout FILE [--replay-stderr FILE] [--replay-exit N]
//                            treat a recorded CLI result as what the sandbox returned
//   --max-rows N --exec-timeout-seconds N --max-output-bytes N   host bounds
//   --host-json JSON         make_azure_pricing_tools options and the router
//   --backend-json JSON      the fake backend's declarations (for refusal tests)
//   --labels-json JSON       the conversation's and the arguments' labels
//   --middleware LIST        the framework chain, in order: tracker,policy (or policy-log)
//   --json                   one JSON object on stdout instead of a table
//   --schema                 print the tool's parameter schema and exit
// Replay runs the whole host: make_azure_pricing_tools over a router whose scripted fake backend
// serves the recorded CLI result, behind the given middleware.
// Exit status: 0 completed (or planned), 2 refused, 3 failed, 4 blocked, 64 usage error.
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

#include "conformance/host/scripted_host.h"
#include "ref/json/json.h"
#include "ref/labels/labels.h"
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
    "                     [--host-json JSON] [--backend-json JSON] [--labels-json JSON]\n"
    "                     [--middleware tracker,policy]\n"
    "       azure_pricing --schema\n"
    "Runs the reference azure_pricing_get on arguments as a model sends them.\n"
    "  --print-argv      validate and plan only: print the argv, or the refusal\n"
    "  --replay-stdout   run the tool in a host whose fake sandbox returns this recorded stdout\n"
    "  --replay-stderr   the recorded stderr (default: empty)\n"
    "  --replay-exit     the recorded exit code (default: 0)\n"
    "  --host-json       {image, exec_timeout_seconds, max_output_bytes, max_rows,\n"
    "                    outbound_max_confidentiality, egress_integrity, confidentiality,\n"
    "                    router: {present, enabled, min_isolation}}\n"
    "  --backend-json    {name, os_families, isolation, capabilities, egress_modes,\n"
    "                    egress_method_tokens, bounded_exec, withhold_bounded_exec}\n"
    "  --labels-json     {conversation: {integrity, confidentiality}, arguments: [label...]}\n"
    "  --middleware      comma-separated chain: tracker, policy (blocks), policy-log (logs)\n"
    "  --json            one JSON object: outcome, reason, message, report, result_label,\n"
    "                    trusted_messages, sandbox_acquisitions, sandbox_disposals\n"
    "Exit status: 0 completed, 2 refused, 3 failed, 4 blocked, 64 usage error.\n";

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

int ExitCodeFor(Outcome outcome) {
  switch (outcome) {
    case Outcome::kCompleted:
      return 0;
    case Outcome::kRefused:
      return 2;
    case Outcome::kFailed:
      return 3;
    case Outcome::kBlocked:
      return 4;
  }
  return 3;
}

std::string PriceText(double value) {
  std::string s;
  json::AppendNumber(s, value);
  return s;
}

std::string Text(const json::Value* v) {
  if (v == nullptr || v->is_null()) return "";
  if (v->is_string()) return v->as_string();
  if (v->is_number()) return PriceText(v->as_number());
  if (v->is_bool()) return v->as_bool() ? "true" : "false";
  return json::Serialize(*v);
}

// The report as a person reads it. Every cell comes from outside, so none may drive the terminal.
void PrintTable(const conformance::host::CallReport& call) {
  std::cout << "outcome: " << OutcomeName(call.outcome);
  if (!call.reason.empty()) std::cout << " (" << call.reason << ")";
  std::cout << "\n";
  if (!call.trusted_messages.empty()) std::cout << call.trusted_messages.front() << "\n";
  if (!call.violations.empty()) {
    std::cout << "violations:";
    for (const std::string& v : call.violations) std::cout << " " << v;
    std::cout << "\n";
  }
  if (call.output.has_value()) {
    const json::ParseResult parsed = json::ParseStrict(*call.output);
    const json::Value& r = parsed.value;
    const json::Value* prices = r.Find("prices");
    const bool expanded = r.Find("requested_region") != nullptr;
    std::printf("%-28s %-12s %-22s %-14s %-18s %-10s %s%s\n", "meterName", "armSkuName",
                "productName", "region", "priceType", "unit", "retailPrice",
                expanded ? "  [matched_by]" : "");
    auto cell = [](const json::Value& row, const char* key, size_t n) {
      return TerminalSafe(Text(row.Find(key)), n - 1);
    };
    for (const json::Value& row :
         prices != nullptr ? prices->items() : std::vector<json::Value>{}) {
      std::string price = Text(row.Find("retailPrice")) + " " + cell(row, "currencyCode", 9);
      if (row.Find("reservationTerm")) price += " per " + cell(row, "reservationTerm", 17);
      if (expanded) {
        price += "  [" + cell(row, "matched_by", 8);
        if (row.Find("zone")) {
          price += ": " + cell(row, "zone_family", 9) + " " + cell(row, "zone", 16) + ", " +
                   cell(row, "zone_basis", 20);
        }
        if (row.Find("zone_reference_region")) {
          price += " via " + cell(row, "zone_reference_region", 32);
        }
        price += "]";
      }
      std::printf("%-28s %-12s %-22s %-14s %-18s %-10s %s\n", cell(row, "meterName", 28).c_str(),
                  cell(row, "armSkuName", 12).c_str(), cell(row, "productName", 22).c_str(),
                  cell(row, "region", 14).c_str(), cell(row, "priceType", 19).c_str(),
                  cell(row, "unitOfMeasure", 10).c_str(), price.c_str());
      if (const json::Value* plans = row.Find("savingsPlan")) {
        for (const json::Value& plan : plans->items()) {
          std::printf("%-28s savings plan %s: %s\n", "", cell(plan, "term", 17).c_str(),
                      Text(plan.Find("retailPrice")).c_str());
        }
      }
    }
    std::printf("returned_rows=%s received_rows=%s truncated=%s upstream_limit_reached=%s\n",
                Text(r.Find("returned_rows")).c_str(), Text(r.Find("received_rows")).c_str(),
                Text(r.Find("truncated")).c_str(), Text(r.Find("upstream_limit_reached")).c_str());
    if (expanded) {
      std::printf("requested_region=%s selected_rows=%s\n",
                  TerminalSafe(Text(r.Find("requested_region")), 64).c_str(),
                  Text(r.Find("selected_rows")).c_str());
      if (const json::Value* notes = r.Find("selection_notes")) {
        for (const json::Value& note : notes->items()) {
          std::printf("note: %s\n", Text(&note).c_str());
        }
      }
    }
  }
  if (call.result_label.has_value()) {
    std::printf("report label: %s/%s\n",
                std::string(labels::Name(call.result_label->integrity)).c_str(),
                std::string(labels::Name(call.result_label->confidentiality)).c_str());
  }
  std::printf("sandboxes: %d acquired, %d disposed\n", call.sandbox_acquisitions,
              call.sandbox_disposals);
}

int Main(int argc, char** argv) {
  std::optional<std::string> args_json, replay_stdout, replay_stderr;
  std::optional<std::string> host_json, backend_json, labels_json, middleware;
  int replay_exit = 0;
  bool print_argv = false, as_json = false;
  HostBounds bounds;
  struct {
    bool max_rows = false, exec_timeout_seconds = false, max_output_bytes = false;
  } bounds_given;
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
      bounds_given.max_rows = true;
    } else if (a == "--exec-timeout-seconds") {
      if (!number(bounds.exec_timeout_seconds)) {
        return Usage("--exec-timeout-seconds needs an integer");
      }
      bounds_given.exec_timeout_seconds = true;
    } else if (a == "--max-output-bytes") {
      if (!number(bounds.max_output_bytes)) return Usage("--max-output-bytes needs an integer");
      bounds_given.max_output_bytes = true;
    } else if (a == "--host-json") {
      if (!value(host_json)) return Usage("--host-json needs a value");
    } else if (a == "--backend-json") {
      if (!value(backend_json)) return Usage("--backend-json needs a value");
    } else if (a == "--labels-json") {
      if (!value(labels_json)) return Usage("--labels-json needs a value");
    } else if (a == "--middleware") {
      if (!value(middleware)) return Usage("--middleware needs a list");
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
  if (print_argv && (host_json || backend_json || labels_json || middleware)) {
    return Usage("--print-argv plans only; the host flags need --replay-stdout");
  }

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

  conformance::host::ScriptedCall call;
  call.arguments = *args_json;
  if (host_json) call.host_json = *host_json;
  if (backend_json) call.backend_json = *backend_json;
  if (labels_json) call.labels_json = *labels_json;
  if (middleware) {
    size_t start = 0;
    while (start <= middleware->size()) {
      size_t end = middleware->find(',', start);
      if (end == std::string::npos) end = middleware->size();
      if (end > start) call.middleware.push_back(middleware->substr(start, end - start));
      start = end + 1;
    }
  }
  if (bounds_given.max_rows) call.max_rows = bounds.max_rows;
  if (bounds_given.exec_timeout_seconds) call.exec_timeout_seconds = bounds.exec_timeout_seconds;
  if (bounds_given.max_output_bytes) call.max_output_bytes = bounds.max_output_bytes;
  fakes::sandbox::CallScript script;
  std::optional<std::string> out = ReadFile(*replay_stdout);
  if (!out) return Usage("cannot read --replay-stdout file");
  script.exec.stdout_bytes = std::move(*out);
  if (replay_stderr) {
    std::optional<std::string> err = ReadFile(*replay_stderr);
    if (!err) return Usage("cannot read --replay-stderr file");
    script.exec.stderr_bytes = std::move(*err);
  }
  script.exec.exit_code = replay_exit;
  call.scripts = {script};
  StatusOr<conformance::host::CallReport> report = conformance::host::RunScriptedCall(call);
  if (!report.ok()) return Usage(report.status().message());
  for (const std::string& w : report->warnings) std::cerr << "warning: " << w << "\n";
  if (as_json) {
    std::cout << conformance::host::CallReportToJson(*report) << "\n";
  } else {
    PrintTable(*report);
  }
  return ExitCodeFor(report->outcome);
}

}  // namespace
}  // namespace azure_pricing

int main(int argc, char** argv) { return azure_pricing::Main(argc, argv); }
