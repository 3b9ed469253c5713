// What one gate run is given (the parsed command line) and what it concluded so far: the state
// every suite (conformance/gate/suites/) reads and adds its records to, and the gate's reports read.
#ifndef CONFORMANCE_GATE_RUN_H_
#define CONFORMANCE_GATE_RUN_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "conformance/backend/backend_gate.h"
#include "conformance/cases/case_runner.h"
#include "conformance/catalog/catalog.h"
#include "conformance/gate/record.h"
#include "conformance/gate/suite_registry.h"
#include "conformance/protocol_schema/validator.h"

namespace azure_pricing::conformance {

inline constexpr uint64_t kDefaultSeed = 1;
inline constexpr int kDefaultPropertyCases = 100;

struct GateOptions {
  bool verbose = false;
  bool help = false;
  bool list_suites = false;
  // The suites that start their own stack run in child processes beside the others
  // (conformance/gate/forked_suite.h); --sequential runs every suite in the gate's own process.
  bool parallel = true;
  SuiteList registry;            // every suite the gate knows, in order
  std::set<std::string> suites;  // the names selected
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
  std::string json_report, junit_report, html_report;
  // The arguments as given (without the program's name), for the reports that name the run.
  std::vector<std::string> command_line;
  std::string known_failures, write_known_failures;
  std::string known_failures_text;  // as the user spelt it, for the lines that name it
  // --validate-protocol: every protocol line the run speaks is shown to it.
  std::shared_ptr<protocol_schema::LineRecorder> protocol_recorder;

  bool Runs(const std::string& suite) const { return suites.count(suite) != 0; }
  // Whether a selected suite judges `judges`; `every`: whether every registered one is selected.
  bool RunsAny(SuiteJudges judges) const;
  bool RunsEvery(SuiteJudges judges) const;
  bool Selected(const std::string& suite, const std::string& id) const;
  // A run that leaves checks out is not a conformance verdict, whatever it finds. A testee is
  // judged by the suites that judge an implementation alone (the others judge a sandbox backend,
  // the reference's stack and the harness), so those make its verdict whole.
  bool Partial() const;
  // A sandbox backend is judged by the backend suites alone: that run is its whole verdict.
  bool BackendOnly() const;
};

// A shard is a function of the check's name alone, so every shard agrees without talking.
uint64_t ShardHash(const std::string& text);

// One line rewritten in place on a terminal, so a long run shows where it is; nothing at all
// when stdout is a file or a pipe (CI logs stay clean).
class ProgressLine {
 public:
  ProgressLine();
  void Show(const std::string& suite, size_t done, size_t total, const std::string& id);
  // Before any ordinary line.
  void Clear();

 private:
  bool enabled_;
  bool shown_ = false;
};

// Everything the run concluded, in order, and what its suites share.
struct GateRun {
  const GateOptions& options;
  std::vector<GateRecord> records;
  std::map<std::string, double> suite_seconds;
  // The suites' run as a whole: some run side by side, so it is less than their sum.
  std::optional<double> wall_seconds;
  std::string implementation;
  // docs/profile.md's version, as the gate read it at start; empty when it could not be read
  // (a failure of the run).
  std::string profile_version;
  // The backend the backend suite judged, as it names it ("bubblewrap 0.0.0.dev0 (the
  // reference: ...)"); empty when the suite did not run or its backend did not start.
  std::string backend;
  std::set<std::string> should_only;  // catalog ids whose level is SHOULD
  const Catalog* catalog = nullptr;   // null when requirements.json did not load
  // Makes the implementation's calls: the reference in process, or the testee.
  CallExecutor execute;
  ProgressLine progress;

  // A failure of the run itself (no case files, a broken testee, a list that does not hold),
  // named by what went wrong; `what` is the whole story.
  void GateFailure(const std::string& id, const std::string& what);
  // RECOMMENDED when every cited id is a SHOULD: such a failure is reported but does not fail
  // the gate.
  Level LevelOf(const std::vector<std::string>& ids) const;
  // A record's own RECOMMENDED level (a wording check) stays whatever it cites.
  void Add(GateRecord record);
};

double SecondsSince(std::chrono::steady_clock::time_point start);

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_GATE_RUN_H_
