// The conformance gate: runs the selected suites (conformance/suites/, listed once in
// suites/suites.h) against the implementation under test and a sandbox backend, prints a
// summary table, requirement coverage and one line per failure, and exits non-zero unless every
// required check passed with zero skips. `tools/bazel run //conformance:gate [-- --help]`.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <utility>

#include "conformance/backend/backend_gate.h"
#include "conformance/case_runner.h"
#include "conformance/catalog.h"
#include "conformance/forked_suite.h"
#include "conformance/gate_record.h"
#include "conformance/gate_report.h"
#include "conformance/gate_run.h"
#include "conformance/known_failures.h"
#include "conformance/protocol_schema/validator.h"
#include "conformance/suite_registry.h"
#include "conformance/testee/runner.h"
#include "ref/base/files.h"
#include "ref/base/flags.h"
#include "ref/base/main_guard.h"
#include "ref/base/paths.h"
#include "ref/base/runfiles.h"
#include "ref/pricing/package.h"

namespace azure_pricing::conformance {
namespace {

constexpr char kCatalogPath[] = "conformance/requirements.json";
// What --validate-protocol runs the implementation's suites through when no --testee is given.
constexpr char kReferenceTestee[] = "conformance/testee/reference_testee";

constexpr char kUsageHead[] =
    "usage: gate [--suite all|SUITE,...] [--filter REGEX] [--shard I/N] [--seed N]\n"
    "            [--properties-count N] [--testee \"CMD ARGS\"] [--backend-adapter \"CMD ARGS\"]\n"
    "            [--azmcp FILE] [--bwrap FILE] [--json FILE] [--junit FILE]\n"
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
    "  --json FILE    every check: suite, id, requirements, level, result, expected, actual,\n"
    "                 time, and for a case its inputs, whole expectation and observation\n"
    "  --junit FILE   the same as JUnit XML, for CI\n"
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

std::string Usage() {
  return kUsageHead + SuiteUsage(GateSuites()) + kUsageFlags + "                 " +
         SuitesPhrase(GateSuites(), SuiteJudges::kImplementation) + kUsageEnd;
}

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
  o.registry = GateSuites();
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

// nullopt (after saying why) for a command line that does not read.
std::optional<GateOptions> ParseOptions(int argc, char** argv) {
  std::string problem;
  std::vector<base::FlagSpec> specs = {{"--verbose", base::FlagKind::kSwitch},
                                       {"--help", base::FlagKind::kSwitch},
                                       {"--list-suites", base::FlagKind::kSwitch},
                                       {"--sequential", base::FlagKind::kSwitch},
                                       {"--validate-protocol", base::FlagKind::kSwitch}};
  for (const char* name : {"--suite", "--filter", "--shard", "--seed", "--properties-count",
                           "--backend-adapter", "--testee", "--azmcp", "--bwrap", "--json",
                           "--junit", "--known-failures", "--write-known-failures"}) {
    specs.push_back({name, base::FlagKind::kValue});
  }
  const StatusOr<base::Flags> flags = base::Flags::ParseOrExplain(argc, argv, specs, &problem);
  GateOptions o;
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
    std::fprintf(stderr, "gate: %s\n%s", problem.c_str(), Usage().c_str());
    return std::nullopt;
  }
  return o;
}

// The smallest call a testee must answer: a lookup whose CLI returns no rows. Any well-formed
// answer passes; what the answer says is for the cases to judge.
host::ScriptedCall SmokeCall() {
  host::ScriptedCall call;
  call.arguments = R"({"sku":"Standard_D2s_v5","region":"westeurope"})";
  call.scripts.push_back(
      {.exec = {.stdout_bytes = R"({"status":200,"message":"Success","results":{"prices":[]}})"}});
  return call;
}

// Hello and the smoke call; the problem, or nothing. A testee that fails here is a broken
// adapter, not a non-conformant implementation, so no case is run against it.
std::string StartTestee(const GateOptions& options, std::unique_ptr<testee::TesteeProcess>& out) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  std::vector<std::string> argv = options.testee;
  argv[0] = base::ResolveProgram(argv[0]);
  // `bazel run` starts the gate in its runfiles; the testee's relative paths mean the user's.
  conformance::line_protocol::LineObserver observer;
  if (options.protocol_recorder) {
    observer = options.protocol_recorder->ObserverFor(protocol_schema::Protocol::kTestee);
  }
  StatusOr<std::unique_ptr<testee::TesteeProcess>> started =
      testee::TesteeProcess::Start(argv, env, base::CallerDirectory(), {}, std::move(observer));
  if (!started.ok()) {
    return "no hello answer (" + std::string(started.status().reason()) +
           "): " + started.status().message();
  }
  const StatusOr<host::CallReport> smoke = (*started)->RunCall(SmokeCall());
  if (!smoke.ok()) {
    return "the trivial case failed (" + std::string(smoke.status().reason()) +
           "): " + smoke.status().message();
  }
  out = std::move(*started);
  return "";
}

