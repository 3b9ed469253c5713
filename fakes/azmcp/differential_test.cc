// The fake azmcp against the real azmcp 3.0.0-beta.46, both through the same GET-only egress
// proxy to the same fake price API, for every scenario in scenarios.json: identical exit codes,
// stdout apart from `duration`, stderr and upstream request sequences. The real run must also
// equal its recording in fixtures/azmcp-3.0.0-beta.46-differential, so a hand-edited or stale
// recording fails here; the real outputs are written to the test's undeclared outputs, from
// which tools/fixtures/record_differential.sh refreshes the recordings. The real binary comes
// from AZURE_PRICING_AZMCP (tools/bazel installs it); without it every scenario fails and says
// how to get it, never skips.
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "fakes/azmcp/differential_compare.h"
#include "fakes/azmcp/differential_rig.h"
#include "gtest/gtest.h"

namespace azure_pricing::fakes::azmcp {
namespace {

const ScenarioFile& File() { return TestScenarios().file; }

TEST(DifferentialScenarios, LoadAndNumberAtLeastForty) {
  EXPECT_EQ(TestScenarios().error, "");
  EXPECT_GE(File().scenarios.size(), 40u);
}

class DifferentialTest : public ::testing::TestWithParam<Scenario> {
 protected:
  static void SetUpTestSuite() { rig_ = new DifferentialRig(File()); }
  static void TearDownTestSuite() {
    delete rig_;
    rig_ = nullptr;
  }
  static DifferentialRig* rig_;
};

DifferentialRig* DifferentialTest::rig_ = nullptr;

TEST_P(DifferentialTest, FakeMatchesTheRealCli) {
  const char* real = std::getenv("AZURE_PRICING_AZMCP");
  ASSERT_TRUE(real != nullptr && access(real, X_OK) == 0)
      << "AZURE_PRICING_AZMCP does not name the real azmcp; the test's BUILD rule sets it to "
         "@azmcp "
         "(tools/build/azmcp.bzl: @azure/mcp-linux-x64@3.0.0-beta.46, checked by sha256).";
  ASSERT_TRUE(rig_->ok()) << "the fake API or the egress proxy did not start";
  const Scenario& s = GetParam();
  if (s.address_space_mib > 0 && !AddressSpaceLimitsApply()) {
    GTEST_SKIP() << "an AddressSanitizer build cannot run under an address-space limit";
  }
  const Outcome want = rig_->Run(real, s);
  ASSERT_EQ(want.rig_error, "");
  ASSERT_FALSE(want.timed_out) << "the real azmcp did not finish within 60 s";
  if (const char* dir = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR")) {
    std::string error;
    EXPECT_TRUE(WriteRecording(dir, s, want, error)) << error;
  }
  const Outcome got = rig_->Run(RunfilesPath("fakes/azmcp/azmcp"), s);
  ASSERT_EQ(got.rig_error, "");
  EXPECT_FALSE(got.timed_out) << "the fake azmcp did not finish within 60 s";
  EXPECT_EQ(DescribeDifference(want, got, "real", "fake"), "");

  std::string error;
  const std::optional<Outcome> recorded =
      ReadRecording(RunfilesPath("fixtures/azmcp-3.0.0-beta.46-differential"), s, error);
  ASSERT_TRUE(recorded.has_value())
      << error << "; run tools/fixtures/record_differential.sh to record it";
  EXPECT_EQ(DescribeDifference(*recorded, want, "recording", "real"), "")
      << "the recording no longer matches the real CLI; re-record with "
         "tools/fixtures/record_differential.sh";
}

std::string TestName(const ::testing::TestParamInfo<Scenario>& info) {
  return TestNameOf(info.param);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, DifferentialTest, ::testing::ValuesIn(File().scenarios),
                         TestName);

}  // namespace
}  // namespace azure_pricing::fakes::azmcp
