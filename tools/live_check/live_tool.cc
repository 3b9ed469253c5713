#include "tools/live_check/live_tool.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "conformance/live/checks.h"
#include "conformance/live/live_run.h"
#include "conformance/live/recording.h"
#include "conformance/stack/local_stack.h"
#include "ref/base/files.h"
#include "ref/base/flags.h"
#include "ref/base/paths.h"

namespace azure_pricing::tools::live_check {
namespace {

namespace live = conformance::live;
namespace base = azure_pricing::base;

constexpr char kRealHost[] = "prices.azure.com";
constexpr char kOptInVariable[] = "AZURE_PRICING_LIVE_CHECK";

constexpr char kLiveCheckUsage[] =
    "usage: live_check (--live prices.azure.com | --dry-run) [--json FILE] [--record DIR]\n"
    "                  [--only ID[,ID...]] [--pause-ms N] [--max-requests N]\n"
    "Runs the canonical queries (conformance/live/checks.json) through the whole stack: the\n"
    "reference tool, the bubblewrap backend, the GET-only egress proxy and the real azmcp\n"
    "(AZURE_PRICING_AZMCP; tools/bazel sets it), and judges each against the contract the gate\n"
    "encodes. Prints a pass/fail table with the CLI version seen on the wire.\n"
    "  --live prices.azure.com  opt in: the proxy reaches the real API, certificates verified\n"
    "                           (or set AZURE_PRICING_LIVE_CHECK=prices.azure.com)\n"
    "  --dry-run                the same list against the fake price API (no network)\n"
    "  --json FILE              also write the JSON report\n"
    "  --record DIR             also write a recording of the run (as //tools:record)\n"
    "  --only IDS               run only these checks\n"
    "  --pause-ms N             pause between queries (default 2000 live, 0 dry run)\n"
    "  --max-requests N         upstream requests in the run (default 40)\n"
    "Exit: 0 every check passed, 1 a check failed, 2 not opted in (nothing ran),\n"
    "64 usage, 69 the stack could not start or no real azmcp.\n";

constexpr char kRecordUsage[] =
    "usage: record --out DIR (--live prices.azure.com | --dry-run) [--only ID[,ID...]]\n"
    "              [--pause-ms N] [--max-requests N]\n"
    "Runs the live check's queries and writes what they saw into DIR (which must not exist):\n"
    "each query's CLI output and the upstream pages captured at the egress proxy, with\n"
    "PROVENANCE.md and recording.json. The only normalisation is the named transformer\n"
    "`cli-stdout: duration removed`. A recording replays through the fake price API\n"
    "(prices_server --replay) to the same CLI output.\n"
    "  --live prices.azure.com  opt in to the real API (or AZURE_PRICING_LIVE_CHECK=prices.azure.com)\n"
    "  --dry-run                record the run against the fake price API\n"
    "Exit: 0 recorded, 1 not recorded, 2 not opted in (nothing ran), 64 usage, 69 no stack.\n";

int Usage(LiveTool tool, const std::string& problem) {
  std::cerr << (tool == LiveTool::kRecord ? "record: " : "live_check: ") << problem << "\n"
            << (tool == LiveTool::kRecord ? kRecordUsage : kLiveCheckUsage);
  return kExitUsage;
}

std::vector<std::string> SplitComma(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, ',');) {
    if (!part.empty()) out.push_back(part);
  }
  return out;
}

std::optional<int> NonNegative(const std::optional<std::string>& v, int fallback) {
  if (!v.has_value()) return fallback;
  char* end = nullptr;
  const long n = std::strtol(v->c_str(), &end, 10);
  if (v->empty() || *end != '\0' || n < 0 || n > 1'000'000) return std::nullopt;
  return static_cast<int>(n);
}

// The command line as the operator typed it, for the recording's provenance.
std::string CommandLine(int argc, char** argv, LiveTool tool) {
  std::string out = tool == LiveTool::kRecord ? "tools/bazel run //tools:record --" :
                                                "tools/bazel run //tools:live_check --";
  for (int i = 1; i < argc; ++i) out += std::string(" ") + argv[i];
  return out;
}

}  // namespace