// Prints who is judged; a testee that fails its smoke check is a gate failure of its own.
std::unique_ptr<testee::TesteeProcess> StartImplementation(GateRun& run) {
  const GateOptions& o = run.options;
  if (!o.RunsAny(SuiteJudges::kImplementation) && !o.RunsAny(SuiteJudges::kStack)) {
    // Nothing of an implementation is judged, and no suite that uses the reference tool runs.
    std::vector<std::string_view> selected;
    for (const Suite* suite : o.registry) {
      if (o.Runs(std::string(suite->name))) selected.push_back(suite->name);
    }
    std::printf("implementation: none judged (%s only)\n", SuitesPhrase(selected).c_str());
    return nullptr;
  }
  if (o.testee.empty() || !o.RunsAny(SuiteJudges::kImplementation)) {
    run.implementation = std::string(kPackageName) + " " + kPackageVersion;
    std::printf("implementation: reference (in process), %s\n", run.implementation.c_str());
    return nullptr;
  }
  std::unique_ptr<testee::TesteeProcess> testee;
  const std::string broken = StartTestee(o, testee);
  run.implementation =
      testee ? testee->implementation().name + " " + testee->implementation().version : "unknown";
  std::printf("implementation: %s (testee: %s)\n", run.implementation.c_str(),
              o.testee_command.c_str());
  if (!broken.empty()) run.GateFailure("testee-adapter", "testee adapter broken: " + broken);
  return testee;
}

// --validate-protocol's line, the first violations under it; any violation fails the run.
void ReportProtocolValidation(GateRun& run) {
  if (!run.options.protocol_recorder) return;
  const protocol_schema::LineRecorder::Tally tally = run.options.protocol_recorder->tally();
  std::printf("\n%s\n", protocol_schema::SummaryLine(tally).c_str());
  for (const std::string& described : tally.described) std::printf("  %s\n", described.c_str());
  if (tally.violations == 0) return;
  const std::string lines = tally.violations == 1
                                ? "1 protocol line breaks"
                                : std::to_string(tally.violations) + " protocol lines break";
  run.GateFailure("protocol-validation",
                  lines + " the JSON Schemas; the first: " + tally.described.front());
}

// Failures the list names, failing exactly as it says, become known; an entry that no longer
// holds is a failure of its own, with the command that rewrites the list.
void ApplyKnownFailureList(GateRun& run) {
  const GateOptions& o = run.options;
  if (o.known_failures.empty()) return;
  std::printf("\nknown failures: %s\n", o.known_failures_text.c_str());
  const StatusOr<std::vector<KnownFailure>> known = LoadKnownFailures(o.known_failures);
  if (!known.ok()) {
    run.GateFailure("known-failures", known.status().message());
    return;
  }
  // A listed id of a suite this run left out, or that --filter excludes, is not held against it.
  const auto selected = [&run](const std::string& id) {
    for (const GateRecord& r : run.records) {
      if (r.id == id) return true;
    }
    return !run.options.Partial();
  };
  const std::vector<std::string> problems = ApplyKnownFailures(*known, run.records, selected);
  std::printf("  %zu listed, %zu do not hold\n", known->size(), problems.size());
  for (const std::string& problem : problems) run.GateFailure("known-failures", problem);
  if (!problems.empty()) {
    std::printf("  rewrite it: rerun with --write-known-failures %s\n",
                o.known_failures_text.c_str());
  }
}

