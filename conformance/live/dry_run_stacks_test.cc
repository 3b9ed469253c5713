// A dry run spread over two stacks reports what the same run on one stack reports: every check in
// the list's order, the same outcomes, rows and judgements, and the upstream requests summed.
// With the fake CLI, so the run is short; the gate's live suite runs the real one on two stacks.
#include <string>
#include <vector>

#include "conformance/citations/cites.h"
#include "conformance/live/checks.h"
#include "conformance/live/live_run.h"
#include "conformance/stack/local_stack.h"
#include "gtest/gtest.h"

namespace azure_pricing::conformance::live {
namespace {

StatusOr<LiveReport> DryRun(int stacks, const std::vector<std::string>& only) {
  StatusOr<std::vector<LiveCheck>> checks = LoadBundledChecks();
  if (!checks.ok()) return checks.status();
  return RunLiveChecks(*checks, {.mode = LiveMode::kDryRun,
                                 .cli = stack::FakeCli(),
                                 .pause_ms = 0,
                                 .only = only,
                                 .dry_run_stacks = stacks});
}

CITES("HOST-008", "INTRO-007");
TEST(DryRunStacksTest, TwoStacksReportWhatOneStackReports) {
  StatusOr<std::vector<LiveCheck>> checks = LoadBundledChecks();
  ASSERT_TRUE(checks.ok()) << checks.status().message();
  ASSERT_GE(checks->size(), 5u);
  // Five checks: one stack gets three, the other two, and the order must be put back.
  std::vector<std::string> only;
  for (size_t i = 0; i < 5; ++i) only.push_back((*checks)[i].id);
  const StatusOr<LiveReport> one = DryRun(1, only);
  const StatusOr<LiveReport> two = DryRun(2, only);
  ASSERT_TRUE(one.ok()) << one.status().message();
  ASSERT_TRUE(two.ok()) << two.status().message();
  ASSERT_EQ(one->results.size(), only.size());
  ASSERT_EQ(two->results.size(), only.size());
  for (size_t i = 0; i < only.size(); ++i) {
    SCOPED_TRACE(only[i]);
    EXPECT_EQ(two->results[i].check.id, only[i]);
    EXPECT_EQ(two->results[i].ran, one->results[i].ran);
    EXPECT_EQ(two->results[i].passed, one->results[i].passed);
    EXPECT_EQ(two->results[i].outcome, one->results[i].outcome);
    EXPECT_EQ(two->results[i].rows, one->results[i].rows);
    EXPECT_EQ(two->results[i].cli_rows, one->results[i].cli_rows);
    EXPECT_EQ(two->results[i].seen.upstream.size(), one->results[i].seen.upstream.size());
  }
  EXPECT_EQ(two->passed, one->passed);
  EXPECT_EQ(two->failed, one->failed);
  EXPECT_EQ(two->skipped, 0);
  EXPECT_EQ(two->requests, one->requests);
  EXPECT_GT(two->requests, 0);
}

// More stacks than checks is as many stacks as checks; a live run ignores the option.
TEST(DryRunStacksTest, MoreStacksThanChecksRunsEachCheckOnce) {
  StatusOr<std::vector<LiveCheck>> checks = LoadBundledChecks();
  ASSERT_TRUE(checks.ok()) << checks.status().message();
  const StatusOr<LiveReport> report = DryRun(8, {(*checks)[0].id});
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->results.size(), 1u);
  EXPECT_TRUE(report->results[0].ran);
  EXPECT_EQ(report->passed + report->failed, 1);
}

}  // namespace
}  // namespace azure_pricing::conformance::live