namespace {

enum class Mode { kNotOptedIn, kLive, kDryRun };

// The opt-in: --live naming the real host, or the environment variable naming it; a dry run
// needs none. nullopt (with `problem`) for a contradiction.
std::optional<Mode> ChooseMode(const base::Flags& flags, std::string& problem) {
  const std::optional<std::string> live = flags.Value("--live");
  const char* env = std::getenv(kOptInVariable);
  if (live.has_value() && flags.Has("--dry-run")) {
    problem = "give --live or --dry-run, not both";
    return std::nullopt;
  }
  if (flags.Has("--dry-run")) return Mode::kDryRun;
  if (live.has_value() && *live != kRealHost) {
    problem = "--live must name the real host: --live prices.azure.com";
    return std::nullopt;
  }
  if (live.has_value()) return Mode::kLive;
  if (env != nullptr && *env != '\0') {
    if (std::string(env) != kRealHost) {
      problem = std::string(kOptInVariable) + " must be prices.azure.com to opt in";
      return std::nullopt;
    }
    return Mode::kLive;
  }
  return Mode::kNotOptedIn;
}

int NotOptedIn(LiveTool tool) {
  const std::string name = tool == LiveTool::kRecord ? "record" : "live_check";
  std::cerr << name << ": not opted in, so nothing ran and no network was touched.\n"
            << name << ": the live check talks to the real prices.azure.com; opt in with\n"
            << "  tools/bazel run //tools:" << name << " -- --live prices.azure.com"
            << (tool == LiveTool::kRecord ? " --out DIR" : "") << "\n"
            << "or set " << kOptInVariable << "=prices.azure.com; --dry-run runs the same "
            << "queries against the fake price API.\n";
  return kExitNotOptedIn;
}

int Record(const live::LiveReport& report, const std::string& dir, const std::string& command,
           const std::string& name) {
  StatusOr<live::Recording> rec = live::RecordingFromReport(report, command);
  Status written = rec.ok() ? live::WriteRecording(*rec, dir) : rec.status();
  if (!written.ok()) {
    std::cerr << name << ": not recorded (" << written.reason() << "): " << written.message() << "\n";
    return kExitFailed;
  }
  std::cerr << name << ": recorded " << rec->queries.size() << " queries into " << dir << "\n";
  return kExitPassed;
}

// Writes what was asked for (the JSON report, a recording) and says how the run ended.
int Finish(const live::LiveReport& report, const base::Flags& flags,
           const std::optional<std::string>& out, LiveTool tool, const std::string& command) {
  const std::string name = tool == LiveTool::kRecord ? "record" : "live_check";
  if (const auto json = flags.Value("--json")) {
    const Status written = base::WriteFileAtomically(base::CallerPath(*json), live::LiveReportJson(report));
    if (!written.ok()) {
      std::cerr << name << ": " << base::PathProblem("--json", *json, written) << "\n";
      return kExitFailed;
    }
  }
  int status = report.failed == 0 ? kExitPassed : kExitFailed;
  if (out) {
    const int recorded = Record(report, base::CallerPath(*out), command, name);
    if (tool == LiveTool::kRecord || recorded != kExitPassed) status = recorded;
  }
  return status;
}

// The files the run will write, checked before any query: a run of minutes must not end in "cannot
// write". The recording's directory must not exist yet; its missing parents are created here, so
// that a parent that cannot exist is found now too.
std::string OutputProblem(const base::Flags& flags, const std::optional<std::string>& out,
                          LiveTool tool) {
  if (const auto json = flags.Value("--json")) {
    if (const Status s = base::CheckWritableFile(base::CallerPath(*json)); !s.ok()) {
      return base::PathProblem("--json", *json, s);
    }
  }
  if (!out) return "";
  const char* out_name = tool == LiveTool::kRecord ? "--out" : "--record";
  std::string dir = base::CallerPath(*out);
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();  // "rec/" is the directory rec
  Status s = base::CheckNewDirectory(dir);
  if (s.reason() == base::kFileExists) {
    return std::string(out_name) + " " + *out +
           ": it exists already; a recording is written whole, into a new directory";
  }
  if (s.reason() == base::kFileNoDirectory) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(dir).parent_path(), ec);
    s = base::CheckNewDirectory(dir);
  }
  return s.ok() ? "" : base::PathProblem(out_name, *out, s);
}

}  // namespace

