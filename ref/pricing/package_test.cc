#include "ref/pricing/package.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "conformance/citations/cites.h"
#include "ref/pricing/lookup.h"

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
