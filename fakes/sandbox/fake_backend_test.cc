#include "fakes/sandbox/fake_backend.h"

#include "gtest/gtest.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::fakes::sandbox {
namespace {

ExecRequest Request(int64_t timeout_seconds, int64_t max_output_bytes) {
  ExecRequest r;
  r.argv = {"/usr/local/bin/azmcp", "pricing", "get"};
  r.env = {"HOME=/tmp"};
  r.timeout_seconds = timeout_seconds;
  r.max_output_bytes = max_output_bytes;
  return r;
}

TEST(FakeBackendTest, ServesScriptsInOrderThenTheFallback) {
  FakeBackend backend(PricingCapableDeclaration());
  backend.Script({.exec = {.stdout_bytes = "first", .exit_code = 0}});
  backend.SetFallback({.exec = {.stdout_bytes = "fallback", .exit_code = 1}});
  for (const char* want : {"first", "fallback", "fallback"}) {
    auto sandbox = backend.Acquire({}, {"a", "s", want});
    ASSERT_THAT(sandbox, IsOk());
    auto result = (*sandbox)->bounded_exec()->ExecBounded(Request(60, 1024));
    ASSERT_THAT(result, IsOk());
    EXPECT_EQ(result->stdout_bytes, want);
    EXPECT_THAT(backend.Dispose(std::move(*sandbox)), IsOk());
  }
  EXPECT_EQ(backend.acquisitions(), 3);
  EXPECT_EQ(backend.disposals(), 3);
  EXPECT_EQ(backend.live(), 0);
  ASSERT_EQ(backend.execs().size(), 3u);
  EXPECT_TRUE(backend.execs()[0].bounded);
  EXPECT_EQ(backend.execs()[0].request.argv[1], "pricing");
}

TEST(FakeBackendTest, BoundedExecEnforcesTimeAndBudgetWithoutPartialResults) {
  FakeBackend backend(PricingCapableDeclaration());
  backend.Script({.exec = {.stdout_bytes = "x", .delay_ms = 2000}});
  backend.Script(
      {.exec = {.stdout_bytes = std::string(600, 'a'), .stderr_bytes = std::string(600, 'b')}});
  backend.Script({.exec = {.stdout_bytes = std::string(1024, 'a')}});
  auto run = [&]() {
    auto sandbox = backend.Acquire({}, {"a", "s", "c"});
    auto result = (*sandbox)->bounded_exec()->ExecBounded(Request(2, 1024));
    EXPECT_THAT(backend.Dispose(std::move(*sandbox)), IsOk());
    return result;
  };
  EXPECT_THAT(run(), StatusIs(Outcome::kFailed, ::azure_pricing::sandbox::kExecTimeoutReason));
  // The budget is stdout and stderr combined.
  EXPECT_THAT(run(), StatusIs(Outcome::kFailed, ::azure_pricing::sandbox::kExecOutputLimitReason));
  EXPECT_THAT(run(), IsOk());  // exactly at the budget
}

TEST(FakeBackendTest, AScriptThatTimesOutDoesSoWhateverTheTimeout) {
  FakeBackend backend(PricingCapableDeclaration());
  backend.Script({.exec = {.stdout_bytes = "x", .times_out = true}});
  auto sandbox = backend.Acquire({}, {"a", "s", "c"});
  ASSERT_THAT(sandbox, IsOk());
  // A day: no delay a script could spell is sure to outlast every host's limit.
  EXPECT_THAT((*sandbox)->bounded_exec()->ExecBounded(Request(86'400, 1024)),
              StatusIs(Outcome::kFailed, ::azure_pricing::sandbox::kExecTimeoutReason));
  EXPECT_THAT(backend.Dispose(std::move(*sandbox)), IsOk());
}

TEST(FakeBackendTest, FaultsAreRecorded) {
  FakeBackend backend(PricingCapableDeclaration());
  backend.Script({.fail_acquire = true});
  backend.Script({.fail_dispose = true});
  EXPECT_THAT(backend.Acquire({}, {"a", "s", "1"}), StatusIs(Outcome::kFailed, kFakeAcquireFailed));
  auto sandbox = backend.Acquire({}, {"a", "s", "2"});
  ASSERT_THAT(sandbox, IsOk());
  EXPECT_THAT(backend.Dispose(std::move(*sandbox)), StatusIs(Outcome::kFailed, kFakeDisposeFailed));
  EXPECT_EQ(backend.acquire_attempts(), 2);
  EXPECT_EQ(backend.acquisitions(), 1);
  ASSERT_EQ(backend.disposes().size(), 1u);
  EXPECT_TRUE(backend.disposes()[0].failed);
  EXPECT_EQ(backend.live(), 0);
}

TEST(FakeBackendTest, WithholdingBoundedExecLeavesOnlyPlainExec) {
  FakeBackend backend(PricingCapableDeclaration());
  backend.SetWithholdBoundedExec(true);
  auto sandbox = backend.Acquire({}, {"a", "s", "1"});
  ASSERT_THAT(sandbox, IsOk());
  EXPECT_EQ((*sandbox)->bounded_exec(), nullptr);
  EXPECT_THAT((*sandbox)->Exec(Request(60, 1024)), IsOk());
  EXPECT_FALSE(backend.execs()[0].bounded);
  EXPECT_THAT((*sandbox)->WriteFile("/tmp/x", "y"), IsOk());
  EXPECT_EQ(backend.file_operations(), 1);
  EXPECT_THAT(backend.Dispose(std::move(*sandbox)), IsOk());
}

}  // namespace
}  // namespace azure_pricing::fakes::sandbox