int LiveToolMain(int argc, char** argv, LiveTool tool) {
  const std::string name = tool == LiveTool::kRecord ? "record" : "live_check";
  std::string problem;
  const StatusOr<base::Flags> flags = base::Flags::ParseOrExplain(
      argc, argv,
      {{"--help", base::FlagKind::kSwitch}, {"--live", base::FlagKind::kValue},
       {"--dry-run", base::FlagKind::kSwitch}, {"--json", base::FlagKind::kValue},
       {"--record", base::FlagKind::kValue}, {"--out", base::FlagKind::kValue},
       {"--only", base::FlagKind::kValue}, {"--pause-ms", base::FlagKind::kValue},
       {"--max-requests", base::FlagKind::kValue}},
      &problem);
  if (!flags.ok()) return Usage(tool, problem);
  if (flags->Has("--help")) {
    std::cout << (tool == LiveTool::kRecord ? kRecordUsage : kLiveCheckUsage);
    return kExitPassed;
  }
  const std::optional<std::string> out_flag =
      tool == LiveTool::kRecord ? flags->Value("--out") : flags->Value("--record");
  if (tool == LiveTool::kRecord && !out_flag) return Usage(tool, "--out DIR is required");
  if (tool == LiveTool::kRecord && (flags->Has("--record") || flags->Has("--json"))) {
    return Usage(tool, "record writes a recording only; --record and --json belong to live_check");
  }
  if (tool == LiveTool::kLiveCheck && flags->Has("--out")) return Usage(tool, "--out belongs to record");
  const std::optional<Mode> mode = ChooseMode(*flags, problem);
  if (!mode) return Usage(tool, problem);
  const bool dry = *mode == Mode::kDryRun;
  const std::optional<int> pause = NonNegative(flags->Value("--pause-ms"), dry ? 0 : 2000);
  const std::optional<int> cap = NonNegative(flags->Value("--max-requests"), 40);
  if (!pause || !cap) return Usage(tool, "--pause-ms and --max-requests take a whole number");
  // A cap of 0 would skip every check and still exit 0: nothing judged is not a pass.
  if (*cap == 0) return Usage(tool, "--max-requests is at least 1");
  if (*mode == Mode::kNotOptedIn) return NotOptedIn(tool);
  if (problem = OutputProblem(*flags, out_flag, tool); !problem.empty()) return Usage(tool, problem);

  const StatusOr<std::vector<live::LiveCheck>> checks = live::LoadBundledChecks();
  if (!checks.ok()) {
    std::cerr << name << ": " << checks.status().message() << "\n";
    return kExitUnavailable;
  }
  live::LiveRunOptions options{.mode = dry ? live::LiveMode::kDryRun : live::LiveMode::kLive,
                               .cli = conformance::stack::DefaultCli(),
                               .pause_ms = *pause, .max_requests = *cap,
                               .only = SplitComma(flags->Value("--only").value_or(""))};
  options.progress = [&name](const std::string& line) { std::cerr << name << ": " << line << "\n"; };
  const StatusOr<live::LiveReport> report = live::RunLiveChecks(*checks, options);
  if (!report.ok()) {
    std::cerr << name << ": " << report.status().message() << "\n";
    return report.status().reason() == live::kUnknownCheck ? kExitUsage : kExitUnavailable;
  }
  std::cout << live::FormatLiveTable(*report);
  return Finish(*report, *flags, out_flag, tool, CommandLine(argc, argv, tool));
}

}  // namespace azure_pricing::tools::live_check
