#include "conformance/gate/report.h"

#include "conformance/citations/cites.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azure_pricing {
CITES("PROFILE-012");
namespace conformance {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<GateRecord> Sample() {
  return {
      {.suite = "kind", .id = "a", .requirements = {"ARG-001"}, .seconds = 0.5},
      {.suite = "kind", .id = "b", .requirements = {"ARG-001", "ARG-002"},
       .verdict = Verdict::kFailed, .expected = "refused/missing_filter", .actual = "completed",
       .detail = "outcome differs", .seconds = 0.25},
      {.suite = "backend", .id = "exec.argv", .requirements = {"HOST-012"},
       .verdict = Verdict::kSkipped, .detail = "bwrap missing"},
      {.suite = "kind", .id = "c", .requirements = {"SEL-001"}, .verdict = Verdict::kKnown},
      {.suite = "kind", .id = "c/wording", .requirements = {"SEL-001"},
       .verdict = Verdict::kFailed, .level = Level::kRecommended},
  };
}

TEST(GateReportTest, SummariesCountEachVerdictPerSuiteInFirstAppearanceOrder) {
  const std::vector<SuiteSummary> s = Summarize(Sample(), {{"backend", 7.0}});
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].suite, "kind");
  EXPECT_EQ(s[0].required.passed, 1);
  EXPECT_EQ(s[0].required.failed, 1);
  EXPECT_EQ(s[0].required.known, 1);
  EXPECT_EQ(s[0].recommended.failed, 1);
  EXPECT_EQ(s[0].recommended.passed, 0);
  EXPECT_EQ(s[0].skipped, 0);
  EXPECT_DOUBLE_EQ(s[0].seconds, 0.75);  // no measured wall time: the records' sum
  EXPECT_EQ(s[1].suite, "backend");
  EXPECT_EQ(s[1].skipped, 1);
  EXPECT_DOUBLE_EQ(s[1].seconds, 7.0);  // the measured wall time wins
}

TEST(GateReportTest, TheTableHasAHeaderARowPerSuiteAndATotal) {
  const std::string table = SummaryTable(Summarize(Sample(), {}));
  EXPECT_EQ(table,
            "               ------- REQUIRED ------  ----- RECOMMENDED -----\n"
            "  suite         passed  failed   known   passed  failed   known skipped      time\n"
            "  kind               1       1       1        0       1       0       0      0.8s\n"
            "  backend            0       0       0        0       0       0       1      0.0s\n"
            "  total              1       1       1        0       1       0       1      0.8s\n");
}

// Suites that ran side by side overlap: the total is the run's wall time, not their sum.
TEST(GateReportTest, TheTotalTimeIsTheWallTimeWhenGiven) {
  const std::string table = SummaryTable(Summarize(Sample(), {{"backend", 5.0}}), 3.25);
  EXPECT_NE(table.find("  backend            0       0       0        0       0       0       1"
                       "      5.0s\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("  total              1       1       1        0       1       0       1"
                       "      3.2s\n"),
            std::string::npos)
      << table;
}

TEST(GateReportTest, CoverageSeparatesCoveredPassingAndUncoveredIds) {
  const RequirementCoverage c = ComputeRequirementCoverage(
      {{"ARG-001"}, {"ARG-002"}, {"HOST-012"}, {"SEL-001"}, {"ZONE-001"}}, Sample());
  EXPECT_EQ(c.implemented, 5);
  EXPECT_EQ(c.Covered(), 4);
  EXPECT_THAT(c.required.covered, ElementsAre("ARG-001", "ARG-002", "HOST-012", "SEL-001"));
  // Every covered id has a failed, skipped or known check.
  EXPECT_THAT(c.required.passing, ElementsAre());
  EXPECT_THAT(c.recommended.covered, ElementsAre());
  EXPECT_THAT(c.not_covered, ElementsAre("ZONE-001"));
  EXPECT_EQ(CoverageLine(c),
            "requirements: 4 of 5 implemented ids covered by this run; REQUIRED 4, 0 passing; "
            "RECOMMENDED 0, 0 met; not covered: ZONE-001");
  EXPECT_EQ(CoverageLine(c, false),
            "requirements: 4 of 5 implemented ids covered by this run; REQUIRED 4, 0 passing; "
            "RECOMMENDED 0, 0 met");
}

