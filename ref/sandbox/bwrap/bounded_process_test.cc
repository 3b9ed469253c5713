#include "ref/sandbox/bwrap/bounded_process.h"

#include <signal.h>

#include <chrono>
#include <functional>
#include <optional>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/base/test_tmpdir.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::sandbox::bwrap {
namespace {

using ::testing::SizeIs;

BoundedRun Shell(const std::string& script, int64_t timeout_ms = 10'000,
                 int64_t max_output = 1 << 20) {
  return BoundedRun{.argv = {"/bin/sh", "-c", script},
                    .env = {"PATH=/usr/bin:/bin"},
                    .timeout_ms = timeout_ms,
                    .max_output_bytes = max_output};
}

double SecondsOf(const std::function<void()>& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// SIGKILL is delivered at once but the dead are reaped by whoever inherits them; until then
// they still answer kill(-group, 0).
bool GroupGoneSoon(pid_t group) {
  for (int i = 0; i < 200; ++i) {
    if (kill(-group, 0) != 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST(BoundedProcessTest, CapturesBothStreamsAndTheExitCode) {
  const StatusOr<ExecResult> r = RunBounded(Shell("echo out; echo err >&2; exit 7"));
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_EQ(r->stdout_bytes, "out\n");
  EXPECT_EQ(r->stderr_bytes, "err\n");
  EXPECT_EQ(r->exit_code, 7);
}

TEST(BoundedProcessTest, TheEnvironmentIsExactlyTheOneGiven) {
  BoundedRun run{.argv = {"/usr/bin/env"}, .env = {"A=1", "B=two words"}};
  const StatusOr<ExecResult> r = RunBounded(run);
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_EQ(r->stdout_bytes, "A=1\nB=two words\n");
}

TEST(BoundedProcessTest, AtTheDeadlineTheWholeGroupIsKilledAndNothingReturned) {
  pid_t pid = -1;
  BoundedRun run = Shell("sleep 30 & sleep 30; echo never", 300);
  run.on_start = [&pid](pid_t p) { pid = p; };
  double seconds = SecondsOf([&] {
    EXPECT_THAT(RunBounded(run).status(), StatusIs(Outcome::kFailed, kExecTimeoutReason));
  });
  EXPECT_LT(seconds, 5.0);
  EXPECT_TRUE(GroupGoneSoon(pid)) << "a process of the group survived the timeout";
}

// No time at all is a timeout, however quick the program: the deadline has passed at the first
// look (the backend does not even start a program for a timeout of 0).
TEST(BoundedProcessTest, ADeadlineOfZeroIsATimeout) {
  EXPECT_THAT(RunBounded(Shell("exit 0", 0)).status(),
              StatusIs(Outcome::kFailed, kExecTimeoutReason));
}

TEST(BoundedProcessTest, AProgramKilledBySignalNExitsWith128PlusN) {
  const StatusOr<ExecResult> r = RunBounded(Shell("kill -TERM $$"));
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_EQ(r->exit_code, 128 + SIGTERM);
}

TEST(BoundedProcessTest, OutputPastTheBudgetIsRefusedWithoutPartialOutput) {
  EXPECT_THAT(RunBounded(Shell("head -c 100000 /dev/zero", 10'000, 1000)).status(),
              StatusIs(Outcome::kFailed, kExecOutputLimitReason));
}

TEST(BoundedProcessTest, StderrCountsTowardTheSameBudget) {
  EXPECT_THAT(RunBounded(Shell("head -c 600 /dev/zero; head -c 600 /dev/zero >&2", 10'000, 1000))
                  .status(),
              StatusIs(Outcome::kFailed, kExecOutputLimitReason));
}

TEST(BoundedProcessTest, OutputOfExactlyTheBudgetIsAccepted) {
  const StatusOr<ExecResult> r = RunBounded(Shell("head -c 1000 /dev/zero", 10'000, 1000));
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_THAT(r->stdout_bytes, SizeIs(1000));
}

TEST(BoundedProcessTest, ALeftoverChildHoldingTheOutputDoesNotKeepTheCallAlive) {
  pid_t pid = -1;
  BoundedRun run = Shell("sleep 30 & echo done");
  run.on_start = [&pid](pid_t p) { pid = p; };
  std::optional<StatusOr<ExecResult>> ran;
  const double seconds = SecondsOf([&] { ran = RunBounded(run); });
  const StatusOr<ExecResult>& r = *ran;
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_EQ(r->stdout_bytes, "done\n");
  EXPECT_LT(seconds, 5.0);
  EXPECT_TRUE(GroupGoneSoon(pid)) << "the leftover child outlived the call";
}

TEST(BoundedProcessTest, TheFileSizeLimitHolds) {
  BoundedRun run = Shell("head -c 2000000 /dev/zero > \"$TMP/big\"");
  run.env.push_back("TMP=" + base::TestTmpDir());
  run.limits.file_size_bytes = 1 << 20;
  const StatusOr<ExecResult> r = RunBounded(run);
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_NE(r->exit_code, 0);
}

TEST(BoundedProcessTest, AMissingProgramExitsWith127) {
  const StatusOr<ExecResult> r = RunBounded({.argv = {"/proc/nonexistent/program"}});
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_EQ(r->exit_code, 127);
}

TEST(BoundedProcessTest, AnEmptyArgvIsASpawnFailure) {
  EXPECT_THAT(RunBounded({}).status(), StatusIs(Outcome::kFailed, kSpawnFailed));
}

// The weakenings exist for the conformance suite's mutants; each must really weaken.
TEST(BoundedProcessTest, EachWeakeningChangesTheOutcomeItNames) {
  BoundedRun flood = Shell("head -c 5000 /dev/zero >&2", 10'000, 1000);
  flood.weakenings.stderr_uncounted = true;
  EXPECT_THAT(RunBounded(flood).status(), IsOk());
  BoundedRun uncapped = Shell("head -c 5000 /dev/zero", 10'000, 1000);
  uncapped.weakenings.no_output_cap = true;
  EXPECT_THAT(RunBounded(uncapped).status(), IsOk());
  BoundedRun partial = Shell("head -c 5000 /dev/zero", 10'000, 1000);
  partial.weakenings.partial_on_overflow = true;
  EXPECT_THAT(RunBounded(partial).status(), IsOk());
  BoundedRun late = Shell("sleep 1; echo late", 200);
  late.weakenings.no_timeout_kill = true;
  const StatusOr<ExecResult> r = RunBounded(late);
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_EQ(r->stdout_bytes, "late\n");
}

}  // namespace
}  // namespace azure_pricing::sandbox::bwrap
