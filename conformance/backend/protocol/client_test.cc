// AdapterBackend against fake_adapter, a real child process serving the scripted fake backend.
#include "conformance/backend/protocol/client.h"

#include <errno.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "ref/base/runfiles.h"
#include "ref/base/test_tmpdir.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::backend::protocol {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using namespace std::chrono_literals;

std::string AdapterPath() {
  return base::Runfile("conformance/backend/protocol/fake_adapter");
}

// Generous enough for a loaded two-core machine; the deadline tests shorten what they test.
constexpr AdapterDeadlines kRelaxed{10s, 10s, 5s};

StatusOr<std::unique_ptr<AdapterBackend>> StartFake(std::vector<std::string> flags,
                                                    AdapterDeadlines deadlines = kRelaxed) {
  flags.insert(flags.begin(), AdapterPath());
  return AdapterBackend::Start(std::move(flags), {}, deadlines);
}

sandbox::Spec PricingSpec() {
  sandbox::Spec spec;
  spec.required = {sandbox::Capability::kExec};
  spec.egress = sandbox::Egress::kAllowlist;
  spec.egress_allow = {{"prices.azure.com", std::set<std::string>{"GET"}}};
  spec.isolation_scope = sandbox::IsolationScope::kCall;
  return spec;
}

sandbox::ExecRequest Request(int64_t timeout_seconds = 10, int64_t max_output = 1000) {
  return {{"azmcp", "pricing", "get"},
          {"AZURE_MCP_COLLECT_TELEMETRY=false"},
          timeout_seconds,
          max_output};
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

class AdapterBackendTest : public ::testing::Test {
 protected:
  // Every adapter a test started has been reaped by the time the test ends.
  void TearDown() override {
    int status = 0;
    EXPECT_EQ(waitpid(-1, &status, WNOHANG), -1);
    EXPECT_EQ(errno, ECHILD);
  }
};

TEST_F(AdapterBackendTest, StartKeepsTheIdentityAndTheDeclaration) {
  auto backend =
      StartFake({"--name", "docker", "--version", "1.2", "--isolation", "microvm", "--capability",
                 "EXEC", "--egress-mode", "allowlist", "--every-method"});
  ASSERT_THAT(backend, IsOk());
  EXPECT_EQ((*backend)->identity().name, "docker");
  EXPECT_EQ((*backend)->identity().version, "1.2");
  const sandbox::BackendDeclaration& d = (*backend)->declaration();
  EXPECT_EQ(d.name, "docker");
  EXPECT_EQ(d.isolation, sandbox::Isolation::kMicrovm);
  EXPECT_EQ(d.capabilities, std::set<sandbox::Capability>{sandbox::Capability::kExec});
  EXPECT_EQ(d.egress_modes, std::set<sandbox::Egress>{sandbox::Egress::kAllowlist});
  EXPECT_FALSE(d.egress_method_tokens.has_value());
  EXPECT_TRUE(d.bounded_exec);
}

TEST_F(AdapterBackendTest, AcquireExecDispose) {
  auto backend = StartFake({"--stdout", "{\"items\":[]}\n\xff", "--stderr", "warn", "--exit", "4"});
  ASSERT_THAT(backend, IsOk());
  auto sandbox = (*backend)->Acquire(PricingSpec(), {"agent", "session", "call"});
  ASSERT_THAT(sandbox, IsOk());
  sandbox::BoundedExec* bounded = (*sandbox)->bounded_exec();
  ASSERT_NE(bounded, nullptr);
  auto result = bounded->ExecBounded(Request());
  ASSERT_THAT(result, IsOk());
  EXPECT_EQ(result->stdout_bytes, "{\"items\":[]}\n\xff");
  EXPECT_EQ(result->stderr_bytes, "warn");
  EXPECT_EQ(result->exit_code, 4);
  auto plain = (*sandbox)->Exec(Request());
  ASSERT_THAT(plain, IsOk());
  EXPECT_EQ(plain->exit_code, 4);
  EXPECT_THAT((*backend)->Dispose(std::move(sandbox).value()), IsOk());
}

TEST_F(AdapterBackendTest, TimeoutAndOutputLimitSurviveTheTrip) {
  auto backend = StartFake({"--stdout", std::string(200, 'x'), "--delay-ms", "3000"});
  ASSERT_THAT(backend, IsOk());
  auto sandbox = (*backend)->Acquire(PricingSpec(), {"a", "s", "c"});
  ASSERT_THAT(sandbox, IsOk());
  sandbox::BoundedExec* bounded = (*sandbox)->bounded_exec();
  ASSERT_NE(bounded, nullptr);
  EXPECT_THAT(bounded->ExecBounded(Request(/*timeout_seconds=*/3)),
              StatusIs(Outcome::kFailed, sandbox::kExecTimeoutReason));
  EXPECT_THAT(bounded->ExecBounded(Request(10, /*max_output=*/100)),
              StatusIs(Outcome::kFailed, sandbox::kExecOutputLimitReason));
  EXPECT_THAT(bounded->ExecBounded(Request(10, 200)), IsOk());
  EXPECT_THAT((*backend)->Dispose(std::move(sandbox).value()), IsOk());
}

TEST_F(AdapterBackendTest, ReasonsThisSuiteDoesNotKnowBecomeBackendError) {
  auto failing = StartFake({"--fail-acquire"});
  ASSERT_THAT(failing, IsOk());
  EXPECT_THAT((*failing)->Acquire(PricingSpec(), {}), StatusIs(Outcome::kFailed, kBackendError));
  auto erring = StartFake({"--exec-error"});
  ASSERT_THAT(erring, IsOk());
  auto sandbox = (*erring)->Acquire(PricingSpec(), {});
  ASSERT_THAT(sandbox, IsOk());
  EXPECT_THAT((*sandbox)->Exec(Request()), StatusIs(Outcome::kFailed, kBackendError));
}

TEST_F(AdapterBackendTest, ABackendWithoutBoundedExecCannotExecThroughTheProtocol) {
  auto backend = StartFake({"--no-bounded-exec"});
  ASSERT_THAT(backend, IsOk());
  EXPECT_FALSE((*backend)->declaration().bounded_exec);
  auto sandbox = (*backend)->Acquire(PricingSpec(), {});
  ASSERT_THAT(sandbox, IsOk());
  EXPECT_EQ((*sandbox)->bounded_exec(), nullptr);
  EXPECT_THAT((*sandbox)->Exec(Request()), StatusIs(Outcome::kRefused, kBoundedExecUnavailable));
}

TEST_F(AdapterBackendTest, FilesAreNotCarried) {
  auto backend = StartFake({});
  ASSERT_THAT(backend, IsOk());
  auto sandbox = (*backend)->Acquire(PricingSpec(), {});
  ASSERT_THAT(sandbox, IsOk());
  EXPECT_THAT((*sandbox)->WriteFile("/tmp/x", "y"),
              StatusIs(Outcome::kRefused, kAdapterFilesUnsupported));
  EXPECT_THAT((*sandbox)->ReadFile("/tmp/x"),
              StatusIs(Outcome::kRefused, kAdapterFilesUnsupported));
}

TEST_F(AdapterBackendTest, TheUpstreamTravelsWithEveryLaterAcquire) {
  const std::string transcript = base::TestTmpDir() + "/upstream.log";
  auto backend = StartFake({"--accept-redirect", "--transcript", transcript});
  ASSERT_THAT(backend, IsOk());
  auto before = (*backend)->Acquire(PricingSpec(), {"a", "s", "1"});
  ASSERT_THAT(before, IsOk());
  EXPECT_THAT((*backend)->RedirectEgress({"127.0.0.1", 8443, "PEM"}), IsOk());
  auto first = (*backend)->Acquire(PricingSpec(), {"a", "s", "2"});
  auto second = (*backend)->Acquire(PricingSpec(), {"a", "s", "3"});
  ASSERT_THAT(first, IsOk());
  ASSERT_THAT(second, IsOk());
  backend->reset();
  const std::string log = Slurp(transcript);
  const std::string upstream =
      "\"egress_upstream\":{\"host\":\"127.0.0.1\",\"port\":8443,\"ca_pem\":\"PEM\"}";
  EXPECT_THAT(log, Not(HasSubstr("\"call_id\":\"1\"}," + upstream)));
  EXPECT_THAT(log, HasSubstr("\"call_id\":\"2\"}," + upstream));
  EXPECT_THAT(log, HasSubstr("\"call_id\":\"3\"}," + upstream));
}

TEST_F(AdapterBackendTest, AnUpstreamTheBackendCannotUseFailsTheAcquire) {
  auto backend = StartFake({});
  ASSERT_THAT(backend, IsOk());
  EXPECT_THAT((*backend)->RedirectEgress({"127.0.0.1", 8443, "PEM"}), IsOk());
  EXPECT_THAT((*backend)->Acquire(PricingSpec(), {}),
              StatusIs(Outcome::kRefused, sandbox::kEgressRedirectUnsupported));
}

TEST_F(AdapterBackendTest, AnAdapterThatNeverSaysHelloTimesOut) {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THAT(StartFake({"--fault", "hang"}, {300ms, 300ms, 300ms}),
              StatusIs(Outcome::kFailed, kAdapterTimeout));
  EXPECT_LT(SecondsSince(start), 5.0);
}

TEST_F(AdapterBackendTest, AnAdapterThatHangsInACallTimesOutAndIsGoneForLaterCalls) {
  auto backend = StartFake({"--fault", "hang", "--fault-at", "acquire"}, {500ms, 500ms, 500ms});
  ASSERT_THAT(backend, IsOk());
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THAT((*backend)->Acquire(PricingSpec(), {}), StatusIs(Outcome::kFailed, kAdapterTimeout));
  EXPECT_GE(SecondsSince(start), 0.5);
  EXPECT_LT(SecondsSince(start), 5.0);
  EXPECT_THAT((*backend)->Acquire(PricingSpec(), {}), StatusIs(Outcome::kFailed, kAdapterExited));
}

TEST_F(AdapterBackendTest, AnExecWaitsForItsTimeoutPlusTheGraceOnly) {
  auto backend = StartFake({"--fault", "hang", "--fault-at", "exec_bounded"}, {10s, 300ms, 500ms});
  ASSERT_THAT(backend, IsOk());
  auto sandbox = (*backend)->Acquire(PricingSpec(), {});
  ASSERT_THAT(sandbox, IsOk());
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THAT((*sandbox)->bounded_exec()->ExecBounded(Request(/*timeout_seconds=*/1)),
              StatusIs(Outcome::kFailed, kAdapterTimeout));
  EXPECT_GE(SecondsSince(start), 1.3);
  EXPECT_LT(SecondsSince(start), 6.0);
}

TEST_F(AdapterBackendTest, AnAdapterThatExitsMidCallFailsItWithAdapterExited) {
  auto backend = StartFake({"--fault", "exit", "--fault-at", "exec_bounded"});
  ASSERT_THAT(backend, IsOk());
  auto sandbox = (*backend)->Acquire(PricingSpec(), {});
  ASSERT_THAT(sandbox, IsOk());
  EXPECT_THAT((*sandbox)->Exec(Request()), StatusIs(Outcome::kFailed, kAdapterExited));
  EXPECT_THAT((*backend)->Dispose(std::move(sandbox).value()),
              StatusIs(Outcome::kFailed, kAdapterExited));
}

TEST_F(AdapterBackendTest, GarbageAndWrongSeqsAreProtocolErrors) {
  EXPECT_THAT(StartFake({"--fault", "garbage"}), StatusIs(Outcome::kFailed, kAdapterProtocolError));
  auto garbage = StartFake({"--fault", "garbage", "--fault-at", "acquire"});
  ASSERT_THAT(garbage, IsOk());
  EXPECT_THAT((*garbage)->Acquire(PricingSpec(), {}),
              StatusIs(Outcome::kFailed, kAdapterProtocolError));
  auto wrong_seq = StartFake({"--fault", "wrong-seq", "--fault-at", "dispose"});
  ASSERT_THAT(wrong_seq, IsOk());
  auto sandbox = (*wrong_seq)->Acquire(PricingSpec(), {});
  ASSERT_THAT(sandbox, IsOk());
  EXPECT_THAT((*wrong_seq)->Dispose(std::move(sandbox).value()),
              StatusIs(Outcome::kFailed, kAdapterProtocolError));
}

TEST_F(AdapterBackendTest, ProgramsThatAreNoAdapter) {
  EXPECT_THAT(AdapterBackend::Start({}, {}), StatusIs(Outcome::kRefused, kAdapterSpawnFailed));
  EXPECT_THAT(AdapterBackend::Start({"/proc/nonexistent/adapter"}, {}),
              StatusIs(Outcome::kFailed, kAdapterSpawnFailed));
  EXPECT_THAT(AdapterBackend::Start({"/bin/true"}, {}), StatusIs(Outcome::kFailed, kAdapterExited));
  // Answers hello with another version, then waits for its stdin to end.
  EXPECT_THAT(AdapterBackend::Start(
                  {"/bin/sh", "-c",
                   "read l; echo '{\"seq\":1,\"ok\":true,\"protocol\":\"azure-pricing-backend/2\"}'"
                   "; while read l; do :; done"},
                  {}, kRelaxed),
              StatusIs(Outcome::kRefused, kProtocolMismatch));
}

TEST_F(AdapterBackendTest, AnAdapterThatRefusesHelloGetsEofNotStop) {
  // A server of another version answers hello with protocol_mismatch; it is not started, so
  // the client closes its stdin instead of waiting for an answer to stop.
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THAT(AdapterBackend::Start(
                  {"/bin/sh", "-c",
                   "read l; echo '{\"seq\":1,\"ok\":false,\"error\":{\"outcome\":\"refused\","
                   "\"reason\":\"protocol_mismatch\",\"message\":\"speaks /2\"}}'"
                   "; while read l; do :; done"},
                  {}, kRelaxed),
              StatusIs(Outcome::kRefused, kProtocolMismatch));
  EXPECT_LT(SecondsSince(start), 4.0);
}

TEST_F(AdapterBackendTest, ATooLongRequestIsRefusedAndTheAdapterLives) {
  auto backend = StartFake({});
  ASSERT_THAT(backend, IsOk());
  auto sandbox = (*backend)->Acquire(PricingSpec(), {});
  ASSERT_THAT(sandbox, IsOk());
  sandbox::ExecRequest huge = Request();
  huge.argv.push_back(std::string(kMaxLineBytes, 'a'));
  EXPECT_THAT((*sandbox)->Exec(huge), StatusIs(Outcome::kRefused, kMessageTooLong));
  EXPECT_THAT((*sandbox)->Exec(Request()), IsOk());
}

TEST_F(AdapterBackendTest, AForeignSandboxIsNotDisposed) {
  auto one = StartFake({});
  auto two = StartFake({});
  ASSERT_THAT(one, IsOk());
  ASSERT_THAT(two, IsOk());
  auto sandbox = (*one)->Acquire(PricingSpec(), {});
  ASSERT_THAT(sandbox, IsOk());
  EXPECT_THAT((*two)->Dispose(std::move(sandbox).value()),
              StatusIs(Outcome::kRefused, kUnknownSandbox));
}

TEST_F(AdapterBackendTest, ASandboxThatOutlivesItsBackendFailsCleanly) {
  auto backend = StartFake({});
  ASSERT_THAT(backend, IsOk());
  auto sandbox = (*backend)->Acquire(PricingSpec(), {});
  ASSERT_THAT(sandbox, IsOk());
  backend->reset();
  EXPECT_THAT((*sandbox)->Exec(Request()), StatusIs(Outcome::kFailed, kAdapterExited));
}

TEST_F(AdapterBackendTest, TheDestructorEndsAnAdapterThatIgnoresStop) {
  auto backend = StartFake({"--fault", "hang", "--fault-at", "stop"}, {10s, 10s, 300ms});
  ASSERT_THAT(backend, IsOk());
  const auto start = std::chrono::steady_clock::now();
  backend->reset();
  EXPECT_LT(SecondsSince(start), 3.0);
}

TEST_F(AdapterBackendTest, ConcurrentCallsAreSerialized) {
  auto backend = StartFake({"--stdout", "ok"});
  ASSERT_THAT(backend, IsOk());
  std::vector<std::thread> threads;
  std::atomic<int> good{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10; ++i) {
        auto sandbox = (*backend)->Acquire(PricingSpec(), {});
        if (!sandbox.ok()) continue;
        auto result = (*sandbox)->Exec(Request());
        const bool disposed = (*backend)->Dispose(std::move(sandbox).value()).ok();
        if (result.ok() && result->stdout_bytes == "ok" && disposed) ++good;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(good.load(), 40);
}

// PROTOCOL.md's Python skeleton is checked by the same client the suite uses.
TEST_F(AdapterBackendTest, ThePythonSkeletonSpeaksTheProtocol) {
  const char* python = "/usr/bin/python3";
  // tools/bazel installs python3: without it this test fails rather than pass unrun.
  ASSERT_EQ(access(python, X_OK), 0) << "no " << python;
  const std::string script = base::Runfile("conformance/backend/protocol/example_adapter.py");
  auto backend = AdapterBackend::Start({python, script}, {}, kRelaxed);
  ASSERT_THAT(backend, IsOk());
  EXPECT_EQ((*backend)->identity().name, "example");
  EXPECT_TRUE((*backend)->declaration().bounded_exec);
  EXPECT_THAT((*backend)->RedirectEgress({"127.0.0.1", 8443, "PEM"}), IsOk());
  auto sandbox = (*backend)->Acquire(PricingSpec(), {"a", "s", "c"});
  ASSERT_THAT(sandbox, IsOk());
  auto result = (*sandbox)->bounded_exec()->ExecBounded(Request());
  ASSERT_THAT(result, IsOk());
  EXPECT_EQ(result->stdout_bytes, "azmcp pricing get");
  EXPECT_THAT((*sandbox)->bounded_exec()->ExecBounded(Request(10, 5)),
              StatusIs(Outcome::kFailed, sandbox::kExecOutputLimitReason));
  EXPECT_THAT((*backend)->Dispose(std::move(sandbox).value()), IsOk());
}

}  // namespace
}  // namespace azure_pricing::conformance::backend::protocol
