// The gate's side of the testee protocol: the reference testee gives, for every host case of
// every case file, the CallReport the in-process run gives; and a testee that hangs, exits,
// answers garbage or misuses its sandboxes fails the case with a named reason within the
// deadline, leaving no process behind.
#include "conformance/testee/runner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <chrono>

#include "conformance/cases/case_runner.h"
#include "conformance/citations/cites.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing {
CITES("INTRO-007");
}  // namespace azure_pricing

namespace azure_pricing::conformance::testee {
namespace {

using conformance::host::CallReport;
using conformance::host::ScriptedCall;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr char kReference[] = "conformance/testee/reference_testee";
constexpr char kFake[] = "conformance/testee/fake_testee";

std::unique_ptr<TesteeProcess> StartOrDie(std::vector<std::string> argv,
                                          TesteeDeadlines deadlines = {}) {
  StatusOr<std::unique_ptr<TesteeProcess>> testee =
      TesteeProcess::Start(std::move(argv), {"PATH=/usr/bin:/bin"}, "", deadlines);
  EXPECT_THAT(testee.status(), IsOk());
  return testee.ok() ? std::move(*testee) : nullptr;
}

// Everything a case's checks read, in one comparable text.
std::string Everything(const StatusOr<CallReport>& r) {
  if (!r.ok()) return "error " + std::string(r.status().reason());
  std::string out = conformance::host::CallReportToJson(*r);
  for (const std::string& w : r->warnings) out += "\nwarning " + w;
  out += "\ntool " + r->tool_name + " " + r->tool_description + " " + r->tool_parameters_schema;
  for (const std::string& a : r->argv) out += "\nargv " + a;
  for (const auto& a : r->acquires) {
    out += "\nacquire " + a.key.agent_id + " " + a.key.session_id + " " + a.key.call_id + " " +
           a.spec.image;
  }
  for (const auto& e : r->exec_requests) {
    for (const std::string& v : e.env) out += "\nenv " + v;
    out += "\nbudgets " + std::to_string(e.timeout_seconds) + " " +
           std::to_string(e.max_output_bytes);
  }
  out += "\nexecs " + std::to_string(r->execs) + " unbounded " +
         std::to_string(r->unbounded_execs) + " live " + std::to_string(r->sandbox_live) +
         " files " + std::to_string(r->file_operations);
  return out;
}

TEST(RunnerTest, TheReferenceTesteeGivesTheInProcessReportForEveryHostCase) {
  std::unique_ptr<TesteeProcess> testee = StartOrDie({kReference});
  ASSERT_NE(testee, nullptr);
  EXPECT_EQ(testee->implementation().name, "maf-sandbox-azure-pricing");
  int compared = 0;
  std::vector<std::string> differences, failures;
  for (const std::string& file : conformance::CaseFiles()) {
    conformance::host::ScriptedHostRunner runner;  // keeps a host for a case's further calls
    auto both = [&](const ScriptedCall& call) {
      const StatusOr<CallReport> in_process = runner.Run(call);
      StatusOr<CallReport> over = testee->RunCall(call);
      ++compared;
      if (Everything(in_process) != Everything(over)) {
        differences.push_back(file + ": " + Everything(in_process) + "\n  over the protocol:\n" +
                              Everything(over));
      }
      return over;
    };
    for (const conformance::CaseResult& r : conformance::RunCaseFile(file, both)) {
      if (!r.passed) failures.push_back(r.file + " " + r.id + ": " + r.detail);
    }
  }
  EXPECT_GE(compared, 220);  // every call of every case file: 226 today
  EXPECT_THAT(differences, IsEmpty());
  EXPECT_THAT(failures, IsEmpty());
}

ScriptedCall TrivialCall() {
  ScriptedCall call;
  call.arguments = R"({"sku":"Standard_D2s_v5","region":"westeurope"})";
  call.scripts.push_back({.exec = {.stdout_bytes = R"({"Items":[]})"}});
  return call;
}

bool Gone(pid_t pid) { return kill(pid, 0) != 0 && errno == ESRCH; }

struct Misbehaviour {
  const char* mode;
  Reason reason;
};

class FakeTesteeTest : public ::testing::TestWithParam<Misbehaviour> {};

TEST_P(FakeTesteeTest, FailsTheCaseWithItsReasonInTimeAndLeavesNoProcess) {
  const TesteeDeadlines short_deadlines{.hello = std::chrono::seconds(5),
                                        .call = std::chrono::milliseconds(500)};
  std::unique_ptr<TesteeProcess> testee =
      StartOrDie({kFake, "--mode", GetParam().mode}, short_deadlines);
  ASSERT_NE(testee, nullptr);
  const pid_t pid = testee->pid();
  ASSERT_NE(pid, 0);
  const auto start = std::chrono::steady_clock::now();
  const StatusOr<CallReport> report = testee->RunCall(TrivialCall());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
  EXPECT_THAT(report.status(), StatusIs(Outcome::kFailed, GetParam().reason));
  // Killed and reaped (bad_callback keeps the testee: it answered, only its callback was bad).
  if (std::string(GetParam().reason) != kTesteeBadCallback) {
    EXPECT_EQ(testee->pid(), 0);
    EXPECT_TRUE(Gone(pid));
  }
  testee.reset();
  EXPECT_TRUE(Gone(pid));
}

INSTANTIATE_TEST_SUITE_P(Modes, FakeTesteeTest,
                         ::testing::Values(Misbehaviour{"hang", kTesteeTimeout},
                                           Misbehaviour{"exit", kTesteeExited},
                                           Misbehaviour{"garbage", kTesteeProtocolError},
                                           Misbehaviour{"wrong_seq", kTesteeProtocolError},
                                           Misbehaviour{"bad_callback", kTesteeBadCallback}),
                         [](const auto& info) { return std::string(info.param.mode); });

// The case's error says what was wrong with the testee's line, not only that it was wrong.
TEST(FakeTesteeFaultTest, AProtocolErrorNamesTheLineOrMemberAtFault) {
  const std::pair<const char*, const char*> modes[] = {
      {"garbage", " At fault: the line: not JSON (at byte 2)."},  // "this is not JSON"
      {"wrong_seq", " At fault: seq: not the seq of the message in flight."},
  };
  for (const auto& [mode, fault] : modes) {
    std::unique_ptr<TesteeProcess> testee = StartOrDie({kFake, "--mode", mode});
    ASSERT_NE(testee, nullptr);
    const StatusOr<CallReport> report = testee->RunCall(TrivialCall());
    EXPECT_THAT(report.status(),
                StatusIs(Outcome::kFailed, kTesteeProtocolError, ::testing::EndsWith(fault)))
        << mode;
    EXPECT_EQ(testee->pid(), 0) << mode;  // killed and reaped
  }
}

// The gate counts from its own backend: a sandbox the testee never disposed fails every host
// case through the runner's "sandboxes disposed" check, whatever the testee reports.
TEST(RunnerTest, ASandboxNeverDisposedFailsTheCaseThroughTheGatesOwnCount) {
  std::unique_ptr<TesteeProcess> testee = StartOrDie({kFake, "--mode", "no_dispose"});
  ASSERT_NE(testee, nullptr);
  const StatusOr<CallReport> report = testee->RunCall(TrivialCall());
  ASSERT_THAT(report.status(), IsOk());
  EXPECT_EQ(report->sandbox_acquisitions, 1);
  EXPECT_EQ(report->sandbox_disposals, 0);
  int flagged = 0;
  for (const conformance::CaseResult& r :
       conformance::RunCaseFile("conformance/cases/host.json",
                                [&](const ScriptedCall& call) { return testee->RunCall(call); })) {
    if (r.detail.find("sandboxes disposed: acquired 1 sandboxes, disposed 0") != std::string::npos) {
      ++flagged;
    }
  }
  EXPECT_GT(flagged, 0);
}

// PROTOCOL.md: a testee's callbacks count per case. One that starts again at seq 1 in every case
// is served in every case; a gate that checked callback order over the whole session would answer
// the second case's first callback out_of_order and fail it.
TEST(RunnerTest, CallbackSeqMayStartAgainInEveryCase) {
  std::unique_ptr<TesteeProcess> testee = StartOrDie({kFake, "--mode", "seq_per_case"});
  ASSERT_NE(testee, nullptr);
  for (int i = 0; i < 3; ++i) {
    const StatusOr<CallReport> report = testee->RunCall(TrivialCall());
    ASSERT_THAT(report.status(), IsOk()) << "case " << i;
    EXPECT_EQ(report->sandbox_acquisitions, 1) << "case " << i;
    EXPECT_EQ(report->sandbox_disposals, 1) << "case " << i;
  }
}

TEST(RunnerTest, ATesteeKilledByOneCaseIsReplacedForTheNext) {
  std::unique_ptr<TesteeProcess> testee = StartOrDie({kFake, "--mode", "exit"});
  ASSERT_NE(testee, nullptr);
  const pid_t first = testee->pid();
  EXPECT_THAT(testee->RunCall(TrivialCall()).status(), StatusIs(Outcome::kFailed, kTesteeExited));
  EXPECT_THAT(testee->RunCall(TrivialCall()).status(), StatusIs(Outcome::kFailed, kTesteeExited));
  EXPECT_TRUE(Gone(first));
}

// The lines the runner writes and reads, for the version tests.
struct Seen {
  std::vector<std::string> sent;
  std::vector<std::string> received;
};

std::unique_ptr<TesteeProcess> StartSeeing(std::vector<std::string> argv, Seen& seen) {
  StatusOr<std::unique_ptr<TesteeProcess>> testee = TesteeProcess::Start(
      std::move(argv), {"PATH=/usr/bin:/bin"}, "", {},
      [&seen](line_protocol::LineDirection direction, std::string_view, std::string_view line) {
        (direction == line_protocol::LineDirection::kRequestSent ? seen.sent : seen.received)
            .emplace_back(line);
      });
  EXPECT_THAT(testee.status(), IsOk());
  return testee.ok() ? std::move(*testee) : nullptr;
}

TEST(RunnerVersionTest, OffersVersion4AndSendsTheConfigurationAsObjects) {
  Seen seen;
  std::unique_ptr<TesteeProcess> testee = StartSeeing({kFake}, seen);
  ASSERT_NE(testee, nullptr);
  EXPECT_EQ(testee->version(), Version::kV4);
  ScriptedCall call = TrivialCall();
  call.host = conformance::host::ConfigFromText(R"({"max_rows":7})");
  StatusOr<CallReport> report = testee->RunCall(call);
  ASSERT_THAT(report.status(), IsOk());
  EXPECT_TRUE(report->reports_label_tracking);
  ASSERT_EQ(seen.sent.size(), 2u);
  EXPECT_THAT(seen.sent[0], HasSubstr(R"("protocol":"azure-pricing-testee/4")"));
  EXPECT_THAT(seen.sent[1], HasSubstr(R"("host":{"max_rows":7},"backend":{},"labels":{})"));
  EXPECT_THAT(seen.received.back(), HasSubstr(R"("output_variable":null,"conversation_label":)"));
}

TEST(RunnerVersionTest, ATesteeOfVersion3IsSpokenToInItAndItsReportSaysNothingOfHiding) {
  Seen seen;
  std::unique_ptr<TesteeProcess> testee = StartSeeing({kFake, "--speaks", "3"}, seen);
  ASSERT_NE(testee, nullptr);
  EXPECT_EQ(testee->version(), Version::kV3);
  ASSERT_EQ(seen.sent.size(), 2u);
  EXPECT_THAT(seen.sent[1], HasSubstr(R"("seq":2,"op":"hello","protocol":"azure-pricing-testee/3")"));
  StatusOr<CallReport> report = testee->RunCall(TrivialCall());
  ASSERT_THAT(report.status(), IsOk());
  EXPECT_FALSE(report->reports_label_tracking);
  EXPECT_THAT(seen.sent.back(), HasSubstr(R"("host":{},"backend":{},"labels":{})"));
  EXPECT_THAT(seen.received.back(), Not(HasSubstr("output_variable")));
}

TEST(RunnerVersionTest, ATesteeOfVersion2IsOfferedItOnTheSamePipeAndGetsTextConfiguration) {
  Seen seen;
  std::unique_ptr<TesteeProcess> testee = StartSeeing({kFake, "--speaks", "2"}, seen);
  ASSERT_NE(testee, nullptr);
  const pid_t pid = testee->pid();
  EXPECT_EQ(testee->version(), Version::kV2);
  ASSERT_EQ(seen.received.size(), 3u);
  EXPECT_THAT(seen.received[0], HasSubstr(R"("reason":"protocol_mismatch")"));
  EXPECT_THAT(seen.received[1], HasSubstr(R"("reason":"protocol_mismatch")"));
  EXPECT_THAT(seen.sent[2], HasSubstr(R"("seq":3,"op":"hello","protocol":"azure-pricing-testee/2")"));
  ScriptedCall call = TrivialCall();
  call.host = conformance::host::ConfigFromText(R"({"max_rows":7})");
  ASSERT_THAT(testee->RunCall(call).status(), IsOk());
  EXPECT_EQ(testee->pid(), pid);  // one process: the fallback is not a restart
  EXPECT_THAT(seen.sent.back(), HasSubstr(R"("host_json":"{\"max_rows\":7}","backend_json":"{}")"));
}

TEST(RunnerVersionTest, ATesteeThatAnswersWithAnOlderVersionIsSpokenToInIt) {
  Seen seen;
  std::unique_ptr<TesteeProcess> testee = StartSeeing({kFake, "--speaks", "2-anyway"}, seen);
  ASSERT_NE(testee, nullptr);
  EXPECT_EQ(testee->version(), Version::kV2);
  EXPECT_EQ(seen.sent.size(), 1u);  // one hello
  ASSERT_THAT(testee->RunCall(TrivialCall()).status(), IsOk());
  EXPECT_THAT(seen.sent.back(), HasSubstr(R"("host_json":"{}")"));
}

TEST(RunnerVersionTest, ATesteeOfNoVersionThisGateSpeaksIsAMismatch) {
  EXPECT_THAT(TesteeProcess::Start({kFake, "--speaks", "none"}, {"PATH=/usr/bin:/bin"}, "").status(),
              StatusIs(Outcome::kFailed, kProtocolMismatch));
}

TEST(RunnerVersionTest, AReplacedTesteeIsOfferedTheVersionItAgreedTo) {
  Seen seen;
  std::unique_ptr<TesteeProcess> testee =
      StartSeeing({kFake, "--speaks", "2", "--mode", "exit"}, seen);
  ASSERT_NE(testee, nullptr);
  EXPECT_THAT(testee->RunCall(TrivialCall()).status(), StatusIs(Outcome::kFailed, kTesteeExited));
  seen.sent.clear();
  EXPECT_THAT(testee->RunCall(TrivialCall()).status(), StatusIs(Outcome::kFailed, kTesteeExited));
  ASSERT_FALSE(seen.sent.empty());
  EXPECT_THAT(seen.sent[0], HasSubstr(R"("op":"hello","protocol":"azure-pricing-testee/2")"));
}

TEST(RunnerTest, AProgramThatCannotStartIsNamed) {
  EXPECT_THAT(TesteeProcess::Start({"/proc/nonexistent/testee"}, {}, "").status(),
              StatusIs(Outcome::kFailed, kTesteeSpawnFailed));
}

}  // namespace
}  // namespace azure_pricing::conformance::testee