// A RECOMMENDED check not met (the reference's wording, a SHOULD) leaves every REQUIRED id
// passing, and the line says so instead of counting it among the ids that fail.
TEST(GateReportTest, CoverageCountsRecommendedIdsNotMetApartFromRequiredOnes) {
  const std::vector<GateRecord> records = {
      {.suite = "kind", .id = "a", .requirements = {"ARG-001"}},
      {.suite = "kind", .id = "b", .requirements = {"ARG-002", "BOUND-030"}},
      {.suite = "kind", .id = "b/wording", .requirements = {"PROFILE-003"},
       .verdict = Verdict::kFailed, .level = Level::kRecommended},
      {.suite = "kind", .id = "c", .requirements = {"BOUND-030"}, .level = Level::kRecommended}};
  const RequirementCoverage c = ComputeRequirementCoverage(
      {{"ARG-001"},
       {"ARG-002"},
       {"BOUND-030", Level::kRecommended},
       {"PROFILE-003", Level::kRecommended},
       {"PROFILE-008", Level::kRecommended}},
      records);
  EXPECT_THAT(c.required.passing, ElementsAre("ARG-001", "ARG-002"));
  EXPECT_THAT(c.recommended.covered, ElementsAre("BOUND-030", "PROFILE-003"));
  EXPECT_THAT(c.recommended.passing, ElementsAre("BOUND-030"));
  EXPECT_EQ(CoverageLine(c),
            "requirements: 4 of 5 implemented ids covered by this run; REQUIRED 2, all passing; "
            "RECOMMENDED 2, 1 met; not covered: PROFILE-008");
  const RequirementCoverage met =
      ComputeRequirementCoverage({{"ARG-001"}, {"BOUND-030", Level::kRecommended}}, records);
  EXPECT_EQ(CoverageLine(met),
            "requirements: 2 of 2 implemented ids covered by this run; REQUIRED 1, all passing; "
            "RECOMMENDED 1, all met");
}

TEST(GateReportTest, AFailureLineNamesTheCaseItsIdsExpectedAndActual) {
  EXPECT_EQ(FailureLine(Sample()[1]),
            "FAIL kind/b [ARG-001 ARG-002]: outcome differs: expected refused/missing_filter; got "
            "completed");
  EXPECT_EQ(FailureLine(Sample()[2]), "SKIP backend/exec.argv [HOST-012]: bwrap missing");
  GateRecord should = Sample()[1];
  should.level = Level::kRecommended;
  EXPECT_THAT(FailureLine(should), HasSubstr("kind/b (RECOMMENDED)"));
  GateRecord unobserved = Sample()[1];
  unobserved.actual.clear();  // nothing observed to print: no placeholder either
  EXPECT_EQ(FailureLine(unobserved),
            "FAIL kind/b [ARG-001 ARG-002]: outcome differs: expected refused/missing_filter");
  GateRecord probe = Sample()[1];
  probe.detail.clear();  // a backend probe: what it expects, and what it saw instead
  EXPECT_EQ(FailureLine(probe),
            "FAIL kind/b [ARG-001 ARG-002]: expected refused/missing_filter; got completed");
}

TEST(GateReportTest, InputsComeUnderTheFailureLineCutToALimit) {
  GateRecord r = Sample()[1];
  EXPECT_EQ(InputsLines(r), "");
  r.inputs = R"({"calls":[{"arguments":{"sku":"x"}}]})";
  EXPECT_EQ(InputsLines(r), "      inputs: {\"calls\":[{\"arguments\":{\"sku\":\"x\"}}]}\n");
  EXPECT_EQ(InputsLines(r, 9), "      inputs: {\"calls\":... (whole in --json)\n");
}

TEST(GateReportTest, SkipsAndRequiredFailuresFailTheGateKnownAndRecommendedDoNot) {
  std::vector<GateRecord> records = Sample();
  EXPECT_EQ(CountGateFailures(records), 2);  // b (failed) and exec.argv (skipped), not c/wording
  records[1].level = Level::kRecommended;
  EXPECT_EQ(CountGateFailures(records), 1);
  records[2].verdict = Verdict::kPassed;
  EXPECT_EQ(CountGateFailures(records), 0);
}

}  // namespace
}  // namespace conformance
}  // namespace azure_pricing
