// The gate's properties pass for the reference and fail, with a counterexample, for an executor
// that breaks one rule.
#include "conformance/properties/gate_properties.h"

#include "conformance/citations/cites.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azure_pricing::conformance::properties {
CITES("ARG-001", "ARG-008", "BOUND-015", "BOUND-021", "INTRO-007");
namespace {

using conformance::host::CallReport;
using conformance::host::ScriptedCall;
using ::testing::HasSubstr;

std::function<bool(const std::string&)> Only(const std::string& id) {
  return [id](const std::string& candidate) { return candidate == id; };
}

TEST(GatePropertiesTest, TheReferencePassesEveryProperty) {
  const std::vector<GatePropertyResult> results =
      RunGateProperties(conformance::host::RunScriptedCall, {.seed = 7, .cases = 25}, nullptr);
  ASSERT_EQ(results.size(), GateProperties().size());
  for (const GatePropertyResult& r : results) {
    EXPECT_TRUE(r.passed) << r.info.id << ": " << r.detail;
    EXPECT_EQ(r.cases_passed, r.info.id == "prop-row-counts-and-truncation" ? 6 : 25) << r.info.id;
  }
}

TEST(GatePropertiesTest, AnImplementationThatEchoesTheUnknownNameFails) {
  const GateExecutor echoing = [](const ScriptedCall& call) -> StatusOr<CallReport> {
    StatusOr<CallReport> r = conformance::host::RunScriptedCall(call);
    if (r.ok()) r->trusted_messages.push_back("you sent " + call.arguments);
    return r;
  };
  const std::vector<GatePropertyResult> results = RunGateProperties(
      echoing, {.seed = 7, .cases = 25}, Only("prop-unknown-argument-refused-without-echo"));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].passed);
  EXPECT_THAT(results[0].detail, HasSubstr("Echoes"));
}

TEST(GatePropertiesTest, AnImplementationThatNeverFlagsTheCeilingFails) {
  const GateExecutor unflagged = [](const ScriptedCall& call) -> StatusOr<CallReport> {
    StatusOr<CallReport> r = conformance::host::RunScriptedCall(call);
    if (r.ok() && r->output) {
      const std::string flagged = "\"upstream_limit_reached\":true";
      const size_t at = r->output->find(flagged);
      if (at != std::string::npos) {
        r->output->replace(at, flagged.size(), "\"upstream_limit_reached\":false");
      }
    }
    return r;
  };
  const std::vector<GatePropertyResult> results = RunGateProperties(
      unflagged, {.seed = 7, .cases = 400}, Only("prop-row-counts-and-truncation"));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].passed);
  EXPECT_THAT(results[0].detail, HasSubstr("upstream_limit_reached"));
}

TEST(GatePropertiesTest, AnExecutorThatCannotMakeTheCallFailsEveryPropertyByName) {
  const GateExecutor broken = [](const ScriptedCall&) -> StatusOr<CallReport> {
    return Status(Outcome::kFailed, "testee_exited", "gone");
  };
  for (const GatePropertyResult& r : RunGateProperties(broken, {.seed = 1, .cases = 5}, nullptr)) {
    EXPECT_FALSE(r.passed) << r.info.id;
    EXPECT_THAT(r.detail, HasSubstr("testee_exited")) << r.info.id;
  }
}

TEST(GatePropertiesTest, TheSameSeedGeneratesTheSameCounterexample) {
  const GateExecutor echoing = [](const ScriptedCall& call) -> StatusOr<CallReport> {
    StatusOr<CallReport> r = conformance::host::RunScriptedCall(call);
    if (r.ok()) r->trusted_messages.push_back(call.arguments);
    return r;
  };
  const auto once = RunGateProperties(echoing, {.seed = 11, .cases = 10},
                                      Only("prop-unknown-argument-refused-without-echo"));
  const auto again = RunGateProperties(echoing, {.seed = 11, .cases = 10},
                                       Only("prop-unknown-argument-refused-without-echo"));
  ASSERT_EQ(once.size(), 1u);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(once[0].detail, again[0].detail);
}

}  // namespace
}  // namespace azure_pricing::conformance::properties
