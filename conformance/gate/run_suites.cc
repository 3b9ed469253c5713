#include "conformance/gate/run_suites.h"

#include <chrono>
#include <map>
#include <memory>
#include <string>

#include "conformance/gate/forked_suite.h"
#include "conformance/host/scripted_host.h"

namespace azure_pricing::conformance {
namespace {

// Whether `suite` runs in a child process beside the others: it starts its own stack and never
// calls the implementation, and the run has more than one suite to overlap it with.
bool RunsForked(const GateRun& run, const Suite& suite) {
  if (suite.judges != SuiteJudges::kBackend && suite.judges != SuiteJudges::kStack) return false;
  if (!run.options.parallel) return false;
  int selected = 0;
  for (const Suite* s : run.options.registry) selected += run.options.Runs(std::string(s->name));
  return selected > 1;
}

}  // namespace

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

}  // namespace azure_pricing::conformance
