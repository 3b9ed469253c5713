// The conformance gate: runs the suites (kind cases, properties, the backend suite, the stack)
// against the implementation under test, checks the requirement catalog, prints a summary table,
// requirement coverage and one line per failure, and exits non-zero unless every required check
// passed with zero skips. `tools/bazel run //conformance:gate [-- --help]`.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <utility>

#include "conformance/backend/backend_gate.h"
#include "conformance/backend/suite.h"
#include "conformance/case_runner.h"
#include "conformance/catalog.h"
#include "conformance/check_line.h"
#include "conformance/gate_record.h"
#include "conformance/gate_report.h"
#include "conformance/known_failures.h"
#include "conformance/live/checks.h"
#include "conformance/live/live_run.h"
#include "conformance/properties/gate_properties.h"
#include "conformance/protocol_schema/validator.h"
#include "conformance/stack/stack_suite.h"
#include "conformance/testee/runner.h"
#include "ref/base/files.h"
#include "ref/base/flags.h"
#include "ref/base/main_guard.h"
#include "ref/base/paths.h"
#include "ref/base/runfiles.h"
#include "ref/pricing/package.h"
#include "ref/pricing/reasons.h"

namespace azure_pricing::conformance {
namespace {

constexpr char kCatalogPath[] = "conformance/requirements.json";
constexpr uint64_t kDefaultSeed = 1;
constexpr int kDefaultPropertyCases = 100;
// What --validate-protocol runs the kind and properties suites through when no --testee is given.
constexpr char kReferenceTestee[] = "conformance/testee/reference_testee";

constexpr char kUsage[] =
    "usage: gate [--suite all|SUITE,...] [--filter REGEX] [--shard I/N] [--seed N]\n"
    "            [--properties-count N] [--testee \"CMD ARGS\"] [--backend-adapter \"CMD ARGS\"]\n"
    "            [--azmcp FILE] [--bwrap FILE] [--json FILE] [--junit FILE]\n"
    "            [--known-failures FILE] [--write-known-failures FILE] [--validate-protocol]\n"
    "            [--verbose]\n"
    "Judges an implementation of azure_pricing_get (the C++ reference in process, or a testee)\n"
    "and a sandbox backend (the reference bubblewrap adapter, or yours). Prints a summary\n"
    "table and ends with `N passed, N failed` over the REQUIRED checks. Every check is REQUIRED\n"
    "(a spec MUST or a REQUIRED rule of docs/profile.md) or RECOMMENDED (a SHOULD, or the\n"
    "reference's exact wording): RECOMMENDED results are reported but never fail the gate.\n"
    "Exits 0 only when every REQUIRED check passed with zero skips, 1 otherwise, 64 on a usage\n"
    "error.\n"
    "  --suite S,...  kind (the cases in conformance/cases and the catalog check), properties\n"
    "                 (generated calls), backend (the backend suite), stack (end-to-end cases\n"
    "                 through the local stack: bubblewrap, egress proxy, azmcp, fake price API),\n"
    "                 live (the live check's dry run: its canonical queries against the fake\n"
    "                 price API; //tools:live_check runs them live), or all (the default);\n"
    "                 `cases` is accepted for kind\n"
    "  --filter REGEX run only the checks whose id (or suite/id) the ECMAScript REGEX finds;\n"
    "                 a testee is sent only the cases selected\n"
    "  --shard I/N    run only shard I of N (a hash of suite/id), as Bazel's test sharding does\n"
    "  --seed N       the properties' seed (default 1); a failure prints the seed to rerun with\n"
    "  --properties-count N  generated calls per property (default 100)\n"
    "  --testee CMD   make the kind and properties calls through the testee process CMD ARGS\n"
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
    "                 without --testee the reference testee speaks the testee protocol for the\n"
    "                 kind and properties suites. Any violation fails the run\n"
    "  --verbose      one line per check, and the catalog per requirement\n";

const char* const kSuites[] = {"kind", "properties", "backend", "stack", "live"};

struct Options {
  bool verbose = false;
  bool help = false;
  std::set<std::string> suites;
  std::string filter_text;
  std::optional<std::regex> filter;
  uint64_t seed = kDefaultSeed;
  int property_cases = kDefaultPropertyCases;
  uint64_t shard_index = 0, shard_count = 1;  // --shard I/N
  backend::BackendGateOptions backend_options;
  std::string testee_command;       // as given; empty: the reference in process
  std::vector<std::string> testee;  // split
  // The testee is the reference itself, over the protocol for --validate-protocol: the run is
  // the reference's, judged whole as without a testee.
  bool testee_is_reference = false;
  std::string json_report, junit_report;
  std::string known_failures, write_known_failures;
  std::string known_failures_text;  // as the user spelt it, for the lines that name it
  // --validate-protocol: every protocol line the run speaks is shown to it.
  std::shared_ptr<protocol_schema::LineRecorder> protocol_recorder;

