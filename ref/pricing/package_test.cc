#include "ref/pricing/package.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "conformance/citations/cites.h"
#include "ref/pricing/lookup.h"
#include "ref/pricing/reasons.h"

namespace azure_pricing {
CITES("INTRO-001", "HOST-004");
namespace {

struct RecordingLogger : Logger {
  std::vector<std::string> warnings;
  void Warning(std::string_view category, std::string_view message) override {
    warnings.push_back(std::string(category) + ": " + std::string(message));
  }
};

struct NeverRuns : CliRunner {
  StatusOr<CliResult> Run(const std::vector<std::string>&, const std::vector<std::string>&,
                          const HostBounds&) override {
    ADD_FAILURE() << "a refused lookup ran the CLI";
    return CliResult{};
  }
};

TEST(PackageTest, PlanLookupWarnsOnceOnFirstUse) {
  ResetExperimentalWarning();
  RecordingLogger logger;
  (void)PlanLookup(R"({"sku":"A"})", HostBounds{}, &logger);
  (void)PlanLookup(R"({"sku":"B"})", HostBounds{}, &logger);
  ASSERT_EQ(logger.warnings.size(), 1u);
  EXPECT_EQ(logger.warnings[0],
            std::string(kExperimentalWarningCategory) + ": " + kExperimentalWarning);
}

TEST(PackageTest, RunLookupWarnsOnFirstUseEvenWhenTheCallIsRefused) {
  ResetExperimentalWarning();
  RecordingLogger logger;
  NeverRuns runner;
  const LookupOutcome outcome = RunLookup("{}", HostBounds{}, runner, &logger);
  EXPECT_EQ(outcome.outcome(), Outcome::kRefused);
  EXPECT_EQ(logger.warnings.size(), 1u);
  (void)RunLookup("{}", HostBounds{}, runner, &logger);
  EXPECT_EQ(logger.warnings.size(), 1u);
}

// PlanLookup and RunLookup are entry points of their own (tools/azure_pricing --print-argv calls
// PlanLookup with bounds from its flags), so they check the bounds on every call. Through
// make_azure_pricing_tools this check never fires: the host refuses bad bounds at attach and a
// tool's bounds never change, which is why no case of the gate can reach it.
TEST(PackageTest, TheDirectEntryPointsRefuseBadBoundsBeforeRunningAnything) {
  HostBounds bad;
  bad.max_rows = 0;
  const StatusOr<LookupPlan> plan = PlanLookup(R"({"sku":"A"})", bad);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().reason(), reasons::kInvalidHostBounds);
  NeverRuns runner;
  const LookupOutcome outcome = RunLookup(R"({"sku":"A"})", bad, runner);
  EXPECT_EQ(outcome.outcome(), Outcome::kRefused);
  EXPECT_EQ(outcome.reason(), reasons::kInvalidHostBounds);
}

TEST(PackageTest, VersionMetadataSaysUnreleasedAndNamesBothClis) {
  EXPECT_EQ(std::string(kPackageVersion), "0.0.0.dev0");
  EXPECT_EQ(std::string(kPackageStability), "experimental");
  const std::string line = kCliProvenanceLine;
  EXPECT_NE(line.find(kModelledOnCli), std::string::npos);
  EXPECT_NE(line.find("4.0.0-beta.4"), std::string::npos);
  EXPECT_NE(std::string(kImageCliContract).find("4.0.0-beta.4"), std::string::npos);
}

}  // namespace
}  // namespace azure_pricing
