#include "conformance/html_report/marks.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azure_pricing::conformance::html_report {
namespace {

using ::testing::ElementsAre;

GateRecord Check(std::vector<std::string> ids, Verdict verdict, Level level = Level::kRequired) {
  return {.suite = "kind", .id = "c", .requirements = std::move(ids), .verdict = verdict, .level = level};
}

TEST(MarksTest, EveryCheckPassingMarksPassedAndNotApplicableCountsAsNoFailure) {
  const RequirementMarks m = MarkRequirements(
      {Check({"A-001"}, Verdict::kPassed), Check({"A-001"}, Verdict::kNotApplicable)});
  EXPECT_EQ(m.Of("A-001"), Mark::kPassed);
}

TEST(MarksTest, AnIdNoCheckCitesIsNotCovered) {
  EXPECT_EQ(MarkRequirements({Check({"A-001"}, Verdict::kPassed)}).Of("B-001"), Mark::kNotCovered);
}

TEST(MarksTest, ARequiredFailureOrASkipMarksFailed) {
  EXPECT_EQ(MarkRequirements({Check({"A-001"}, Verdict::kPassed), Check({"A-001"}, Verdict::kFailed)})
                .Of("A-001"),
            Mark::kFailed);
  EXPECT_EQ(MarkRequirements({Check({"A-001"}, Verdict::kSkipped)}).Of("A-001"), Mark::kFailed);
}

TEST(MarksTest, AKnownFailureMarksKnownUnlessARequiredCheckFailed) {
  EXPECT_EQ(MarkRequirements({Check({"A-001"}, Verdict::kKnown), Check({"A-001"}, Verdict::kPassed)})
                .Of("A-001"),
            Mark::kKnown);
  EXPECT_EQ(MarkRequirements({Check({"A-001"}, Verdict::kKnown), Check({"A-001"}, Verdict::kFailed)})
                .Of("A-001"),
            Mark::kFailed);
}

TEST(MarksTest, ARecommendedFailureMarksNotMetBelowAKnownFailure) {
  EXPECT_EQ(MarkRequirements({Check({"A-001"}, Verdict::kFailed, Level::kRecommended)}).Of("A-001"),
            Mark::kNotMet);
  EXPECT_EQ(MarkRequirements({Check({"A-001"}, Verdict::kFailed, Level::kRecommended),
                              Check({"A-001"}, Verdict::kKnown)})
                .Of("A-001"),
            Mark::kKnown);
}

TEST(MarksTest, APassageTakesTheWorstMarkOfItsIds) {
  const RequirementMarks m = MarkRequirements({Check({"A-001"}, Verdict::kPassed),
                                               Check({"B-001"}, Verdict::kFailed, Level::kRecommended)});
  EXPECT_EQ(m.Worst({"A-001"}), Mark::kPassed);
  EXPECT_EQ(m.Worst({"A-001", "C-001"}), Mark::kNotCovered);
  EXPECT_EQ(m.Worst({"A-001", "C-001", "B-001"}), Mark::kNotMet);
  EXPECT_EQ(m.Worst({}), Mark::kNotCovered);
}

TEST(MarksTest, ChecksAreListedPerIdOnceInTheRunsOrder) {
  const RequirementMarks m = MarkRequirements({Check({"A-001", "A-001"}, Verdict::kPassed),
                                               Check({"B-001"}, Verdict::kPassed),
                                               Check({"A-001"}, Verdict::kFailed)});
  EXPECT_THAT(m.checks_by_id.at("A-001"), ElementsAre(0u, 2u));
  EXPECT_THAT(m.checks_by_id.at("B-001"), ElementsAre(1u));
}

TEST(MarksTest, NamesAreThePagesDataStatusValues) {
  EXPECT_EQ(MarkName(Mark::kNotMet), "not-met");
  EXPECT_EQ(MarkName(Mark::kNotCovered), "not-covered");
  EXPECT_EQ(MarkName(Mark::kKnown), "known");
}

}  // namespace
}  // namespace azure_pricing::conformance::html_report