// The report files; one that cannot be written is a failure of the run, not a silent loss.
void WriteReports(GateRun& run) {
  const GateOptions& o = run.options;
  if (!o.write_known_failures.empty()) {
    if (WriteKnownFailures(o.write_known_failures, run.implementation, run.records).ok()) {
      const auto listed =
          std::count_if(run.records.begin(), run.records.end(), ListedAsKnownFailure);
      std::printf("\nwrote %td known failures to %s (this run's verdict is unchanged)\n", listed,
                  o.write_known_failures.c_str());
    } else {
      run.GateFailure("reports", "cannot write --write-known-failures " + o.write_known_failures);
    }
  }
  if (!o.json_report.empty() &&
      !WriteJsonReport(o.json_report, run.implementation, run.records).ok()) {
    run.GateFailure("reports", "cannot write --json " + o.json_report);
  }
  if (!o.junit_report.empty() && !WriteJUnitReport(o.junit_report, run.records).ok()) {
    run.GateFailure("reports", "cannot write --junit " + o.junit_report);
  }
}

// One line per failure (with the case's inputs under it): first what fails the gate, then the
// RECOMMENDED checks not met, which do not.
void PrintFailures(const std::vector<GateRecord>& records) {
  for (const Level level : {Level::kRequired, Level::kRecommended}) {
    int listed = 0;
    for (const GateRecord& r : records) {
      const bool shown = r.verdict == Verdict::kSkipped
                             ? level == Level::kRequired
                             : r.verdict == Verdict::kFailed && r.level == level;
      if (!shown) continue;
      if (listed++ == 0) {
        std::printf("\n%s\n", level == Level::kRequired
                                   ? "failures"
                                   : "RECOMMENDED checks not met (they do not fail the gate)");
      }
      std::printf("  %s\n%s", FailureLine(r).c_str(), InputsLines(r).c_str());
    }
  }
}

// The summary table, coverage, one line per failure, the verdict and the closing tally.
int PrintVerdict(const GateRun& run, const Catalog* catalog) {
  std::printf("\nsummary\n%s",
              SummaryTable(Summarize(run.records, run.suite_seconds), run.wall_seconds).c_str());
  if (catalog != nullptr) {
    std::vector<std::string> implemented;
    for (const Requirement& r : catalog->requirements) {
      if (!r.pending_issue) implemented.push_back(r.id);
    }
    // A partial run leaves ids out on purpose, and a backend-only run covers the backend's ids
    // only; listing the rest would be noise.
    std::printf("%s\n", CoverageLine(ComputeRequirementCoverage(implemented, run.records),
                                     !run.options.Partial() && !run.options.BackendOnly())
                             .c_str());
  }
  PrintFailures(run.records);
  const int failures = CountGateFailures(run.records);
  int passed = 0, recommended_passed = 0, recommended_failed = 0;
  for (const GateRecord& r : run.records) {
    const bool required = r.level == Level::kRequired;
    passed += required && r.verdict == Verdict::kPassed ? 1 : 0;
    recommended_passed += !required && r.verdict == Verdict::kPassed ? 1 : 0;
    recommended_failed += !required && r.verdict == Verdict::kFailed ? 1 : 0;
  }
  const GateOptions& o = run.options;
  std::string scope;
  if (o.Partial()) {
    scope = " (partial run: not a conformance verdict)";
  } else if (!o.testee.empty() && !o.testee_is_reference) {
    scope =
        " (verdict on the testee: " + SuitesPhrase(o.registry, SuiteJudges::kImplementation) + ")";
  } else if (o.BackendOnly()) {
    scope = " (verdict on the backend: " + SuitesPhrase(o.registry, SuiteJudges::kBackend) + ")";
  }
  std::printf("\nRECOMMENDED checks (not counted in the verdict): %d passed, %d not met\n",
              recommended_passed, recommended_failed);
  if (const std::optional<BackendVerdict> backend = JudgeBackend(run.records);
      backend && !run.options.filter && run.options.shard_count <= 1) {
    const std::string failed =
        backend->failed == 0 ? "" : ", " + std::to_string(backend->failed) + " failed";
    std::printf("backend: %s (%d required probes%s)\n",
                backend->conformant ? "CONFORMANT" : "NOT CONFORMANT", backend->required,
                failed.c_str());
  }
  std::printf("gate: %s%s\n", failures == 0 ? "PASS" : "FAIL", scope.c_str());
  std::printf("%d passed, %d failed\n", passed, failures);
  return failures == 0 ? 0 : 1;
}

