#include "conformance/gate/options.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "conformance/backend/backend_gate.h"
#include "conformance/gate/suite_registry.h"
#include "conformance/protocol_schema/validator.h"
#include "ref/base/files.h"
#include "ref/base/flags.h"
#include "ref/base/paths.h"
#include "ref/base/runfiles.h"

namespace azure_pricing::conformance {
namespace {

// What --validate-protocol runs the implementation's suites through when no --testee is given.
constexpr char kReferenceTestee[] = "conformance/testee/reference_testee";

constexpr char kUsageHead[] =
    "usage: gate [--suite all|SUITE,...] [--filter REGEX] [--shard I/N] [--seed N]\n"
    "            [--properties-count N] [--testee \"CMD ARGS\"] [--backend-adapter \"CMD ARGS\"]\n"
    "            [--azmcp FILE] [--bwrap FILE] [--json FILE] [--junit FILE] [--html FILE]\n"
    "            [--known-failures FILE] [--write-known-failures FILE] [--validate-protocol]\n"
    "            [--verbose] [--list-suites]\n"
    "Judges an implementation of azure_pricing_get (the C++ reference in process, or a testee)\n"
    "and a sandbox backend (the reference bubblewrap adapter, or yours). Prints a summary\n"
    "table and ends with `N passed, N failed` over the REQUIRED checks. Every check is REQUIRED\n"
    "(a spec MUST or a REQUIRED rule of docs/profile.md) or RECOMMENDED (a SHOULD, or the\n"
    "reference's exact wording): RECOMMENDED results are reported but never fail the gate.\n"
    "Exits 0 only when every REQUIRED check passed with zero skips, 1 otherwise, 64 on a usage\n"
    "error.\n";
// Then the suites, from the registry, and:
constexpr char kUsageFlags[] =
    "  --filter REGEX run only the checks whose id (or suite/id) the ECMAScript REGEX finds;\n"
    "                 a testee is sent only the cases selected\n"
    "  --shard I/N    run only shard I of N (a hash of suite/id), as Bazel's test sharding does\n"
    "  --seed N       the properties' seed (default 1); a failure prints the seed to rerun with\n"
    "  --properties-count N  generated calls per property (default 100)\n"
    "  --testee CMD   make the implementation's calls through the testee process CMD ARGS\n"
    "                 speaking conformance/testee/PROTOCOL.md instead of the reference in process\n"
    "  --backend-adapter CMD  judge the adapter process CMD ARGS speaking\n"
    "                 conformance/backend/protocol/PROTOCOL.md instead of the bubblewrap backend\n"
    "  --azmcp FILE   the real azmcp for the bubblewrap image (default: AZURE_PRICING_AZMCP,\n"
    "                 which tools/bazel sets to the npm cache)\n"
    "  --bwrap FILE   the bubblewrap program (default: bwrap on PATH)\n"
    "  --json FILE    the profile version, and every check: suite, id, requirements, level,\n"
    "                 result, expected, actual, time, and for a case its inputs, whole\n"
    "                 expectation and observation\n"
    "  --junit FILE   the same as JUnit XML, for CI\n"
    "  --html FILE    one self-contained page to read: the verdict, the summary, the\n"
    "                 specification with each requirement marked by this run's results,\n"
    "                 every failure and the backend's probes (docs/gate.md, \"The report page\")\n"
    "  --known-failures FILE  checks the implementation is known to fail, and how; the list\n"
    "                 must stay true (a listed check that passes or fails differently fails)\n"
    "  --write-known-failures FILE  write this run's failures as such a list\n"
    "  --validate-protocol  check every line of both protocols, both ways, against their JSON\n"
    "                 Schemas (conformance/backend/protocol/schema, conformance/testee/schema);\n"
    "                 without --testee the reference testee speaks the testee protocol for\n";
// Then the suites that judge an implementation, and:
constexpr char kUsageEnd[] =
    ". Any violation fails the run\n"
    "  --verbose      one line per check, and the catalog per requirement\n"
    "  --sequential   run the suites one after another in the gate's process; by default the\n"
    "                 backend, stack and live suites run beside the others (same output)\n"
    "  --list-suites  print each suite, NAME<TAB>DESCRIPTION, one a line, and exit\n";


// A whole decimal number in [min, max], or nullopt.
std::optional<uint64_t> ParseNumber(const std::string& text, uint64_t min, uint64_t max) {
  if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  const uint64_t value = std::strtoull(text.c_str(), nullptr, 10);
  if (value < min || value > max) return std::nullopt;
  return value;
}

// The suites, the filter, the seed and the count; `problem` says what does not read.
void ParseSelection(const base::Flags& flags, GateOptions& o, std::string& problem) {
  o.suites = ParseSuiteList(o.registry, flags.Value("--suite").value_or("all"), problem);
  if (const auto filter = flags.Value("--filter")) {
    o.filter_text = *filter;
    try {  // std::regex reports a bad pattern only by throwing; it stays inside this function
      o.filter = std::regex(*filter, std::regex::ECMAScript);
    } catch (const std::regex_error&) {
      problem = "--filter is not a valid ECMAScript regular expression";
    }
  }
  if (const auto seed = flags.Value("--seed")) {
    const auto n = ParseNumber(*seed, 0, UINT64_MAX >> 1);
    if (!n) problem = "--seed is a whole number";
    o.seed = n.value_or(kDefaultSeed);
  }
  if (const auto shard = flags.Value("--shard")) {
    const size_t slash = shard->find('/');
    const auto index = ParseNumber(shard->substr(0, slash), 0, 9999);
    const auto count = slash == std::string::npos ? std::nullopt
                                                  : ParseNumber(shard->substr(slash + 1), 1, 10000);
    if (!index || !count || *index >= *count) problem = "--shard is I/N with 0 <= I < N";
    o.shard_index = index.value_or(0);
    o.shard_count = count.value_or(1);
  }
  if (const auto count = flags.Value("--properties-count")) {
    const auto n = ParseNumber(*count, 1, 100000);
    if (!n) problem = "--properties-count is a whole number from 1 to 100000";
    o.property_cases = static_cast<int>(n.value_or(kDefaultPropertyCases));
  }
}

// The processes and files the run uses.
void ParseProcessesAndFiles(const base::Flags& flags, GateOptions& o, std::string& problem) {
  // Each command's own problem, named by its flag; an earlier flag's problem is kept as it is.
  std::string split;
  if (const auto adapter = flags.Value("--backend-adapter")) {
    o.backend_options.adapter = backend::SplitCommandLine(*adapter, &split);
    if (!split.empty() && problem.empty()) problem = "--backend-adapter: " + split;
  }
  split.clear();
  if (const auto testee = flags.Value("--testee")) {
    o.testee_command = *testee;
    o.testee = backend::SplitCommandLine(*testee, &split);
    if (!split.empty() && problem.empty()) problem = "--testee: " + split;
  }
  o.backend_options.bwrap = base::CallerPath(flags.Value("--bwrap").value_or(""));
  o.json_report = base::CallerPath(flags.Value("--json").value_or(""));
  o.junit_report = base::CallerPath(flags.Value("--junit").value_or(""));
  o.html_report = base::CallerPath(flags.Value("--html").value_or(""));
  o.known_failures_text = flags.Value("--known-failures").value_or("");
  o.known_failures = base::CallerPath(o.known_failures_text);
  o.write_known_failures = base::CallerPath(flags.Value("--write-known-failures").value_or(""));
  const char* cached = std::getenv("AZURE_PRICING_AZMCP");
  o.backend_options.azmcp =
      base::CallerPath(flags.Value("--azmcp").value_or(cached != nullptr ? cached : ""));
}

// --validate-protocol: the schemas, loaded before anything runs, and the reference testee when no
// --testee names another, so that the suites that judge an implementation speak the testee
// protocol (the backend suite always speaks the backend protocol, through an adapter).
void ParseProtocolValidation(const base::Flags& flags, GateOptions& o, std::string& problem) {
  if (!flags.Has("--validate-protocol")) return;
  StatusOr<protocol_schema::ProtocolSchemas> schemas = protocol_schema::ProtocolSchemas::Load();
  if (!schemas.ok()) {
    if (problem.empty()) problem = "--validate-protocol: " + schemas.status().message();
    return;
  }
  o.protocol_recorder = std::make_shared<protocol_schema::LineRecorder>(std::move(*schemas));
  o.backend_options.protocol_observer =
      o.protocol_recorder->ObserverFor(protocol_schema::Protocol::kBackend);
  if (o.testee.empty() && o.RunsAny(SuiteJudges::kImplementation)) {
    o.testee = {std::filesystem::absolute(base::Runfile(kReferenceTestee)).string()};
    o.testee_command = "//conformance/testee:reference_testee, for --validate-protocol";
    o.testee_is_reference = true;
  }
}

// Every path the run will read, write or execute, checked before any suite runs: a bad one is a
// usage error named at once, not a failure found after minutes of work.
void CheckPaths(const base::Flags& flags, const GateOptions& o, std::string& problem) {
  if (problem.empty()) {
    problem = base::FirstPathProblem({
        {"--json", flags.Value("--json"), base::CheckWritableFile},
        {"--junit", flags.Value("--junit"), base::CheckWritableFile},
        {"--html", flags.Value("--html"), base::CheckWritableFile},
        {"--write-known-failures", flags.Value("--write-known-failures"),
         base::CheckWritableFile},
        {"--known-failures", flags.Value("--known-failures"), base::CheckReadableFile},
        {"--azmcp", flags.Value("--azmcp"), base::CheckExecutableFile},
        {"--bwrap", flags.Value("--bwrap"), base::CheckExecutableFile},
    });
  }
  // The testee's and the adapter's programs, found as they will be started.
  const std::pair<const char*, const std::vector<std::string>*> programs[] = {
      {"--testee", &o.testee}, {"--backend-adapter", &o.backend_options.adapter}};
  for (const auto& [flag, argv] : programs) {
    if (argv->empty() || !problem.empty()) continue;
    const std::string program = base::ResolveProgram(argv->front());
    if (program.find('/') == std::string::npos) {
      problem = std::string(flag) + " " + program + ": no program of that name on PATH";
    } else if (const Status s = base::CheckExecutableFile(base::CallerPath(program)); !s.ok()) {
      problem = base::PathProblem(flag, argv->front(), s);
    }
  }
}

}  // namespace

std::string GateUsage(const SuiteList& registry) {
  return kUsageHead + SuiteUsage(registry) + kUsageFlags + "                 " +
         SuitesPhrase(registry, SuiteJudges::kImplementation) + kUsageEnd;
}

StatusOr<GateOptions> ParseGateOptions(int argc, const char* const* argv,
                                       const SuiteList& registry, std::string* out) {
  std::string problem;
  std::vector<base::FlagSpec> specs = {{"--verbose", base::FlagKind::kSwitch},
                                       {"--help", base::FlagKind::kSwitch},
                                       {"--list-suites", base::FlagKind::kSwitch},
                                       {"--sequential", base::FlagKind::kSwitch},
                                       {"--validate-protocol", base::FlagKind::kSwitch}};
  for (const char* name : {"--suite", "--filter", "--shard", "--seed", "--properties-count",
                           "--backend-adapter", "--testee", "--azmcp", "--bwrap", "--json",
                           "--junit", "--html", "--known-failures", "--write-known-failures"}) {
    specs.push_back({name, base::FlagKind::kValue});
  }
  const StatusOr<base::Flags> flags = base::Flags::ParseOrExplain(argc, argv, specs, &problem);
  GateOptions o;
  o.registry = registry;
  o.command_line.assign(argv + (argc > 0 ? 1 : 0), argv + argc);
  if (flags.ok()) {
    o.verbose = o.backend_options.verbose = flags->Has("--verbose");
    o.help = flags->Has("--help");
    o.list_suites = flags->Has("--list-suites");
    o.parallel = !flags->Has("--sequential");
    ParseSelection(*flags, o, problem);
    ParseProcessesAndFiles(*flags, o, problem);
    ParseProtocolValidation(*flags, o, problem);
    CheckPaths(*flags, o, problem);
  }
  if (!problem.empty()) {
    *out = problem;
    return ProgramError(kGateUsage, "the gate's command line does not read");
  }
  return o;
}


}  // namespace azure_pricing::conformance
