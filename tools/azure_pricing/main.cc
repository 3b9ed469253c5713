// azure_pricing: drive the reference implementation from a shell.
//   --args-json '{...}'      the tool arguments exactly as a model sends them (required)
//   (no mode flag)           the whole local stack: the fake price API on loopback with the
//                            offline catalog, the bubblewrap backend and its egress proxy, an
//                            image assembled for the run, the CLI in the sandbox
//                            (conformance/stack/local_stack.h); the first stderr line says
//                            what the catalog holds
//   --upstream URL --upstream-ca PEM   the local stack's egress goes there, not to the fake API
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
// Exit status: 0 completed (or planned), 1 the local stack did not start, 2 refused, 3 failed,
// 4 blocked, 64 usage error.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/host/scripted_host.h"
#include "conformance/stack/local_stack.h"
#include "ref/base/files.h"
#include "ref/base/flags.h"
#include "ref/base/main_guard.h"
#include "ref/base/paths.h"
#include "ref/json/json.h"
#include "ref/labels/labels.h"
#include "ref/pricing/arguments.h"
#include "ref/pricing/lookup.h"
#include "ref/pricing/package.h"
#include "ref/pricing/schema.h"
#include "ref/status/status_macros.h"

namespace azure_pricing {
namespace {

constexpr int kExitUsage = 64;
constexpr int kExitStackDidNotStart = 1;

constexpr char kUsage[] =
    "usage: azure_pricing --args-json JSON [--upstream URL --upstream-ca PEM]\n"
    "                     [--print-argv | --replay-stdout FILE\n"
    "                     [--replay-stderr FILE] [--replay-exit N]] [--json]\n"
    "                     [--max-rows N] [--exec-timeout-seconds N] [--max-output-bytes N]\n"
    "                     [--host-json JSON] [--backend-json JSON] [--labels-json JSON]\n"
    "                     [--middleware tracker,policy]\n"
    "       azure_pricing --schema | --version\n"
    "Runs the reference azure_pricing_get on arguments as a model sends them.\n"
    "With no mode flag it runs the whole stack on this machine (progress on stderr): the fake\n"
    "price API on loopback (HTTPS, its own run-time CA) serving the offline catalog of real and\n"
    "real-derived price rows (fixtures/offline-catalog; the first stderr line says what it\n"
    "holds), the bubblewrap backend with its GET-only egress proxy,\n"
    "an image assembled in a temporary directory, and in the sandbox the real azmcp when\n"
    "AZURE_PRICING_AZMCP names it (tools/bazel sets it), else the fake //fakes/azmcp; the\n"
    "output says which. The router's floor is lowered from microVM to container on purpose.\n"
    "Everything it starts stops and its temporary directory is removed when it ends.\n"
    "  e.g. --args-json '{\"sku\":\"Standard_D2s_v5\",\"region\":\"westeurope\"}'\n"
    "       --args-json '{\"sku\":\"Standard_D2s_v5\",\"region\":\"eastus\",\"price_type\":\"Reservation\"}'\n"
    "  --upstream URL    the local stack's egress goes to https://HOST[:PORT] instead of the fake\n"
    "                    API; its certificate must verify for prices.azure.com\n"
    "  --upstream-ca PEM the CA file that verifies --upstream (required with it)\n"
    "  --print-argv      validate and plan only: print the argv, or the refusal\n"
    "  --replay-stdout   run the tool in a host whose fake sandbox returns this recorded stdout\n"
    "  --replay-stderr   the recorded stderr (default: empty)\n"
    "  --replay-exit     the recorded exit code (default: 0)\n"
    "  --host-json       the host's options and its router, as a case's \"host\" (keys below)\n"
    "  --backend-json    the fake backend's declarations, as a case's \"backend\" (keys below)\n"
    "  --labels-json     the conversation's and each argument's label, as a case's \"labels\"\n"
    "                    (keys below)\n"
    "  --middleware      comma-separated chain: tracker, policy (blocks), policy-log (logs)\n"
    "  --version         the package, its version and stability, and the CLI contract\n"
    "  --json            one JSON object: outcome, reason, message, report (when the call\n"
    "                    completed), result_label, trusted_messages, violations (when policy\n"
    "                    logged any), tools (how many tools the host made), sandbox_acquisitions,\n"
    "                    sandbox_disposals, and stack {cli, cli_description, upstream, backend,\n"
    "                    router_floor} for the whole stack; with --print-argv: outcome, reason,\n"
    "                    message, argv, env\n"
    "Exit status: 0 completed, 1 the local stack did not start, 2 refused, 3 failed,\n"
    "4 blocked, 64 usage error.\n";

int Usage(const std::string& problem) {
  std::cerr << "azure_pricing: " << problem << "\n" << kUsage;
  return kExitUsage;
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

// One price row (and its savings plans) as a table line. Every cell comes from outside, so none
// may drive the terminal.
void PrintRow(const json::Value& row, bool expanded) {
  auto cell = [](const json::Value& v, const char* key, size_t n) {
    return TerminalSafe(Text(v.Find(key)), n - 1);
  };
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

// The tool's report: a header, the rows, the counts and the region selection's notes.
void PrintReport(const std::string& output) {
  const json::ParseResult parsed = json::ParseStrict(output);
  const json::Value& r = parsed.value;
  const json::Value* prices = r.Find("prices");
  const bool expanded = r.Find("requested_region") != nullptr;
  std::printf("%-28s %-12s %-22s %-14s %-18s %-10s %s%s\n", "meterName", "armSkuName",
              "productName", "region", "priceType", "unit", "retailPrice",
              expanded ? "  [matched_by]" : "");
  for (const json::Value& row : prices != nullptr ? prices->items() : std::vector<json::Value>{}) {
    PrintRow(row, expanded);
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

// The call as a person reads it.
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
    PrintReport(*call.output);
  }
  if (call.result_label.has_value()) {
    std::printf("report label: %s/%s\n",
                std::string(labels::Name(call.result_label->integrity)).c_str(),
                std::string(labels::Name(call.result_label->confidentiality)).c_str());
  }
  std::printf("sandboxes: %d acquired, %d disposed\n", call.sandbox_acquisitions,
              call.sandbox_disposals);
}

// Reason codes of command-line problems beyond base::Flags'.
constexpr char kNotAnInteger[] = "not_an_integer";
constexpr char kConflictingFlags[] = "conflicting_flags";

struct Options {
  bool help = false, schema = false, version = false, print_argv = false, as_json = false;
  std::optional<std::string> args_json, replay_stdout, replay_stderr;
  std::optional<std::string> host_json, backend_json, labels_json, middleware;
  std::optional<std::string> upstream, upstream_ca;
  int replay_exit = 0;
  HostBounds bounds;
  bool max_rows_given = false, exec_timeout_given = false, max_output_given = false;
};

Status Conflict(std::string* problem, const std::string& line) {
  *problem = line;
  return ProgramError(kConflictingFlags, "the options do not go together");
}

// Reads the integer flags; `problem` names the one that does not read.
Status ReadNumbers(const base::Flags& flags, Options& o, std::string* problem) {
  int64_t replay_exit = 0;
  const struct {
    const char* flag;
    int64_t* out;
    bool* given;
  } numbers[] = {{"--replay-exit", &replay_exit, nullptr},
                 {"--max-rows", &o.bounds.max_rows, &o.max_rows_given},
                 {"--exec-timeout-seconds", &o.bounds.exec_timeout_seconds, &o.exec_timeout_given},
                 {"--max-output-bytes", &o.bounds.max_output_bytes, &o.max_output_given}};
  for (const auto& n : numbers) {
    const std::optional<std::string> text = flags.Value(n.flag);
    if (!text) continue;
    const std::optional<int64_t> value = ParseInt(*text);
    if (!value) {
      *problem = std::string(n.flag) + " needs an integer";
      return ProgramError(kNotAnInteger, "the option needs an integer");
    }
    *n.out = *value;
    if (n.given != nullptr) *n.given = true;
  }
  // A process's exit status is one byte; anything else cannot have been recorded.
  if (replay_exit < 0 || replay_exit > 255) {
    *problem = "--replay-exit is an exit status from 0 to 255";
    return ProgramError(kNotAnInteger, "the option is outside its range");
  }
  o.replay_exit = static_cast<int>(replay_exit);
  return OkStatus();
}

StatusOr<base::Flags> ReadFlagList(int argc, char** argv, std::string* problem) {
  using base::FlagKind;
  StatusOr<base::Flags> flags =
      base::Flags::ParseOrExplain(argc, argv,
                                  {{"--help", FlagKind::kSwitch},
                                   {"-h", FlagKind::kSwitch},
                                   {"--schema", FlagKind::kSwitch},
                                   {"--version", FlagKind::kSwitch},
                                   {"--print-argv", FlagKind::kSwitch},
                                   {"--json", FlagKind::kSwitch},
                                   {"--args-json", FlagKind::kValue},
                                   {"--replay-stdout", FlagKind::kValue},
                                   {"--replay-stderr", FlagKind::kValue},
                                   {"--replay-exit", FlagKind::kValue},
                                   {"--max-rows", FlagKind::kValue},
                                   {"--exec-timeout-seconds", FlagKind::kValue},
                                   {"--max-output-bytes", FlagKind::kValue},
                                   {"--host-json", FlagKind::kValue},
                                   {"--backend-json", FlagKind::kValue},
                                   {"--labels-json", FlagKind::kValue},
                                   {"--middleware", FlagKind::kValue},
                                   {"--upstream", FlagKind::kValue},
                                   {"--upstream-ca", FlagKind::kValue}},
                                  problem);
  return flags;
}

// Which flags go with which mode: plan, replay, or (neither) the local stack.
Status CheckModes(const Options& o, bool replay_exit, std::string* problem) {
  if (!o.args_json) return Conflict(problem, "--args-json is required");
  if (o.print_argv && o.replay_stdout) {
    return Conflict(problem, "--print-argv and --replay-stdout do not go together");
  }
  if ((o.replay_stderr || replay_exit) && !o.replay_stdout) {
    return Conflict(problem, "--replay-stderr and --replay-exit need --replay-stdout");
  }
  if (o.print_argv && (o.host_json || o.backend_json || o.labels_json || o.middleware)) {
    return Conflict(problem,
                    "--print-argv plans only; the host flags need --replay-stdout or the local "
                    "stack");
  }
  if (o.backend_json && !o.replay_stdout) {
    return Conflict(problem,
                    "--backend-json declares the scripted backend; it needs --replay-stdout");
  }
  if ((o.upstream || o.upstream_ca) && (o.print_argv || o.replay_stdout)) {
    return Conflict(problem, std::string(o.upstream ? "--upstream" : "--upstream-ca") +
                                 " is for the local stack, not --print-argv or a replay");
  }
  if (o.upstream.has_value() != o.upstream_ca.has_value()) {
    return Conflict(problem, "--upstream and --upstream-ca go together");
  }
  return OkStatus();
}

// The command line as Options; on failure `problem` is the line to show.
StatusOr<Options> ParseFlags(int argc, char** argv, std::string* problem) {
  ASSIGN_OR_RETURN(const base::Flags flags, ReadFlagList(argc, argv, problem));
  Options o;
  o.help = flags.Has("--help") || flags.Has("-h");
  o.schema = flags.Has("--schema");
  o.version = flags.Has("--version");
  if (o.help || o.schema || o.version) return o;
  o.print_argv = flags.Has("--print-argv");
  o.as_json = flags.Has("--json");
  o.args_json = flags.Value("--args-json");
  o.replay_stdout = flags.Value("--replay-stdout");
  o.replay_stderr = flags.Value("--replay-stderr");
  o.host_json = flags.Value("--host-json");
  o.backend_json = flags.Value("--backend-json");
  o.labels_json = flags.Value("--labels-json");
  o.middleware = flags.Value("--middleware");
  o.upstream = flags.Value("--upstream");
  o.upstream_ca = flags.Value("--upstream-ca");
  RETURN_IF_ERROR(ReadNumbers(flags, o, problem));
  RETURN_IF_ERROR(CheckModes(o, flags.Has("--replay-exit"), problem));
  return o;
}

std::string PlanJson(const StatusOr<LookupPlan>& plan) {
  std::string out = "{\"outcome\":";
  json::AppendQuoted(out, plan.ok() ? "planned" : OutcomeName(plan.status().outcome()));
  out += ",\"reason\":";
  if (!plan.ok()) {
    json::AppendQuoted(out, plan.status().reason());
    out += ",\"message\":";
    json::AppendQuoted(out, plan.status().message());
    return out + "}";
  }
  auto append_list = [&out](const std::vector<std::string>& list) {
    for (size_t i = 0; i < list.size(); ++i) {
      if (i > 0) out += ",";
      json::AppendQuoted(out, list[i]);
    }
  };
  out += "null,\"argv\":[";
  append_list(plan->argv);
  out += "],\"env\":[";
  append_list(plan->env);
  return out + "]}";
}

// Warnings go to stderr in one form, whichever entry point emitted them.
class StderrLogger : public Logger {
 public:
  void Warning(std::string_view category, std::string_view message) override {
    std::cerr << "warning: " << category << ": " << message << "\n";
  }
};

// --print-argv: validate and plan only.
int PrintPlan(const Options& options) {
  StderrLogger logger;
  StatusOr<LookupPlan> plan = PlanLookup(*options.args_json, options.bounds, &logger);
  if (options.as_json) {
    std::cout << PlanJson(plan) << "\n";
  } else if (plan.ok()) {
    for (const std::string& arg : plan->argv) {
      std::string quoted;
      json::AppendQuoted(quoted, arg);
      std::cout << quoted << "\n";
    }
  } else {
    std::cout << "refused (" << plan.status().reason() << "): " << plan.status().message() << "\n";
  }
  return plan.ok() ? 0 : ExitCodeFor(plan.status().outcome());
}

// A file a flag names; on failure `problem` names the flag, the path and the reason.
std::optional<std::string> ReadFlagFile(const char* flag, const std::string& path,
                                        std::string* problem) {
  StatusOr<std::string> content = base::ReadFile(base::CallerPath(path));
  if (content.ok()) return std::move(content).value();
  *problem =
      std::string("cannot read ") + flag + " file " + path + ": " + content.status().message();
  return std::nullopt;
}

std::vector<std::string> SplitList(const std::string& list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    if (end > start) out.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// The call as the host flags describe it, without a script.
conformance::host::ScriptedCall HostCall(const Options& o) {
  conformance::host::ScriptedCall call;
  call.arguments = *o.args_json;
  if (o.host_json) call.host = conformance::host::ConfigFromText(*o.host_json);
  if (o.backend_json) call.backend = conformance::host::ConfigFromText(*o.backend_json);
  if (o.labels_json) call.labels = conformance::host::ConfigFromText(*o.labels_json);
  if (o.middleware) call.middleware = SplitList(*o.middleware);
  if (o.max_rows_given) call.max_rows = o.bounds.max_rows;
  if (o.exec_timeout_given) call.exec_timeout_seconds = o.bounds.exec_timeout_seconds;
  if (o.max_output_given) call.max_output_bytes = o.bounds.max_output_bytes;
  return call;
}

// The scripted call for a replay; nullopt (with `problem`) when a recorded file cannot be read.
std::optional<conformance::host::ScriptedCall> ReplayCall(const Options& o, std::string* problem) {
  conformance::host::ScriptedCall call = HostCall(o);
  fakes::sandbox::CallScript script;
  std::optional<std::string> out = ReadFlagFile("--replay-stdout", *o.replay_stdout, problem);
  if (!out) return std::nullopt;
  script.exec.stdout_bytes = std::move(*out);
  if (o.replay_stderr) {
    std::optional<std::string> err = ReadFlagFile("--replay-stderr", *o.replay_stderr, problem);
    if (!err) return std::nullopt;
    script.exec.stderr_bytes = std::move(*err);
  }
  script.exec.exit_code = o.replay_exit;
  call.scripts = {script};
  return call;
}

// --replay-stdout: the whole host over a fake sandbox that returns the recording.
int Replay(const Options& options) {
  std::string problem;
  const std::optional<conformance::host::ScriptedCall> call = ReplayCall(options, &problem);
  if (!call) return Usage(problem);
  StatusOr<conformance::host::CallReport> report = conformance::host::RunScriptedCall(*call);
  if (!report.ok()) return Usage(report.status().message());
  for (const std::string& w : report->warnings) std::cerr << "warning: " << w << "\n";
  if (options.as_json) {
    std::cout << conformance::host::CallReportToJson(*report) << "\n";
  } else {
    PrintTable(*report);
  }
  return ExitCodeFor(report->outcome);
}

namespace stack = conformance::stack;

void Progress(const std::string& line) { std::cerr << "azure_pricing: " << line << "\n"; }

// What the local stack is made of; nullopt (with `problem`) when --upstream does not read.
std::optional<stack::LocalStackOptions> StackOptions(const Options& o, std::string* problem) {
  stack::LocalStackOptions so{.cli = stack::DefaultCli()};
  so.progress = Progress;
  so.egress_log = [](const std::string& line) { std::cerr << "egress: " << line << "\n"; };
  if (o.upstream) {
    std::optional<std::string> ca = ReadFlagFile("--upstream-ca", *o.upstream_ca, problem);
    if (!ca) return std::nullopt;
    StatusOr<stack::StackUpstream> up = stack::ParseUpstream(*o.upstream, *ca);
    if (!up.ok()) {
      *problem = "--upstream: " + up.status().message();
      return std::nullopt;
    }
    so.upstream = std::move(up).value();
    return so;
  }
  StatusOr<std::string> catalog = stack::OfflineCatalog();
  if (!catalog.ok()) {
    *problem = catalog.status().message();
    return std::nullopt;
  }
  so.catalog_jsonl = std::move(catalog).value();
  so.catalog_source = stack::kOfflineCatalogProvenance;
  return so;
}

// The report JSON with what ran it: {"outcome", ..., "stack": {"cli", "upstream", "backend"}}.
std::string StackJson(const conformance::host::CallReport& report, const stack::LocalStack& s) {
  std::string out = conformance::host::CallReportToJson(report);
  std::string extra = ",\"stack\":{\"cli\":";
  json::AppendQuoted(extra, s.cli().real ? "real" : "fake");
  extra += ",\"cli_description\":";
  json::AppendQuoted(extra, s.cli().description);
  extra += ",\"upstream\":";
  json::AppendQuoted(extra, s.upstream_description());
  extra += ",\"backend\":\"bubblewrap\",\"router_floor\":\"container\"}";
  out.insert(out.size() - 1, extra);
  return out;
}

bool NothingReceived(const conformance::host::CallReport& report) {
  if (report.outcome != Outcome::kCompleted || !report.output.has_value()) return false;
  const json::ParseResult parsed = json::ParseStrict(*report.output);
  const json::Value* received = parsed.value.Find("received_rows");
  return received != nullptr && received->is_number() && received->as_number() == 0;
}

// The call on a running stack, printed; the exit status.
int CallOnStack(const Options& options, stack::LocalStack& s) {
  Progress("calling azure_pricing_get: one sandbox, " + s.cli().description + ", egress to " +
           s.upstream_description());
  StatusOr<conformance::host::CallReport> report = s.Call(HostCall(options));
  if (!report.ok()) return Usage(report.status().message());
  for (const std::string& w : report->warnings) std::cerr << "warning: " << w << "\n";
  if (options.as_json) {
    std::cout << StackJson(*report, s) << "\n";
  } else {
    std::cout << "stack: " << s.cli().description << "; bubblewrap sandbox (router floor "
              << "container); " << s.upstream_description() << "\n";
    PrintTable(*report);
  }
  if (s.price_api() != nullptr && NothingReceived(*report)) {
    Progress(std::string("the offline catalog has no row for this query; the first line says "
                         "what it holds (") +
             stack::kOfflineCatalogProvenance + ")");
  }
  return ExitCodeFor(report->outcome);
}

// No mode flag: the whole stack on this machine, started for this one call and stopped after.
int RunLocalStack(const Options& options) {
  std::string problem;
  std::optional<stack::LocalStackOptions> so = StackOptions(options, &problem);
  if (!so) return Usage(problem);
  int status = kExitStackDidNotStart;
  {
    StatusOr<std::unique_ptr<stack::LocalStack>> s = stack::LocalStack::Start(std::move(*so));
    if (!s.ok()) {
      std::cerr << "azure_pricing: the local stack did not start: " << s.status().message() << "\n";
    } else {
      status = CallOnStack(options, **s);
    }
    Progress("stopping the local stack ...");
  }
  Progress("stopping the local stack ... done (backend, egress proxy, fake price API stopped; "
           "temporary directory removed)");
  return status;
}

int Main(int argc, char** argv) {
  std::string problem;
  const StatusOr<Options> options = ParseFlags(argc, argv, &problem);
  if (!options.ok()) return Usage(problem);
  if (options->help) {
    std::cout << kUsage << conformance::host::ConfigurationKeysHelp()
              << conformance::host::ConfigurationValuesHelp();
    return 0;
  }
  if (options->schema) {
    std::cout << ParameterSchemaJson() << "\n";
    return 0;
  }
  if (options->version) {
    std::cout << kPackageName << " " << kPackageVersion << " (" << kPackageStability << ")\n"
              << "image contract: " << kImageCliContract << " at /usr/local/bin/azmcp\n"
              << kCliProvenanceLine << "\n";
    return 0;
  }
  if (options->print_argv) return PrintPlan(*options);
  return options->replay_stdout ? Replay(*options) : RunLocalStack(*options);
}

}  // namespace
}  // namespace azure_pricing

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("azure_pricing", [&] { return azure_pricing::Main(argc, argv); });
}