// Whether `suite` runs in a child process beside the others: it starts its own stack and never
// calls the implementation, and the run has more than one suite to overlap it with.
bool RunsForked(const GateRun& run, const Suite& suite) {
  if (suite.judges != SuiteJudges::kBackend && suite.judges != SuiteJudges::kStack) return false;
  if (!run.options.parallel) return false;
  int selected = 0;
  for (const Suite* s : run.options.registry) selected += run.options.Runs(std::string(s->name));
  return selected > 1;
}

// Every selected suite, each timed, reported in the registry's order. The suites that start
// their own stack run in child processes (conformance/forked_suite.h), started first, while
// the gate runs the others; their output follows in order. The implementation's calls go to the
// testee when there is one (started, and smoke-checked, before the header was printed); a
// testee that did not start skips the suites that would judge it, its failure already recorded.
void RunSuites(GateRun& run, testee::TesteeProcess* testee) {
  std::map<std::string, std::unique_ptr<ForkedSuite>> forked;
  for (const Suite* suite : run.options.registry) {
    if (!run.options.Runs(std::string(suite->name)) || !RunsForked(run, *suite)) continue;
    std::string problem;
    std::unique_ptr<ForkedSuite> child = ForkedSuite::Start(*suite, run, problem);
    if (child == nullptr) {
      run.GateFailure("suite-process", "the " + std::string(suite->name) +
                                           " suite's process did not start: " + problem);
    }
    forked[std::string(suite->name)] = std::move(child);
  }
  host::ScriptedHostRunner in_process;
  run.execute = [&in_process](const host::ScriptedCall& call) { return in_process.Run(call); };
  if (testee != nullptr) {
    run.execute = [testee](const host::ScriptedCall& call) { return testee->RunCall(call); };
  }
  const bool testee_broken = !run.options.testee.empty() && testee == nullptr;
  const auto deadline = std::chrono::steady_clock::now() + kForkedSuiteDeadline;
  for (const Suite* suite : run.options.registry) {
    const std::string name(suite->name);
    if (!run.options.Runs(name)) continue;
    if (const auto it = forked.find(name); it != forked.end()) {
      if (it->second != nullptr) it->second->Finish(run, deadline);
      continue;
    }
    if (suite->judges == SuiteJudges::kImplementation && testee_broken) continue;
    const auto start = std::chrono::steady_clock::now();
    suite->run(run);
    run.suite_seconds[name] = SecondsSince(start);
  }
  run.execute = nullptr;  // `in_process` ends here
}

int Main(int argc, char** argv) {
  const std::optional<GateOptions> options = ParseOptions(argc, argv);
  if (!options) return 64;
  if (options->help) {
    std::printf("%s", Usage().c_str());
    return 0;
  }
  if (options->list_suites) {
    std::printf("%s", SuiteListing(options->registry).c_str());
    return 0;
  }
  std::printf("azure-pricing-conformance gate\n");
  GateRun run{.options = *options};
  const std::optional<Catalog> catalog = LoadCatalog(kCatalogPath);
  if (!catalog) run.GateFailure("catalog-file", std::string(kCatalogPath) + " is missing or malformed");
  for (const Requirement& r : catalog ? catalog->requirements : std::vector<Requirement>{}) {
    if (r.level == "SHOULD") run.should_only.insert(r.id);
  }
  std::unique_ptr<testee::TesteeProcess> testee = StartImplementation(run);
  std::printf("%s\n", kCliProvenanceLine);
  if (options->filter) std::printf("filter: %s\n", options->filter_text.c_str());
  if (options->shard_count > 1) {
    std::printf("shard: %llu of %llu\n", static_cast<unsigned long long>(options->shard_index),
                static_cast<unsigned long long>(options->shard_count));
  }
  run.catalog = catalog ? &*catalog : nullptr;
  const auto start = std::chrono::steady_clock::now();
  RunSuites(run, testee.get());
  run.wall_seconds = SecondsSince(start);
  testee.reset();  // its stop line is validated too
  ReportProtocolValidation(run);
  if (options->filter && run.records.empty()) {
    run.GateFailure("filter", "--filter " + options->filter_text + " selected no check");
  }
  ApplyKnownFailureList(run);
  WriteReports(run);
  return PrintVerdict(run, catalog ? &*catalog : nullptr);
}

}  // namespace
}  // namespace azure_pricing::conformance

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("gate", [&] { return azure_pricing::conformance::Main(argc, argv); });
}
