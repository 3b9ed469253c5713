// The stack suite: end-to-end cases through the local stack with the reference tool, the real
// CLI when the npm cache holds it, else the fake (the suite says which).
#include <cstdio>

#include "conformance/gate/run.h"
#include "conformance/gate/suites/suites.h"
#include "conformance/stack/stack_suite.h"

namespace azure_pricing::conformance::suites {
namespace {

void RunStack(GateRun& run) {
  // --filter and --shard choose cases to run, not only records to keep: a shard starts the
  // stack for its own cases alone, and none for no case.
  const auto selected = [&run](const std::string& id) { return run.options.Selected("stack", id); };
  bool any = selected("stack");
  for (const std::string& id : stack::StackCaseIds()) any = any || selected(id);
  if (!any) return;
  std::printf("\nstack\n");
  stack::StackSuiteOptions options;
  options.selected = selected;
  options.bwrap = run.options.backend_options.bwrap;
  options.progress = [](const stack::StackCaseResult& r) {
    std::printf("%s\n", stack::FormatStackCase(r).c_str());
    std::fflush(stdout);  // cases take seconds; show each as it ends
  };
  const stack::StackSuiteResult result = stack::RunStackSuite(options);
  if (!result.cli.empty()) std::printf("  cli: %s\n", result.cli.c_str());
  if (!result.problem.empty()) {
    std::printf("  the stack did not start: %s\n", result.problem.c_str());
    if (run.options.Selected("stack", "stack")) {
      run.Add({.suite = "stack",
               .id = "stack",
               .verdict = Verdict::kSkipped,
               .detail = "no stack case ran: " + result.problem});
    }
  }
  for (const stack::StackCaseResult& r : result.cases) {  // the selected cases alone ran
    run.Add({.suite = "stack",
             .id = r.id,
             .requirements = r.requirements,
             .verdict = r.passed ? Verdict::kPassed : Verdict::kFailed,
             .expected = r.expected,
             .actual = r.actual,
             .detail = r.passed ? "" : r.detail});
  }
}

}  // namespace

const Suite kStack = {
    .name = "stack",
    .description = "end-to-end cases on the local stack: bwrap, proxy, azmcp, fake API",
    .in_all = true,
    .judges = SuiteJudges::kStack,
    .run = RunStack};

}  // namespace azure_pricing::conformance::suites
