#include "conformance/html_report/compare_page.h"

#include "conformance/html_report/page_test_support.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::html_report {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

NamedRun MakeRun(std::string name, std::string impl, std::vector<GateRecord> records) {
  NamedRun run{.name = std::move(name), .report = {}};
  run.report.header = {.implementation = std::move(impl), .profile_version = "2026-12-05.1",
                       .gate_version = "0.0.0.dev0"};
  run.report.records = std::move(records);
  return run;
}

GateRecord Check(std::string suite, std::string id, Verdict verdict) {
  return {.suite = std::move(suite), .id = std::move(id), .requirements = {"ARG-001"}, .verdict = verdict};
}

std::vector<NamedRun> ThreeRuns() {
  return {MakeRun("ref.json", "reference", {Check("kind", "a", Verdict::kPassed), Check("kind", "b", Verdict::kPassed)}),
          MakeRun("py.json", "python", {Check("kind", "a", Verdict::kPassed), Check("kind", "b", Verdict::kKnown)}),
          MakeRun("port.json", "port", {Check("kind", "b", Verdict::kFailed), Check("kind", "c", Verdict::kPassed)})};
}

TEST(ComparePageTest, ChecksAreLinedUpBySuiteAndIdWithOneCellPerRun) {
  const StatusOr<std::string> page = ComparePage(ThreeRuns(), nullptr);
  ASSERT_THAT(page, IsOk());
  EXPECT_THAT(Captures(*page, R"re(<tr class="check" id="([^"]*)")re"),
              ElementsAre("kind/a", "kind/b", "kind/c"));
  EXPECT_THAT(Captures(*page, R"re(<tr class="check"[^>]*data-differs="(true|false)")re"),
              ElementsAre("true", "true", "true"));
  EXPECT_THAT(Captures(*page, R"re(<td class="result [^"]*" data-result="([a-z_]*)")re"),
              ElementsAre("passed", "passed", "absent", "passed", "known", "failed", "absent",
                          "absent", "passed"));
  EXPECT_THAT(DanglingLinks(*page), ElementsAre());
}

TEST(ComparePageTest, RowsAlikeInEveryRunDoNotDiffer) {
  const StatusOr<std::string> page = ComparePage(
      {MakeRun("a.json", "a", {Check("kind", "x", Verdict::kPassed)}),
       MakeRun("b.json", "b", {Check("kind", "x", Verdict::kPassed)})},
      nullptr);
  ASSERT_THAT(page, IsOk());
  EXPECT_THAT(Captures(*page, R"re(<tr class="check"[^>]*data-differs="(true|false)")re"),
              ElementsAre("false"));
  EXPECT_THAT(*page, HasSubstr("0 of 1 checks differ"));
}

TEST(ComparePageTest, RequirementTotalsCountPassedChecksPerRun) {
  const StatusOr<std::string> page = ComparePage(ThreeRuns(), nullptr);
  ASSERT_THAT(page, IsOk());
  EXPECT_THAT(Captures(*page, R"re(<td class="n m-[a-z-]*" data-status="[a-z-]*">([^<]*)</td>)re"),
              ElementsAre("2/2", "1/2", "1/2"));
}

TEST(ComparePageTest, RunsOfDifferentSuitesAreRefusedNamingEachRunsSuites) {
  const std::vector<NamedRun> runs = {MakeRun("a.json", "a", {Check("kind", "x", Verdict::kPassed)}),
                                      MakeRun("b.json", "b", {Check("backend", "y", Verdict::kPassed)})};
  EXPECT_EQ(SuiteMismatch(runs), "a.json ran kind; b.json ran backend");
  EXPECT_THAT(ComparePage(runs, nullptr).status(), ProgramErrorIs(kRunsOfDifferentSuites));
  EXPECT_EQ(SuiteMismatch(ThreeRuns()), "");
}

TEST(ComparePageTest, DifferentVersionsAreLinedUpWithAWarning) {
  std::vector<NamedRun> runs = ThreeRuns();
  EXPECT_THAT(VersionWarnings(runs), ElementsAre());
  runs[2].report.header.profile_version = "2026-11-30.1";
  EXPECT_THAT(VersionWarnings(runs),
              ElementsAre("the runs were made by different profile versions (ref.json "
                          "2026-12-05.1, py.json 2026-12-05.1, port.json 2026-11-30.1); their "
                          "checks are lined up by suite/id"));
  const StatusOr<std::string> page = ComparePage(runs, nullptr);
  ASSERT_THAT(page, IsOk());
  EXPECT_THAT(*page, HasSubstr("different profile versions"));
}

TEST(ComparePageTest, RunsOfOneImplementationAreNamedByTheirFiles) {
  const StatusOr<std::string> page = ComparePage(
      {MakeRun("before.json", "same", {Check("kind", "x", Verdict::kPassed)}),
       MakeRun("after.json", "same", {Check("kind", "x", Verdict::kPassed)})},
      nullptr);
  ASSERT_THAT(page, IsOk());
  EXPECT_THAT(*page, HasSubstr("<th>1. before.json</th><th>2. after.json</th>"));
}

}  // namespace
}  // namespace azure_pricing::conformance::html_report
