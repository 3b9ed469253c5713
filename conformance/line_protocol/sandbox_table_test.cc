#include "conformance/line_protocol/sandbox_table.h"

#include <gtest/gtest.h>

#include <string>

#include "conformance/line_protocol/core.h"
#include "fakes/sandbox/fake_backend.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::line_protocol {
namespace {

using fakes::sandbox::CallScript;
using fakes::sandbox::FakeBackend;
using fakes::sandbox::PricingCapableDeclaration;

const sandbox::ExecRequest kExec{{"azmcp", "pricing", "get"}, {}, 5, 1024};

CallScript Answering(const std::string& out) {
  CallScript script;
  script.exec.stdout_bytes = out;
  return script;
}

TEST(SandboxTable, HandsOutIdsInOrderAndRunsInTheRightSandbox) {
  FakeBackend backend(PricingCapableDeclaration());
  backend.Script(Answering("first"));
  backend.Script(Answering("second"));
  SandboxTable table(backend);
  StatusOr<std::string> a = table.Acquire({}, {"agent", "session", "call#1"});
  StatusOr<std::string> b = table.Acquire({}, {"agent", "session", "call#2"});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, "sandbox-1");
  EXPECT_EQ(*b, "sandbox-2");
  StatusOr<sandbox::ExecResult> ran = table.ExecBounded(*b, kExec);
  ASSERT_TRUE(ran.ok());
  EXPECT_EQ(ran->stdout_bytes, "second");
  EXPECT_TRUE(table.Dispose(*a).ok());
  EXPECT_EQ(table.live(), 1u);
}

TEST(SandboxTable, AnswersAnIdItDoesNotHoldWithUnknownSandbox) {
  FakeBackend backend(PricingCapableDeclaration());
  SandboxTable table(backend);
  EXPECT_THAT(table.ExecBounded("sandbox-1", kExec), StatusIs(Outcome::kRefused, kUnknownSandbox));
  StatusOr<std::string> id = table.Acquire({}, {});
  ASSERT_TRUE(id.ok());
  EXPECT_TRUE(table.Dispose(*id).ok());
  EXPECT_THAT(table.Dispose(*id), StatusIs(Outcome::kRefused, kUnknownSandbox));
  EXPECT_EQ(backend.disposals(), 1);
}

TEST(SandboxTable, AFailedAcquireAddsNothing) {
  FakeBackend backend(PricingCapableDeclaration());
  CallScript failing;
  failing.fail_acquire = true;
  backend.Script(failing);
  SandboxTable table(backend);
  EXPECT_THAT(table.Acquire({}, {}),
              StatusIs(Outcome::kFailed, fakes::sandbox::kFakeAcquireFailed));
  EXPECT_EQ(table.live(), 0u);
  StatusOr<std::string> next = table.Acquire({}, {});
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(*next, "sandbox-1");
}

TEST(SandboxTable, ASandboxWithoutBoundedExecCannotRun) {
  FakeBackend backend(PricingCapableDeclaration());
  backend.SetWithholdBoundedExec(true);
  SandboxTable table(backend);
  StatusOr<std::string> id = table.Acquire({}, {});
  ASSERT_TRUE(id.ok());
  EXPECT_THAT(table.ExecBounded(*id, kExec), StatusIs(Outcome::kRefused, kBoundedExecUnavailable));
  EXPECT_TRUE(backend.execs().empty());
}

TEST(SandboxTable, DisposesWhatIsStillLiveWhenItEnds) {
  FakeBackend backend(PricingCapableDeclaration());
  CallScript failing_dispose;
  failing_dispose.fail_dispose = true;
  backend.Script(failing_dispose);
  {
    SandboxTable table(backend);
    ASSERT_TRUE(table.Acquire({}, {}).ok());
    ASSERT_TRUE(table.Acquire({}, {}).ok());
  }
  // The first dispose fails; the second is still made.
  EXPECT_EQ(backend.disposals(), 2);
  EXPECT_EQ(backend.live(), 0);
}

}  // namespace
}  // namespace azure_pricing::conformance::line_protocol
