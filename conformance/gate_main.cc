// The conformance gate: runs every case against the implementation under test, checks the
// requirement catalog's coverage, lists the reason codes no case reaches, prints what failed and
// a closing tally, and exits non-zero when anything is wrong.
// `tools/bazel run //conformance:gate [-- --verbose]`.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "conformance/backend/backend_gate.h"
#include "conformance/backend/suite.h"
#include "conformance/case_runner.h"
#include "conformance/catalog.h"
#include "conformance/gate_record.h"
#include "conformance/known_failures.h"
#include "conformance/testee/runner.h"
#include "ref/pricing/package.h"
#include "ref/base/flags.h"
#include "ref/base/paths.h"
#include "ref/pricing/reasons.h"

namespace azure_pricing::conformance {
namespace {

constexpr char kCatalogPath[] = "conformance/requirements.json";

constexpr char kUsage[] =
    "usage: gate [--suite all|cases|backend] [--testee \"CMD ARGS\"]\n"
    "            [--backend-adapter \"CMD ARGS\"] [--azmcp FILE] [--bwrap FILE] [--verbose]\n"
    "Runs the conformance cases and the catalog check (suite cases) and the backend suite\n"
    "(suite backend) against the bubblewrap backend in process, or against the adapter\n"
    "process CMD ARGS speaking conformance/backend/protocol/PROTOCOL.md. Ends with\n"
    "`N passed, N failed`; exits 1 on any failure, 64 on a usage error.\n"
    "  --testee CMD   run the cases' host calls through the testee process CMD ARGS speaking\n"
    "                 conformance/testee/PROTOCOL.md instead of the reference in process\n"
    "  --azmcp FILE   the real azmcp for the bubblewrap image (default: AZURE_PRICING_AZMCP,\n"
    "                 which tools/bazel sets to the npm cache)\n"
    "  --bwrap FILE   the bubblewrap program (default: bwrap on PATH)\n"
    "  --json FILE    every case and probe: suite, id, requirements, result, expected, detail\n"
    "  --junit FILE   the same as JUnit XML, for CI\n"
    "  --known-failures FILE  checks the implementation is known to fail, and how; the list\n"
    "                 must stay true (a listed check that passes or fails differently fails)\n"
    "  --write-known-failures FILE  write this run's failures as such a list\n";

struct Options {
  bool verbose = false;
  bool help = false;
  bool cases = true;
  bool backend = true;
  backend::BackendGateOptions backend_options;
  std::string testee_command;       // as given; empty: the reference in process
  std::vector<std::string> testee;  // split
  std::string json_report, junit_report;
  std::string known_failures, write_known_failures;
};

// nullopt (after saying why) for a command line that does not read.
std::optional<Options> ParseOptions(int argc, char** argv) {
  std::string problem;
  const StatusOr<base::Flags> flags =
      base::Flags::ParseOrExplain(argc, argv,
                                  {{"--verbose", base::FlagKind::kSwitch},
                                   {"--help", base::FlagKind::kSwitch},
                                   {"--suite", base::FlagKind::kValue},
                                   {"--backend-adapter", base::FlagKind::kValue},
                                   {"--testee", base::FlagKind::kValue},
                                   {"--azmcp", base::FlagKind::kValue},
                                   {"--bwrap", base::FlagKind::kValue},
                                   {"--json", base::FlagKind::kValue},
                                   {"--junit", base::FlagKind::kValue},
                                   {"--known-failures", base::FlagKind::kValue},
                                   {"--write-known-failures", base::FlagKind::kValue}},
                                  &problem);
  Options o;
  if (flags.ok()) {
    o.verbose = o.backend_options.verbose = flags->Has("--verbose");
    o.help = flags->Has("--help");
    const std::string suite = flags->Value("--suite").value_or("all");
    o.cases = suite == "all" || suite == "cases";
    o.backend = suite == "all" || suite == "backend";
    if (!o.cases && !o.backend) problem = "--suite is all, cases or backend";
    if (const auto adapter = flags->Value("--backend-adapter")) {
      o.backend_options.adapter = backend::SplitCommandLine(*adapter, &problem);
    }
    if (const auto testee = flags->Value("--testee")) {
      o.testee_command = *testee;
      o.testee = backend::SplitCommandLine(*testee, &problem);
      if (!problem.empty()) problem = "--testee: " + problem;
    }
    o.backend_options.bwrap = base::CallerPath(flags->Value("--bwrap").value_or(""));
    o.json_report = base::CallerPath(flags->Value("--json").value_or(""));
    o.junit_report = base::CallerPath(flags->Value("--junit").value_or(""));
    o.known_failures = base::CallerPath(flags->Value("--known-failures").value_or(""));
    o.write_known_failures = base::CallerPath(flags->Value("--write-known-failures").value_or(""));
    const char* cached = std::getenv("AZURE_PRICING_AZMCP");
    o.backend_options.azmcp =
        base::CallerPath(flags->Value("--azmcp").value_or(cached != nullptr ? cached : ""));
  }
  if (!problem.empty()) {
    std::fprintf(stderr, "gate: %s\n%s", problem.c_str(), kUsage);
    return std::nullopt;
  }
  return o;
}

// Checks count like cases: each that holds is a pass, each thing wrong a failure.
struct Tally {
  int passed = 0;
  int failed = 0;
  std::vector<GateRecord> records;  // for --json and --junit
  std::string implementation;
  void Fail(const std::string& what) {
    std::printf("  FAIL %s\n", what.c_str());
    ++failed;
    records.push_back({.suite = kGateSuite, .id = what, .verdict = Verdict::kFailed, .detail = what});
  }
};

using Citations = std::map<std::string, std::set<std::string>>;

// Runs every case file; adds each case's requirements to `citations` and its expected
// (outcome, reason) to `reached`.
void RunCases(const Options& options, const CallExecutor& execute, Tally& tally,
              Citations& citations, std::set<std::pair<std::string, std::string>>& reached) {
  std::printf("cases\n");
  const std::vector<std::string> files = CaseFiles();
  if (files.empty()) tally.Fail(std::string("no case files in ") + kCaseDirectory);
  for (const std::string& file : files) {
    int file_passed = 0, file_failed = 0;
    for (const CaseResult& r : RunCaseFile(file, execute)) {
      ++(r.passed ? file_passed : file_failed);
      if (!r.passed || options.verbose) {
        std::printf("  %s %s: %s\n", r.passed ? "ok  " : "FAIL", r.id.c_str(), r.detail.c_str());
      }
      for (const std::string& id : r.requirements) citations["case " + r.id].insert(id);
      reached.insert({r.expected_outcome, r.expected_reason});
      tally.records.push_back(
          {.suite = "cases",
           .id = r.id,
           .file = r.file,
           .requirements = r.requirements,
           .verdict = r.passed ? Verdict::kPassed : Verdict::kFailed,
           .expected = r.expected_outcome +
                       (r.expected_reason.empty() ? "" : "/" + r.expected_reason),
           .detail = r.detail});
    }
    std::printf("  %-36s %3d passed, %d failed\n", file.c_str(), file_passed, file_failed);
    tally.passed += file_passed;
    tally.failed += file_failed;
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
  std::printf("\nreasons not reached by any case: %d of %zu%s%s\n", count, reasons::kAll.size(),
              count == 0 ? "" : ": ", unreached.c_str());
}

void PrintRequirements(const Catalog& catalog, const Coverage& coverage, bool verbose) {
  int implemented = 0;
  std::map<int, int> pending_by_issue;
  for (const Requirement& r : catalog.requirements) {
    if (r.pending_issue) {
      ++pending_by_issue[*r.pending_issue];
    } else {
      ++implemented;
    }
  }
  std::printf("\nrequirements: %zu in the catalog\n", catalog.requirements.size());
  std::printf("  implemented %3d, cited by a case or test: %d\n", implemented,
              implemented - static_cast<int>(coverage.uncited.size()));
  std::string pending_text;
  for (const auto& [issue, count] : pending_by_issue) {
    if (!pending_text.empty()) pending_text += ", ";
    pending_text += "issue " + std::to_string(issue) + ": " + std::to_string(count);
  }
  std::printf("  pending     %3zu (%s)\n",
              catalog.requirements.size() - static_cast<size_t>(implemented), pending_text.c_str());
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

// The catalog's four checks: every implemented id cited, every cited id known, no pending id
// claimed, every CITES declaration well formed.
void CheckCatalog(const Catalog& catalog, const Options& options, Citations citations,
                  Tally& tally) {
  const TestCitations tests = ReadTestCitations(TestSourceFiles());
  citations.insert(tests.by_source.begin(), tests.by_source.end());
  const Coverage coverage = ComputeCoverage(catalog, citations);
  PrintRequirements(catalog, coverage, options.verbose);
  const int failed_before = tally.failed;
  for (const std::string& id : coverage.uncited) {
    tally.Fail(id + " is implemented but no case or test cites it");
  }
  for (const std::string& id : coverage.unknown) tally.Fail(id + " is cited but not in the catalog");
  for (const std::string& id : coverage.pending_but_cited) {
    tally.Fail(id + " is cited but marked pending: update the catalog");
  }
  for (const std::string& problem : tests.problems) tally.Fail("malformed citation: " + problem);
  if (tally.failed == failed_before) tally.passed += 4;
}

void RunCasesAndCatalog(const Options& options, const CallExecutor& execute, Tally& tally) {
  const std::optional<Catalog> catalog = LoadCatalog(kCatalogPath);
  if (!catalog) {
    tally.Fail(std::string(kCatalogPath) + " is missing or malformed");
    return;
  }
  Citations citations;
  // The backend suite's probes cite requirements as cases do, whether or not this run runs them.
  for (const backend::ProbeInfo& probe : backend::BackendProbes()) {
    for (const std::string& id : probe.requirements) citations["probe " + probe.id].insert(id);
  }
  std::set<std::pair<std::string, std::string>> reached;
  RunCases(options, execute, tally, citations, reached);
  PrintUnreachedReasons(reached);
  CheckCatalog(*catalog, options, std::move(citations), tally);
}

// The smallest call a testee must answer: a lookup whose CLI returns no rows. Any well-formed
// answer passes; what the answer says is for the cases to judge.
host::ScriptedCall SmokeCall() {
  host::ScriptedCall call;
  call.arguments = R"({"sku":"Standard_D2s_v5","region":"westeurope"})";
  call.scripts.push_back({.exec = {.stdout_bytes = R"({"status":200,"message":"Success","results":{"prices":[]}})"}});
  return call;
}

// Hello and the smoke call; the problem, or nothing. A testee that fails here is a broken
// adapter, not a non-conformant implementation, so the cases are not run against it.
std::string StartTestee(const Options& options, std::unique_ptr<testee::TesteeProcess>& out) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  std::vector<std::string> argv = options.testee;
  argv[0] = base::ResolveProgram(argv[0]);
  // `bazel run` starts the gate in its runfiles; the testee's relative paths mean the user's.
  StatusOr<std::unique_ptr<testee::TesteeProcess>> started =
      testee::TesteeProcess::Start(argv, env, base::CallerDirectory());
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

void RunThroughTestee(const Options& options, Tally& tally) {
  std::unique_ptr<testee::TesteeProcess> testee;
  const std::string broken = StartTestee(options, testee);
  const std::string name = testee ? testee->implementation().name + " " +
                                        testee->implementation().version
                                  : "unknown";
  std::printf("implementation: %s (testee: %s)\n", name.c_str(), options.testee_command.c_str());
  tally.implementation = name;
  std::printf("%s\n\n", kCliProvenanceLine);
  if (!broken.empty()) {
    std::printf("cases\n");
    tally.Fail("testee adapter broken: " + broken);
    return;
  }
  RunCasesAndCatalog(
      options, [&testee](const host::ScriptedCall& call) { return testee->RunCall(call); }, tally);
}

// Failures the list names, failing exactly as it says, stop counting as failures; an entry that
// no longer holds is a failure of its own, with the command that rewrites the list.
void ApplyKnownFailureList(const Options& options, Tally& tally) {
  if (options.known_failures.empty()) return;
  std::printf("\nknown failures: %s\n", options.known_failures.c_str());
  const StatusOr<std::vector<KnownFailure>> known = LoadKnownFailures(options.known_failures);
  if (!known.ok()) {
    tally.Fail(known.status().message());
    return;
  }
  const std::vector<std::string> problems = ApplyKnownFailures(*known, tally.records);
  for (const GateRecord& r : tally.records) tally.failed -= r.verdict == Verdict::kKnown ? 1 : 0;
  std::printf("  %zu listed, %zu do not hold\n", known->size(), problems.size());
  for (const std::string& problem : problems) tally.Fail(problem);
  if (!problems.empty()) {
    std::printf("  rewrite it: rerun with --write-known-failures %s\n", options.known_failures.c_str());
  }
}

// The report files; one that cannot be written is a failure of the run, not a silent loss.
void WriteReports(const Options& options, Tally& tally) {
  if (!options.write_known_failures.empty() &&
      !WriteKnownFailures(options.write_known_failures, tally.implementation, tally.records).ok()) {
    tally.Fail("cannot write --write-known-failures " + options.write_known_failures);
  }
  if (!options.json_report.empty() &&
      !WriteJsonReport(options.json_report, tally.implementation, tally.records).ok()) {
    tally.Fail("cannot write --json " + options.json_report);
  }
  if (!options.junit_report.empty() &&
      !WriteJUnitReport(options.junit_report, tally.records).ok()) {
    tally.Fail("cannot write --junit " + options.junit_report);
  }
}

int Main(int argc, char** argv) {
  const std::optional<Options> options = ParseOptions(argc, argv);
  if (!options) return 64;
  if (options->help) {
    std::printf("%s", kUsage);
    return 0;
  }
  std::printf("azure-pricing-conformance gate\n");
  Tally tally;
  // The testee makes the cases' calls; the backend suite judges a backend, not the testee.
  if (!options->testee.empty() && options->cases) {
    RunThroughTestee(*options, tally);
  } else {
    std::printf("implementation: reference (in process), %s %s\n", kPackageName, kPackageVersion);
    tally.implementation = std::string(kPackageName) + " " + kPackageVersion;
    std::printf("%s\n\n", kCliProvenanceLine);
    if (options->cases) RunCasesAndCatalog(*options, host::RunScriptedCall, tally);
  }
  if (options->backend) {
    if (options->cases) std::printf("\n");
    const backend::BackendGateResult probes = backend::RunBackendGate(options->backend_options);
    tally.passed += probes.passed;
    tally.failed += probes.failed;
    for (const backend::ProbeResult& r : probes.probes) {
      tally.records.push_back({.suite = "backend",
                               .id = r.id,
                               .requirements = r.requirements,
                               .verdict = r.passed ? Verdict::kPassed : Verdict::kFailed,
                               .detail = r.passed ? "" : r.detail + " -- " + r.diagnosis});
    }
  }
  ApplyKnownFailureList(*options, tally);
  WriteReports(*options, tally);
  std::printf("\n%s\n", tally.failed == 0 ? "gate: PASS" : "gate: FAIL");
  std::printf("%d passed, %d failed\n", tally.passed, tally.failed);
  return tally.failed == 0 ? 0 : 1;
}

}  // namespace
}  // namespace azure_pricing::conformance

int main(int argc, char** argv) { return azure_pricing::conformance::Main(argc, argv); }
