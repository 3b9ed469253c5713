#include "conformance/stack/stack_suite.h"

#include <sys/stat.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include "conformance/citations/cites.h"
#include "conformance/gate/record.h"
#include "conformance/gate/recorded_run.h"
#include "conformance/stack/local_stack.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/base/files.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::stack {
namespace {

CITES("INTRO-002", "INTRO-004", "INTRO-006", "INTRO-007", "HOST-013", "BOUND-016", "BOUND-018",
      "REGION-001", "REGION-002", "SELECT-003", "SELECT-004", "SELECT-009", "SELECT-011",
      "SELECT-012", "UPSTREAM-001", "UPSTREAM-002", "BOUND-015", "BOUND-011", "BOUND-012",
      "BOUND-003", "BOUND-017", "BOUND-021", "ARG-009", "ARG-010");

using ::testing::HasSubstr;

const StackCaseResult* Find(const StackSuiteResult& r, const std::string& id) {
  for (const StackCaseResult& c : r.cases) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

void Print(const StackSuiteResult& r) {
  std::cout << "cli: " << r.cli << "\n";
  if (!r.problem.empty()) std::cout << "problem: " << r.problem << "\n";
  for (const StackCaseResult& c : r.cases) std::cout << FormatStackCase(c) << "\n";
}

std::string TestTmp() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return tmp != nullptr ? tmp : "/tmp";
}

// Every case passes on the whole stack with the real azmcp: the gate's stack suite as
// `tools/bazel run //conformance:gate` runs it, recorded once per build
// (//conformance/gate:whole_run), since docs/gate.md's transcript shows the same run.
TEST(StackSuiteTest, EveryCasePassesOnTheWholeStackWithTheRealCli) {
  const StatusOr<RecordedGateRun> run = ReadRecordedGateRun("conformance/gate/whole_run");
  ASSERT_THAT(run.status(), IsOk()) << "build //conformance/gate:whole_run";
  EXPECT_EQ(run->exit_status, 0) << run->stdout_text;
  const std::vector<GateRecord> cases = run->RecordsOf("stack");
  std::vector<std::string> ids;
  for (const GateRecord& c : cases) {
    ids.push_back(c.id);
    EXPECT_EQ(c.verdict, Verdict::kPassed) << c.id << ": " << c.detail;
  }
  // Every case ran, under the id the suite selects it by (--filter, --shard).
  EXPECT_EQ(ids, StackCaseIds());
  EXPECT_EQ(ids.size(), 6u);
  EXPECT_THAT(run->stdout_text, HasSubstr("\nstack\n"));
  EXPECT_THAT(run->stdout_text, HasSubstr("  cli: the real azmcp (" + std::string(kAzmcpVariable)));
}

// A CLI that prints no JSON: every case that needs the CLI fails and says what happened; the
// refusal, which never reaches the CLI, still passes.
TEST(StackSuiteTest, ABrokenCliFailsTheCasesThatRunIt) {
  const std::string cli = TestTmp() + "/broken-azmcp";
  ASSERT_TRUE(base::WriteFileAtomically(cli, "#!/bin/sh\necho 'not json'\n").ok());
  ASSERT_EQ(chmod(cli.c_str(), 0755), 0);
  const StackSuiteResult r = RunStackSuite(
      {.cli = CliChoice{
           .path = cli, .dotnet_bundle = false, .real = false, .description = "a broken CLI"}});
  Print(r);
  EXPECT_EQ(r.cli, "a broken CLI");
  EXPECT_EQ(r.failed, 5);
  const StackCaseResult* lookup = Find(r, "stack.completed_lookup");
  ASSERT_NE(lookup, nullptr);
  EXPECT_FALSE(lookup->passed);
  EXPECT_THAT(lookup->actual, HasSubstr("failed ("));
  EXPECT_EQ(lookup->detail, "the lookup did not complete");
  EXPECT_THAT(FormatStackCase(*lookup), HasSubstr("FAIL stack.completed_lookup [INTRO-002"));
  const StackCaseResult* refusal = Find(r, "stack.refusal_no_sandbox");
  ASSERT_NE(refusal, nullptr);
  EXPECT_TRUE(refusal->passed) << refusal->detail;
}

// --filter and --shard select cases before they run: the others are not run at all.
TEST(StackSuiteTest, OnlyTheSelectedCasesRun) {
  std::vector<std::string> ran;
  const StackSuiteResult r = RunStackSuite(
      {.cli = FakeCli(),
       .progress = [&ran](const StackCaseResult& c) { ran.push_back(c.id); },
       .selected = [](const std::string& id) { return id == "stack.refusal_no_sandbox"; }});
  Print(r);
  EXPECT_EQ(ran, std::vector<std::string>{"stack.refusal_no_sandbox"});
  EXPECT_EQ(r.passed, 1);
  EXPECT_EQ(r.failed, 0);
}

// An upstream serving other prices than the catalog the cases expect: the lookup completes, and
// the suite still fails it, naming the meter whose price differs.
TEST(StackSuiteTest, AnUpstreamServingWrongPricesFailsTheLookup) {
  StatusOr<std::string> catalog = BundledCatalog();
  ASSERT_TRUE(catalog.ok());
  const std::string real = "\"retailPrice\":0.0199,";
  const size_t at = catalog->find(real);
  ASSERT_NE(at, std::string::npos);
  std::string wrong = *catalog;
  wrong.replace(at, real.size(), "\"retailPrice\":0.0299,");
  const StackSuiteResult r = RunStackSuite({.cli = FakeCli(), .served_catalog_for_testing = wrong});
  Print(r);
  const StackCaseResult* lookup = Find(r, "stack.completed_lookup");
  ASSERT_NE(lookup, nullptr);
  EXPECT_FALSE(lookup->passed);
  EXPECT_THAT(lookup->actual, HasSubstr("completed"));
  EXPECT_THAT(lookup->detail, HasSubstr("is not in the catalog at that price"));
}

}  // namespace
}  // namespace azure_pricing::conformance::stack
