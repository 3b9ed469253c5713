// The clients show their observer every line, both ways: AdapterBackend against fake_adapter and
// TesteeProcess against the reference testee speak only schema-valid lines, and a peer's broken
// line is counted.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>

#include "conformance/backend/protocol/client.h"
#include "conformance/protocol_schema/validator.h"
#include "conformance/testee/runner.h"
#include "ref/base/runfiles.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::protocol_schema {
namespace {

using conformance::backend::protocol::AdapterBackend;
using testee::TesteeProcess;

ProtocolSchemas Schemas() {
  StatusOr<ProtocolSchemas> schemas = ProtocolSchemas::Load();
  EXPECT_THAT(schemas.status(), IsOk());
  return *schemas;
}

// The recorder's observer, noting which kinds of line went by.
conformance::line_protocol::LineObserver Noting(LineRecorder& recorder, Protocol protocol,
                                      std::set<LineDirection>& seen) {
  return [&seen, observe = recorder.ObserverFor(protocol)](
             LineDirection direction, std::string_view op, std::string_view line) {
    seen.insert(direction);
    EXPECT_FALSE(line.ends_with('\n'));
    observe(direction, op, line);
  };
}

sandbox::Spec PricingSpec() {
  sandbox::Spec spec;
  spec.min_isolation = sandbox::Isolation::kContainer;
  spec.required = {sandbox::Capability::kExec};
  spec.egress = sandbox::Egress::kAllowlist;
  spec.egress_allow = {{"prices.azure.com", std::set<std::string>{"GET"}}};
  spec.isolation_scope = sandbox::IsolationScope::kCall;
  spec.image = "image";
  return spec;
}

// hello, acquire (with an upstream), exec, dispose and stop: ten lines.
void Session(std::vector<std::string> argv, conformance::line_protocol::LineObserver observer) {
  argv.push_back("--accept-redirect");
  StatusOr<std::unique_ptr<AdapterBackend>> backend =
      AdapterBackend::Start(std::move(argv), {}, {}, "", std::move(observer));
  ASSERT_THAT(backend.status(), IsOk());
  ASSERT_THAT((*backend)->RedirectEgress({"127.0.0.1", 8443, "pem"}), IsOk());
  StatusOr<std::unique_ptr<sandbox::Sandbox>> sandbox =
      (*backend)->Acquire(PricingSpec(), {"agent", "session", "call"});
  ASSERT_THAT(sandbox.status(), IsOk());
  // Either may fail (a faulty adapter is killed at its broken answer); the lines are the test.
  (void)(*sandbox)->bounded_exec()->ExecBounded({{"azmcp", "pricing"}, {"A=b"}, 60, 1024});
  (void)(*backend)->Dispose(std::move(*sandbox));
}

TEST(ClientsTest, EveryLineAnAdapterBackendWritesAndReadsIsRecordedAndValid) {
  LineRecorder recorder(Schemas());
  std::set<LineDirection> seen;
  Session({base::Runfile("conformance/backend/protocol/fake_adapter"), "--stdout", "{}\n"},
          Noting(recorder, Protocol::kBackend, seen));
  const LineRecorder::Tally tally = recorder.tally();
  EXPECT_EQ(tally.lines, 10u);
  EXPECT_EQ(tally.violations, 0u) << ::testing::PrintToString(tally.described);
  EXPECT_EQ(seen,
            (std::set<LineDirection>{LineDirection::kRequestSent, LineDirection::kAnswerReceived}));
}

TEST(ClientsTest, AnAdaptersBrokenAnswerIsCountedAndDescribedWithoutItsText) {
  LineRecorder recorder(Schemas());
  std::set<LineDirection> seen;
  // The exec's answer is "this is not a protocol answer"; the client kills the adapter, so the
  // dispose and stop that follow are never written.
  Session({base::Runfile("conformance/backend/protocol/fake_adapter"), "--fault", "garbage",
           "--fault-at", "exec_bounded"},
          Noting(recorder, Protocol::kBackend, seen));
  const LineRecorder::Tally tally = recorder.tally();
  EXPECT_EQ(tally.lines, 6u);
  EXPECT_EQ(tally.violations, 1u);
  EXPECT_EQ(
      tally.described,
      std::vector<std::string>{"backend answer (line 6): /: is not JSON, or not UTF-8 (framing)"});
}

conformance::host::ScriptedCall LookupCall() {
  conformance::host::ScriptedCall call;
  call.arguments = R"({"sku":"Standard_D2s_v5","region":"westeurope"})";
  call.scripts.push_back(
      {.exec = {.stdout_bytes = R"({"status":200,"message":"Success","results":{"prices":[]}})"}});
  return call;
}

TEST(ClientsTest, EveryLineOfATesteeSessionIsRecordedCallbacksIncludedAndValid) {
  LineRecorder recorder(Schemas());
  std::set<LineDirection> seen;
  {
    StatusOr<std::unique_ptr<TesteeProcess>> testee = TesteeProcess::Start(
        {base::Runfile("conformance/testee/reference_testee")}, {"PATH=/usr/bin:/bin"}, "", {},
        Noting(recorder, Protocol::kTestee, seen));
    ASSERT_THAT(testee.status(), IsOk());
    ASSERT_THAT((*testee)->RunCall(LookupCall()).status(), IsOk());
    conformance::host::ScriptedCall refused;
    refused.arguments = "{";
    ASSERT_THAT((*testee)->RunCall(refused).status(), IsOk());
  }
  const LineRecorder::Tally tally = recorder.tally();
  // hello, the lookup (acquire, exec, dispose: 3 callbacks and 3 answers), the refusal, stop.
  EXPECT_EQ(tally.lines, 14u);
  EXPECT_EQ(tally.violations, 0u) << ::testing::PrintToString(tally.described);
  EXPECT_EQ(seen,
            (std::set<LineDirection>{LineDirection::kRequestSent, LineDirection::kAnswerReceived,
                                     LineDirection::kRequestReceived, LineDirection::kAnswerSent}));
}

TEST(ClientsTest, ATesteesBrokenAnswerIsCounted) {
  LineRecorder recorder(Schemas());
  std::set<LineDirection> seen;
  StatusOr<std::unique_ptr<TesteeProcess>> testee =
      TesteeProcess::Start({base::Runfile("conformance/testee/fake_testee"), "--mode", "garbage"},
                           {}, "", {}, Noting(recorder, Protocol::kTestee, seen));
  ASSERT_THAT(testee.status(), IsOk());
  EXPECT_FALSE((*testee)->RunCall(LookupCall()).ok());
  const LineRecorder::Tally tally = recorder.tally();
  EXPECT_EQ(tally.lines, 4u);  // hello and its answer, the case and the line that is no answer
  EXPECT_EQ(tally.violations, 1u);
  EXPECT_EQ(tally.described, std::vector<std::string>{
                                 "testee answer (line 4): /: is not JSON, or not UTF-8 (framing)"});
}

}  // namespace
}  // namespace azure_pricing::conformance::protocol_schema