  bool Runs(const std::string& suite) const { return suites.count(suite) != 0; }
  bool Selected(const std::string& suite, const std::string& id) const {
    if (shard_count > 1 && Fnv1a(suite + "/" + id) % shard_count != shard_index) return false;
    return !filter || std::regex_search(id, *filter) || std::regex_search(suite + "/" + id, *filter);
  }
  // A run that leaves checks out is not a conformance verdict, whatever it finds. A testee is
  // judged by the kind and properties suites alone (the others judge a sandbox backend and the
  // reference's stack), so those two make its verdict whole.
  bool Partial() const {
    if (filter.has_value() || shard_count > 1) return true;
    if (!testee.empty() && !testee_is_reference) return !Runs("kind") || !Runs("properties");
    if (BackendOnly()) return false;
    return suites.size() < std::size(kSuites);
  }
  // A sandbox backend is judged by the backend suite alone: that run is its whole verdict.
  bool BackendOnly() const { return testee.empty() && suites == std::set<std::string>{"backend"}; }
  // A shard is a function of the check's name alone, so every shard agrees without talking.
  static uint64_t Fnv1a(const std::string& text) {
    uint64_t h = 14695981039346656037ULL;
    for (const unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
    // splitmix64's finaliser: FNV's low bits alone split a handful of similar names unevenly.
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
    return h ^ (h >> 31);
  }
};

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
void ParseSelection(const base::Flags& flags, Options& o, std::string& problem) {
  std::string list = flags.Value("--suite").value_or("all");
  for (size_t start = 0; start <= list.size();) {
    const size_t comma = std::min(list.find(',', start), list.size());
    const std::string suite = list.substr(start, comma - start);
    start = comma + 1;
    if (suite == "all") {
      o.suites.insert(std::begin(kSuites), std::end(kSuites));
    } else if (suite == "cases" || suite == "kind") {
      o.suites.insert("kind");
    } else if (std::find(std::begin(kSuites), std::end(kSuites), suite) != std::end(kSuites)) {
      o.suites.insert(suite);
    } else {
      problem = "--suite is all, or a comma-separated list of kind, properties, backend, stack, live";
    }
  }
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
void ParseProcessesAndFiles(const base::Flags& flags, Options& o, std::string& problem) {
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
// --testee names another, so that the kind and properties suites speak the testee protocol (the
// backend suite always speaks the backend protocol, through an adapter).
void ParseProtocolValidation(const base::Flags& flags, Options& o, std::string& problem) {
  if (!flags.Has("--validate-protocol")) return;
  StatusOr<protocol_schema::ProtocolSchemas> schemas = protocol_schema::ProtocolSchemas::Load();
  if (!schemas.ok()) {
    if (problem.empty()) problem = "--validate-protocol: " + schemas.status().message();
    return;
  }
  o.protocol_recorder = std::make_shared<protocol_schema::LineRecorder>(std::move(*schemas));
  o.backend_options.protocol_observer =
      o.protocol_recorder->ObserverFor(protocol_schema::Protocol::kBackend);
  if (o.testee.empty() && (o.Runs("kind") || o.Runs("properties"))) {
    o.testee = {std::filesystem::absolute(base::Runfile(kReferenceTestee)).string()};
    o.testee_command = "//conformance/testee:reference_testee, for --validate-protocol";
    o.testee_is_reference = true;
  }
}

// Every path the run will read, write or execute, checked before any suite runs: a bad one is a
// usage error named at once, not a failure found after minutes of work.
void CheckPaths(const base::Flags& flags, const Options& o, std::string& problem) {
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
std::optional<Options> ParseOptions(int argc, char** argv) {
  std::string problem;
  std::vector<base::FlagSpec> specs = {{"--verbose", base::FlagKind::kSwitch},
                                       {"--help", base::FlagKind::kSwitch},
                                       {"--validate-protocol", base::FlagKind::kSwitch}};
  for (const char* name : {"--suite", "--filter", "--shard", "--seed", "--properties-count",
                           "--backend-adapter", "--testee", "--azmcp", "--bwrap", "--json",
                           "--junit", "--known-failures", "--write-known-failures"}) {
    specs.push_back({name, base::FlagKind::kValue});
  }
  const StatusOr<base::Flags> flags = base::Flags::ParseOrExplain(argc, argv, specs, &problem);
  Options o;
  if (flags.ok()) {
    o.verbose = o.backend_options.verbose = flags->Has("--verbose");
    o.help = flags->Has("--help");
    ParseSelection(*flags, o, problem);
    ParseProcessesAndFiles(*flags, o, problem);
    ParseProtocolValidation(*flags, o, problem);
    CheckPaths(*flags, o, problem);
  }
  if (!problem.empty()) {
    std::fprintf(stderr, "gate: %s\n%s", problem.c_str(), kUsage);
    return std::nullopt;
  }
  return o;
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One line rewritten in place on a terminal, so a long run shows where it is; nothing at all
// when stdout is a file or a pipe (CI logs stay clean).
class ProgressLine {
 public:
  ProgressLine() : enabled_(isatty(STDOUT_FILENO) == 1) {}
  void Show(const std::string& suite, size_t done, size_t total, const std::string& id) {
    if (!enabled_) return;
    std::printf("\r\033[K[%s %zu/%zu] %.60s", suite.c_str(), done, total, id.c_str());
    std::fflush(stdout);
    shown_ = true;
  }
  // Before any ordinary line.
  void Clear() {
    if (!shown_) return;
    std::printf("\r\033[K");
    shown_ = false;
  }

 private:
  bool enabled_;
  bool shown_ = false;
};

// Everything the run concluded, in order.
struct Run {
  const Options& options;
  std::vector<GateRecord> records;
  std::map<std::string, double> suite_seconds;
  std::string implementation;
  std::set<std::string> should_only;  // catalog ids whose level is SHOULD
  ProgressLine progress;

  // A failure of the run itself (a broken testee, a report not written).
  // A failure of the run itself (no case files, a broken testee, a list that does not hold),
  // named by what went wrong; `what` is the whole story.
  void GateFailure(const std::string& id, const std::string& what) {
    records.push_back({.suite = kGateSuite, .id = id, .verdict = Verdict::kFailed, .detail = what});
  }
  // RECOMMENDED when every cited id is a SHOULD: such a failure is reported but does not fail
  // the gate.
  Level LevelOf(const std::vector<std::string>& ids) const {
    if (ids.empty()) return Level::kRequired;
    for (const std::string& id : ids) {
      if (should_only.count(id) == 0) return Level::kRequired;
    }
    return Level::kRecommended;
  }
  // A record's own RECOMMENDED level (a wording check) stays whatever it cites.
  void Add(GateRecord record) {
    if (record.level == Level::kRequired) record.level = LevelOf(record.requirements);
    records.push_back(std::move(record));
  }
};

using Citations = std::map<std::string, std::set<std::string>>;

// The suffix of a case's wording record: its exact texts, judged apart at RECOMMENDED level.
constexpr char kWordingSuffix[] = "/wording";

GateRecord CaseRecord(const CaseResult& r) {
  const std::string expected =
      r.expected_outcome + (r.expected_reason.empty() ? "" : "/" + r.expected_reason);
  return {.suite = "kind",
          .id = r.id,
          .file = r.file,
          .requirements = r.requirements,
          .verdict = r.passed ? Verdict::kPassed : Verdict::kFailed,
          .expected = expected,
          .actual = r.actual,
          .detail = r.detail,
          .inputs = r.inputs,
          .expected_value = r.expected_value,
          .actual_value = r.actual_value};
}

// The reference's exact wording is PROFILE-003 alone: a wording miss says nothing of the MUSTs
// the case's own record judges.
constexpr char kWordingRequirement[] = "PROFILE-003";

GateRecord WordingRecord(const CaseResult& r) {
  GateRecord record = CaseRecord(r);
  record.id += kWordingSuffix;
  record.requirements = {kWordingRequirement};
  record.verdict = r.wording_passed ? Verdict::kPassed : Verdict::kFailed;
  record.detail = r.wording_detail;
  record.level = Level::kRecommended;
  return record;
}

bool CaseSelected(const Options& o, const std::string& id) {
  return o.Selected("kind", id) || o.Selected("kind", id + kWordingSuffix);
}

// Runs every case file; adds each case's requirements to `citations` and its expected
// (outcome, reason) to `reached`.
void RunCases(Run& run, const CallExecutor& execute, Citations& citations,
              std::set<std::pair<std::string, std::string>>& reached) {
  std::printf("\nkind\n");
  const std::vector<std::string> files = CaseFiles();
  if (files.empty()) run.GateFailure("case-files", std::string("no case files in ") + kCaseDirectory);
  for (size_t f = 0; f < files.size(); ++f) {
    run.progress.Show("kind", f, files.size(), files[f]);
    const auto start = std::chrono::steady_clock::now();
    const std::vector<CaseResult> results = RunCaseFile(
        files[f], execute, [&run](const std::string& id) { return CaseSelected(run.options, id); });
    size_t ran = 0;
    for (const CaseResult& r : results) ran += r.ran ? 1 : 0;
    const double each = ran == 0 ? 0 : SecondsSince(start) / static_cast<double>(ran);
    int passed = 0, failed = 0, wording = 0, wording_met = 0;
    run.progress.Clear();
    for (const CaseResult& r : results) {
      for (const std::string& id : r.requirements) citations["case " + r.id].insert(id);
      if (r.has_wording) citations["case " + r.id + kWordingSuffix].insert(kWordingRequirement);
      reached.insert({r.expected_outcome, r.expected_reason});
      if (!r.ran) continue;
      std::vector<GateRecord> records;
      if (run.options.Selected("kind", r.id)) records.push_back(CaseRecord(r));
      if (r.has_wording && run.options.Selected("kind", r.id + kWordingSuffix)) {
        records.push_back(WordingRecord(r));
      }
      for (GateRecord& record : records) {
        if (run.options.verbose) {
          std::printf("  %s %s\n", record.verdict == Verdict::kPassed ? "ok  " : "FAIL",
                      record.id.c_str());
        }
        record.seconds = each / static_cast<double>(records.size());
        run.Add(std::move(record));
        const GateRecord& added = run.records.back();
        const bool ok = added.verdict == Verdict::kPassed;
        if (added.level == Level::kRequired) ++(ok ? passed : failed);
        if (added.level == Level::kRecommended) {
          ++wording;
          wording_met += ok ? 1 : 0;
        }
      }
    }
    // REQUIRED records, before any known-failures list is applied; RECOMMENDED ones after ';'.
    const std::string recommended =
        wording == 0 ? "" : "; RECOMMENDED " + std::to_string(wording_met) + " of " +
                                std::to_string(wording) + " met";
    std::printf("  %-36s %3d passed, %d failed%s\n", files[f].c_str(), passed, failed,
                recommended.c_str());
  }
}

// Informational: a reason no case expects is behaviour the cases do not pin down (unit tests may
// still cover it), not a failure of the implementation.
void PrintUnreachedReasons(const std::set<std::pair<std::string, std::string>>& reached) {
  std::string unreached;
  int count = 0;
  for (const reasons::ReasonCode& r : reasons::kAll) {
    const std::pair<std::string, std::string> key(OutcomeName(r.outcome), r.code);
    if (reached.count(key) != 0) continue;
    unreached += std::string(count++ == 0 ? "" : ", ") + key.first + "/" + key.second;
  }
  std::printf("  reasons not reached by any case: %d of %zu%s%s\n", count, reasons::kAll.size(),
              count == 0 ? "" : ": ", unreached.c_str());
}

void PrintCatalog(const Catalog& catalog, const Coverage& coverage, bool verbose) {
  int implemented = 0;
  for (const Requirement& r : catalog.requirements) implemented += r.pending_issue ? 0 : 1;
  std::printf("  %zu requirements, %d implemented, %d cited by a case, probe, property or test\n",
              catalog.requirements.size(), implemented,
              implemented - static_cast<int>(coverage.uncited.size()));
  if (!verbose) return;
  for (const Requirement& r : catalog.requirements) {
    const auto it = coverage.cited_by.find(r.id);
    std::string notes;
    if (r.pending_issue) notes += " (pending issue " + std::to_string(*r.pending_issue) + ")";
    if (r.observed_on) notes += " (observed on " + *r.observed_on + ")";
    std::printf("  %-12s %-6s %3zu citation(s)%s\n", r.id.c_str(), r.level.c_str(),
                it == coverage.cited_by.end() ? 0 : it->second.size(), notes.c_str());
  }
}

// The catalog's four checks, each a record: every implemented id cited, every cited id known,
// no pending id claimed, every CITES declaration well formed.
void CheckCatalog(Run& run, const Catalog& catalog, Citations citations) {
  std::printf("\ncatalog\n");
  const TestCitations tests = ReadTestCitations(TestSourceFiles());
  citations.insert(tests.by_source.begin(), tests.by_source.end());
  const Coverage coverage = ComputeCoverage(catalog, citations);
  PrintCatalog(catalog, coverage, run.options.verbose);
  auto check = [&run](const char* id, const std::vector<std::string>& problems,
                      const std::string& what) {
    if (!run.options.Selected("catalog", id)) return;
    std::string detail;
    for (const std::string& p : problems) detail += (detail.empty() ? "" : "; ") + p + what;
    run.Add({.suite = "catalog", .id = id,
             .verdict = problems.empty() ? Verdict::kPassed : Verdict::kFailed,
             .detail = detail});
  };
  check("catalog-implemented-ids-cited", coverage.uncited,
        " is implemented but no case or test cites it");
  check("catalog-cited-ids-known", coverage.unknown, " is cited but not in the catalog");
  check("catalog-pending-ids-not-claimed", coverage.pending_but_cited,
        " is cited but marked pending: update the catalog");
  check("catalog-citations-well-formed", tests.problems, "");
}

void RunKindSuite(Run& run, const Catalog* catalog, const CallExecutor& execute) {
  const auto start = std::chrono::steady_clock::now();
  Citations citations;
  // The backend suite's probes and the properties cite requirements as cases do, whether or not
  // this run runs them.
  for (const backend::ProbeInfo& probe : backend::BackendProbes()) {
    for (const std::string& id : probe.requirements) citations["probe " + probe.id].insert(id);
  }
  for (const properties::GatePropertyInfo& p : properties::GateProperties()) {
    for (const std::string& id : p.requirements) citations["property " + p.id].insert(id);
  }
  std::set<std::pair<std::string, std::string>> reached;
  RunCases(run, execute, citations, reached);
  PrintUnreachedReasons(reached);
  run.suite_seconds["kind"] = SecondsSince(start);
  if (catalog != nullptr) CheckCatalog(run, *catalog, std::move(citations));
}

void RunPropertiesSuite(Run& run, const CallExecutor& execute) {
  const auto start = std::chrono::steady_clock::now();
  std::printf("\nproperties (seed %llu, %d calls each)\n",
              static_cast<unsigned long long>(run.options.seed), run.options.property_cases);
  const auto selected = [&run](const std::string& id) {
    return run.options.Selected("properties", id);
  };
  size_t done = 0;
  for (const properties::GatePropertyInfo& info : properties::GateProperties()) {
    if (!selected(info.id)) continue;
    run.progress.Show("properties", done++, properties::GateProperties().size(), info.id);
    const auto results = properties::RunGateProperties(
        execute, {.seed = run.options.seed, .cases = run.options.property_cases},
        [&info](const std::string& id) { return id == info.id; });
    run.progress.Clear();
    for (const properties::GatePropertyResult& r : results) {
      std::printf("  %s %-48s %d calls\n", r.passed ? "ok  " : "FAIL", r.info.id.c_str(),
                  r.cases_passed + (r.passed ? 0 : 1));
      run.Add({.suite = "properties", .id = r.info.id, .requirements = r.info.requirements,
               .verdict = r.passed ? Verdict::kPassed : Verdict::kFailed,
               .expected = r.info.rule,
               .detail = r.passed ? "" : r.detail + " (rerun with --seed " +
                                             std::to_string(run.options.seed) + ")",
               .seconds = r.seconds});
    }
  }
  run.suite_seconds["properties"] = SecondsSince(start);
}

void RunBackendSuite(Run& run) {
  const auto start = std::chrono::steady_clock::now();
  std::printf("\n");
  const backend::BackendGateResult result = backend::RunBackendGate(run.options.backend_options);
  if (!result.problem.empty()) {
    for (const backend::ProbeInfo& probe : backend::BackendProbes()) {
      if (!run.options.Selected("backend", probe.id)) continue;
      run.Add({.suite = "backend", .id = probe.id, .requirements = probe.requirements,
               .verdict = Verdict::kSkipped, .detail = "not run: " + result.problem});
    }
  }
  for (const backend::ProbeResult& r : result.probes) {
    if (!run.options.Selected("backend", r.id)) continue;
    run.Add({.suite = "backend", .id = r.id, .requirements = r.requirements,
             .verdict = !r.applicable ? Verdict::kNotApplicable
                        : r.passed    ? Verdict::kPassed
                                      : Verdict::kFailed,
             .expected = r.passed || !r.applicable ? "" : r.expected,
             .actual = r.passed || !r.applicable ? "" : r.detail,
             .detail = r.applicable ? "" : "not applicable: " + r.detail});
  }
  run.suite_seconds["backend"] = SecondsSince(start);
}

// End-to-end cases through the local stack, with the reference tool: the real CLI when the npm
// cache holds it, else the fake (the suite says which).
void RunStackSuite(Run& run) {
  const auto start = std::chrono::steady_clock::now();
  std::printf("\nstack\n");
  stack::StackSuiteOptions options;
  options.bwrap = run.options.backend_options.bwrap;
  options.progress = [&run](const stack::StackCaseResult& r) {
    if (run.options.Selected("stack", r.id)) std::printf("%s\n", stack::FormatStackCase(r).c_str());
    std::fflush(stdout);  // cases take seconds; show each as it ends
  };
  const stack::StackSuiteResult result = stack::RunStackSuite(options);
  if (!result.cli.empty()) std::printf("  cli: %s\n", result.cli.c_str());
  if (!result.problem.empty()) {
    std::printf("  the stack did not start: %s\n", result.problem.c_str());
    if (run.options.Selected("stack", "stack")) {
      run.Add({.suite = "stack", .id = "stack", .verdict = Verdict::kSkipped,
               .detail = "no stack case ran: " + result.problem});
    }
  }
  for (const stack::StackCaseResult& r : result.cases) {
    if (!run.options.Selected("stack", r.id)) continue;
    run.Add({.suite = "stack", .id = r.id, .requirements = r.requirements,
             .verdict = r.passed ? Verdict::kPassed : Verdict::kFailed,
             .expected = r.expected, .actual = r.actual, .detail = r.passed ? "" : r.detail});
  }
  run.suite_seconds["stack"] = SecondsSince(start);
}

// The live check's canonical queries, dry: the same list and judgements //tools:live_check runs
// against the real prices.azure.com, here against the fake price API on the local stack.
void RunLiveDryRunSuite(Run& run) {
  const auto start = std::chrono::steady_clock::now();
  std::printf("\nlive (dry run)\n");
  StatusOr<std::vector<live::LiveCheck>> checks = live::LoadBundledChecks();
  live::LiveRunOptions options{.mode = live::LiveMode::kDryRun, .cli = stack::DefaultCli(),
                               .pause_ms = 0, .bwrap = run.options.backend_options.bwrap};
  StatusOr<live::LiveReport> report =
      checks.ok() ? live::RunLiveChecks(*checks, options) : StatusOr<live::LiveReport>(checks.status());
  if (!report.ok()) {
    std::printf("  the live check's dry run did not start: %s\n", report.status().message().c_str());
    if (run.options.Selected("live", "live")) {
      run.Add({.suite = "live", .id = "live", .verdict = Verdict::kSkipped,
               .detail = "no live check ran: " + report.status().message()});
    }
    run.suite_seconds["live"] = SecondsSince(start);
    return;
  }
  std::printf("  cli: %s (version on the wire: %s)\n", report->cli.c_str(), report->cli_version.c_str());
  for (const live::CheckResult& r : report->results) {
    const std::string id = "live." + r.check.id;
    if (!run.options.Selected("live", id)) continue;
    const std::string failed = live::FailedFindings(r.findings);
    const std::string mark =
        r.check.unverified.empty() ? "" : "; " + std::string(live::kUnverifiedMark);
    std::printf("%s\n", CheckLine(r.passed, id, (r.passed ? r.outcome : failed) + mark).c_str());
    run.Add({.suite = "live", .id = id, .requirements = r.check.requirements,
             .verdict = r.passed ? Verdict::kPassed : Verdict::kFailed,
             .expected = r.passed ? "" : r.check.what, .actual = r.passed ? "" : r.outcome,
             .detail = failed});
  }
  run.suite_seconds["live"] = SecondsSince(start);
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
std::string StartTestee(const Options& options, std::unique_ptr<testee::TesteeProcess>& out) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  std::vector<std::string> argv = options.testee;
  argv[0] = base::ResolveProgram(argv[0]);
  // `bazel run` starts the gate in its runfiles; the testee's relative paths mean the user's.
  backend_protocol::LineObserver observer;
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

// The implementation's checks: the kind cases, the catalog and the properties, through the
// testee when there is one (started, and smoke-checked, before the header was printed).
void RunImplementationSuites(Run& run, const Catalog* catalog,
                             testee::TesteeProcess* testee) {
  host::ScriptedHostRunner in_process;
  CallExecutor execute = [&in_process](const host::ScriptedCall& call) {
    return in_process.Run(call);
  };
  if (testee != nullptr) {
    execute = [testee](const host::ScriptedCall& call) { return testee->RunCall(call); };
  }
  if (run.options.Runs("kind")) RunKindSuite(run, catalog, execute);
  if (run.options.Runs("properties")) RunPropertiesSuite(run, execute);
}

// Prints who is judged; a testee that fails its smoke check is a gate failure of its own.
std::unique_ptr<testee::TesteeProcess> StartImplementation(Run& run) {
  const Options& o = run.options;
  if (o.BackendOnly()) {
    // Nothing of an implementation is judged; the stack and live suites, which use the
    // reference tool, do not run either.
    std::printf("implementation: none judged (the backend suite only)\n");
    return nullptr;
  }
  if (o.testee.empty() || (!o.Runs("kind") && !o.Runs("properties"))) {
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
void ReportProtocolValidation(Run& run) {
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
void ApplyKnownFailureList(Run& run) {
  const Options& o = run.options;
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
void WriteReports(Run& run) {
  const Options& o = run.options;
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
int PrintVerdict(const Run& run, const Catalog* catalog) {
  std::printf("\nsummary\n%s", SummaryTable(Summarize(run.records, run.suite_seconds)).c_str());
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
  const char* scope = run.options.Partial() ? " (partial run: not a conformance verdict)"
                      : !run.options.testee.empty() && !run.options.testee_is_reference
                          ? " (verdict on the testee: the kind and properties suites)"
                      : run.options.BackendOnly() ? " (verdict on the backend: the backend suite)"
                                                  : "";
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
  std::printf("gate: %s%s\n", failures == 0 ? "PASS" : "FAIL", scope);
  std::printf("%d passed, %d failed\n", passed, failures);
  return failures == 0 ? 0 : 1;
}

int Main(int argc, char** argv) {
  const std::optional<Options> options = ParseOptions(argc, argv);
  if (!options) return 64;
  if (options->help) {
    std::printf("%s", kUsage);
    return 0;
  }
  std::printf("azure-pricing-conformance gate\n");
  Run run{.options = *options};
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
  if (options->testee.empty() || testee) {
    RunImplementationSuites(run, catalog ? &*catalog : nullptr, testee.get());
  }
  if (options->Runs("backend")) RunBackendSuite(run);
  if (options->Runs("stack")) RunStackSuite(run);
  if (options->Runs("live")) RunLiveDryRunSuite(run);
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
