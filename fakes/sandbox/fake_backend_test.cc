#include "fakes/sandbox/fake_backend.h"

#include "gtest/gtest.h"

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
    ASSERT_TRUE(sandbox.ok());
    auto result = (*sandbox)->bounded_exec()->ExecBounded(Request(60, 1024));
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->stdout_bytes, want);
    EXPECT_TRUE(backend.Dispose(std::move(*sandbox)).ok());
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
    EXPECT_TRUE(backend.Dispose(std::move(*sandbox)).ok());
    return result;
  };
  EXPECT_EQ(run().status().reason(), ::azure_pricing::sandbox::kExecTimeoutReason);
  EXPECT_EQ(run().status().reason(), ::azure_pricing::sandbox::kExecOutputLimitReason);  // combined budget
  EXPECT_TRUE(run().ok());                                                // exactly at the budget
}

TEST(FakeBackendTest, FaultsAreRecorded) {
  FakeBackend backend(PricingCapableDeclaration());
  backend.Script({.fail_acquire = true});
  backend.Script({.fail_dispose = true});
  EXPECT_FALSE(backend.Acquire({}, {"a", "s", "1"}).ok());
  auto sandbox = backend.Acquire({}, {"a", "s", "2"});
  ASSERT_TRUE(sandbox.ok());
  EXPECT_EQ(backend.Dispose(std::move(*sandbox)).reason(), "fake_dispose_failed");
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
  ASSERT_TRUE(sandbox.ok());
  EXPECT_EQ((*sandbox)->bounded_exec(), nullptr);
  EXPECT_TRUE((*sandbox)->Exec(Request(60, 1024)).ok());
  EXPECT_FALSE(backend.execs()[0].bounded);
  EXPECT_TRUE((*sandbox)->WriteFile("/tmp/x", "y").ok());
  EXPECT_EQ(backend.file_operations(), 1);
  EXPECT_TRUE(backend.Dispose(std::move(*sandbox)).ok());
}

}  // namespace
}  // namespace azure_pricing::fakes::sandbox
