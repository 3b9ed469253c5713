#include "conformance/gate/forked_suite.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "conformance/gate/run.h"
#include "conformance/gate/suite_registry.h"
#include "gtest/gtest.h"

namespace azure_pricing::conformance {
namespace {

using std::chrono::steady_clock;

GateRecord Record(std::string id, std::string bytes) {
  return {.suite = "stack",
          .id = std::move(id),
          .file = "f.json",
          .requirements = {"HOST-001", "BOUND-004"},
          .verdict = Verdict::kFailed,
          .expected = "refused/x",
          .actual = bytes,
          .detail = "a:b\n12:3",
          .seconds = 1.25,
          .level = Level::kRecommended,
          .inputs = R"({"sku":"a"})"};
}

TEST(SuiteOutcomeWire, AnyBytesSurviveTheRoundTrip) {
  SuiteOutcome sent;
  sent.records = {Record("one", std::string("\0\xff:5:", 5)), Record("two", "")};
  sent.seconds = 3.5;
  sent.backend = "bubblewrap 0.0.0.dev0 (the reference)";
  sent.tally.lines = 7;
  sent.tally.violations = 1;
  sent.tally.lines_by_protocol[protocol_schema::Protocol::kBackend] = 7;
  sent.tally.described = {"backend answer.exec (line 3): /x: missing"};
  SuiteOutcome got;
  ASSERT_TRUE(DecodeSuiteOutcome(EncodeSuiteOutcome(sent), got));
  ASSERT_EQ(got.records.size(), 2u);
  EXPECT_EQ(got.records[0].actual, std::string("\0\xff:5:", 5));
  EXPECT_EQ(got.records[0].requirements, sent.records[0].requirements);
  EXPECT_EQ(got.records[0].verdict, Verdict::kFailed);
  EXPECT_EQ(got.records[0].level, Level::kRecommended);
  EXPECT_EQ(got.records[0].detail, "a:b\n12:3");
  EXPECT_EQ(got.records[0].inputs, R"({"sku":"a"})");
  EXPECT_DOUBLE_EQ(got.records[0].seconds, 1.25);
  EXPECT_EQ(got.records[1].id, "two");
  EXPECT_DOUBLE_EQ(got.seconds, 3.5);
  EXPECT_EQ(got.backend, sent.backend);
  EXPECT_EQ(got.tally.lines, 7u);
  EXPECT_EQ(got.tally.violations, 1u);
  EXPECT_EQ(got.tally.lines_by_protocol, sent.tally.lines_by_protocol);
  EXPECT_EQ(got.tally.described, sent.tally.described);
}

TEST(SuiteOutcomeWire, ACutOrPaddedOutcomeIsRefused) {
  SuiteOutcome sent;
  sent.records = {Record("one", "x")};
  const std::string wire = EncodeSuiteOutcome(sent);
  SuiteOutcome got;
  for (size_t cut = 0; cut < wire.size(); ++cut) {
    EXPECT_FALSE(DecodeSuiteOutcome(wire.substr(0, cut), got)) << cut;
  }
  EXPECT_FALSE(DecodeSuiteOutcome(wire + "1:x", got));
  EXPECT_FALSE(DecodeSuiteOutcome("", got));
}

// Suites as the registry holds them: plain functions. Each child prints, writes to stderr and
// adds records, or dies, or hangs.
void Prints(GateRun& run) {
  std::printf("\nprinted by the child\n");
  std::fprintf(stderr, "child's stderr\n");
  run.Add({.suite = "printer", .id = "a", .requirements = {"ONLY-SHOULD"}});
  run.Add({.suite = "printer", .id = "b", .verdict = Verdict::kFailed, .detail = "why"});
}
void Dies(GateRun&) {
  std::printf("last words\n");
  std::fflush(stdout);
  std::abort();
}
void Hangs(GateRun&) { pause(); }
void Throws(GateRun&) { throw std::runtime_error("a defect"); }

constexpr Suite kPrints = {.name = "printer", .description = "", .in_all = true,
                           .judges = SuiteJudges::kStack, .run = Prints};
constexpr Suite kDies = {.name = "dier", .description = "", .in_all = true,
                         .judges = SuiteJudges::kStack, .run = Dies};
constexpr Suite kThrows = {.name = "thrower", .description = "", .in_all = true,
                           .judges = SuiteJudges::kStack, .run = Throws};
constexpr Suite kHangs = {.name = "hanger", .description = "", .in_all = true,
                          .judges = SuiteJudges::kBackend, .run = Hangs};

// A gate run with default options, and a child started for it.
class ForkedSuiteTest : public ::testing::Test {
 protected:
  std::unique_ptr<ForkedSuite> Start(const Suite& suite) {
    std::string problem;
    std::unique_ptr<ForkedSuite> child = ForkedSuite::Start(suite, run_, problem);
    EXPECT_NE(child, nullptr) << problem;
    return child;
  }
  GateOptions options_;
  GateRun run_{.options = options_};
};

TEST_F(ForkedSuiteTest, RecordsOutputAndTimeComeBackToTheGate) {
  run_.should_only = {"ONLY-SHOULD"};
  std::unique_ptr<ForkedSuite> child = Start(kPrints);
  ASSERT_NE(child, nullptr);
  ::testing::internal::CaptureStdout();
  child->Finish(run_, steady_clock::now() + std::chrono::seconds(60));
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "\nprinted by the child\n");
  ASSERT_EQ(run_.records.size(), 2u);
  EXPECT_EQ(run_.records[0].id, "a");
  // The child judged the level from the run's SHOULD ids, as the gate's own process would.
  EXPECT_EQ(run_.records[0].level, Level::kRecommended);
  EXPECT_EQ(run_.records[1].verdict, Verdict::kFailed);
  EXPECT_EQ(run_.records[1].detail, "why");
  EXPECT_EQ(run_.suite_seconds.count("printer"), 1u);
}

TEST_F(ForkedSuiteTest, AChildThatDiesIsAGateFailureAfterItsOutput) {
  std::unique_ptr<ForkedSuite> child = Start(kDies);
  ASSERT_NE(child, nullptr);
  ::testing::internal::CaptureStdout();
  child->Finish(run_, steady_clock::now() + std::chrono::seconds(60));
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "last words\n");
  ASSERT_EQ(run_.records.size(), 1u);
  EXPECT_EQ(run_.records[0].suite, kGateSuite);
  EXPECT_EQ(run_.records[0].id, "suite-process");
  EXPECT_EQ(run_.records[0].verdict, Verdict::kFailed);
  EXPECT_EQ(run_.records[0].detail,
            "the dier suite's process was killed by signal 6 before it sent its results");
}

