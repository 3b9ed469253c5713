// The live check's canonical queries, dry: the same list and judgements //tools:live_check runs
// against the real prices.azure.com, here against the fake price API on the local stack.
#include <cstdio>
#include <string>
#include <vector>

#include "conformance/console/check_line.h"
#include "conformance/gate/run.h"
#include "conformance/gate/suites/suites.h"
#include "conformance/live/checks.h"
#include "conformance/live/live_run.h"
#include "conformance/stack/stack_suite.h"

namespace azure_pricing::conformance::suites {
namespace {

void RunLive(GateRun& run) {
  StatusOr<std::vector<live::LiveCheck>> checks = live::LoadBundledChecks();
  // Two stacks: the queries spend most of their time starting the CLI, which the two cores share.
  live::LiveRunOptions options{.mode = live::LiveMode::kDryRun,
                               .cli = stack::DefaultCli(),
                               .pause_ms = 0,
                               .bwrap = run.options.backend_options.bwrap,
                               .dry_run_stacks = 2};
  // --filter and --shard choose queries to run, not only records to keep.
  if (checks.ok()) {
    for (const live::LiveCheck& c : *checks) {
      if (run.options.Selected("live", "live." + c.id)) options.only.push_back(c.id);
    }
    if (options.only.empty()) return;
  }
  std::printf("\nlive (dry run)\n");
  StatusOr<live::LiveReport> report = checks.ok() ? live::RunLiveChecks(*checks, options)
                                                  : StatusOr<live::LiveReport>(checks.status());
  if (!report.ok()) {
    std::printf("  the live check's dry run did not start: %s\n",
                report.status().message().c_str());
    if (run.options.Selected("live", "live")) {
      run.Add({.suite = "live",
               .id = "live",
               .verdict = Verdict::kSkipped,
               .detail = "no live check ran: " + report.status().message()});
    }
    return;
  }
  std::printf("  cli: %s (version on the wire: %s)\n", report->cli.c_str(),
              report->cli_version.c_str());
  for (const live::CheckResult& r : report->results) {
    const std::string id = "live." + r.check.id;  // the selected queries alone ran
    const std::string failed = live::FailedFindings(r.findings);
    const std::string mark =
        r.check.unverified.empty() ? "" : "; " + std::string(live::kUnverifiedMark);
    std::printf("%s\n", CheckLine(r.passed, id, (r.passed ? r.outcome : failed) + mark).c_str());
    run.Add({.suite = "live",
             .id = id,
             .requirements = r.check.requirements,
             .verdict = r.passed ? Verdict::kPassed : Verdict::kFailed,
             .expected = r.passed ? "" : r.check.what,
             .actual = r.passed ? "" : r.outcome,
             .detail = failed});
  }
}

}  // namespace

const Suite kLive = {.name = "live",
                     .description = "the live check's queries against the fake price API (dry run)",
                     .in_all = true,
                     .judges = SuiteJudges::kStack,
                     .run = RunLive};

}  // namespace azure_pricing::conformance::suites