// An exception never unwinds into the gate's code in the child: the child ends, exit 70.
TEST_F(ForkedSuiteTest, AnExceptionInTheChildEndsOnlyTheChild) {
  std::unique_ptr<ForkedSuite> child = Start(kThrows);
  ASSERT_NE(child, nullptr);
  ::testing::internal::CaptureStderr();
  child->Finish(run_, steady_clock::now() + std::chrono::seconds(60));
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "gate: internal error in the thrower suite, please report it: a defect\n");
  ASSERT_EQ(run_.records.size(), 1u);
  EXPECT_EQ(run_.records[0].detail,
            "the thrower suite's process exited 70 before it sent its results");
}

TEST_F(ForkedSuiteTest, AChildPastItsDeadlineIsKilledAndReaped) {
  std::unique_ptr<ForkedSuite> child = Start(kHangs);
  ASSERT_NE(child, nullptr);
  const auto start = steady_clock::now();
  child->Finish(run_, start + std::chrono::milliseconds(300));
  EXPECT_LT(steady_clock::now() - start, std::chrono::seconds(30));
  ASSERT_EQ(run_.records.size(), 1u);
  EXPECT_EQ(run_.records[0].detail,
            "the hanger suite's process did not end within its deadline and was killed before "
            "it sent its results");
}

TEST_F(ForkedSuiteTest, AnUnfinishedChildIsKilledWithItsHandle) {
  std::unique_ptr<ForkedSuite> child = Start(kHangs);
  ASSERT_NE(child, nullptr);
  const pid_t pid = child->pid();
  ASSERT_GT(pid, 0);
  EXPECT_EQ(kill(pid, 0), 0);  // alive, and ours
  child.reset();
  // Reaped: no such process any more, not even a zombie.
  EXPECT_EQ(kill(pid, 0), -1);
  EXPECT_EQ(errno, ESRCH);
}

}  // namespace
}  // namespace azure_pricing::conformance
