// The fake azmcp against the real azmcp 3.0.0-beta.46, both through the same GET-only egress
// proxy to the same fake price API, for the scenarios in scenarios.json: identical exit codes,
// stdout apart from `duration`, stderr and upstream request sequences. The real run must also
// equal its recording in fixtures/azmcp-3.0.0-beta.46-differential, so a hand-edited or stale
// recording fails here; the real outputs are written to the test's undeclared outputs, from
// which tools/fixtures/record_differential.sh refreshes the recordings. The real binary comes
// from AZURE_PRICING_AZMCP (tools/bazel installs it); without it every scenario fails and says
// how to get it, never skips.
//
// Two tests link this file. //fakes/azmcp:differential_test (tier: exhaustive) runs every
// scenario: the CLI is pinned by sha256, so its 176 runs re-prove a fact that only a pin change
// can change. //fakes/azmcp:differential_sample_test (the fast tier) runs one scenario per
// category, by the rule in OnePerCategory below, so that every kind of behaviour still meets
// the real CLI on each change. DIFFERENTIAL_SCENARIOS (set by the BUILD rule) says which.
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "fakes/azmcp/differential_compare.h"
#include "fakes/azmcp/differential_rig.h"
#include "azmcp/cli_version.h"
#include "gtest/gtest.h"

namespace azure_pricing::fakes::azmcp {
namespace {

const ScenarioFile& File() { return TestScenarios().file; }

// A scenario's category: what it changes about the run. An address-space limit, a changed
// environment, or the kinds of its upstream faults (a status, a status with Retry-After, a body,
// raw bytes, a reset, a truncation, latency, a NextPageLink, a page size, endless pages); else
// its arguments alone, by the name's prefix before ": " ("parse", "validation"), or "query".
std::string CategoryOf(const Scenario& s) {
  if (s.address_space_mib > 0) return "address space";
  if (!s.env.empty()) return "environment";
  if (!s.fault_kinds.empty()) {
    std::string kinds = "faults:";
    for (const std::string& kind : s.fault_kinds) kinds += " " + kind;
    return kinds;
  }
  const size_t colon = s.name.find(": ");
  return colon == std::string::npos ? "query" : s.name.substr(0, colon);
}

// The fast tier's sample: the first scenario of each category, in the file's order.
std::vector<Scenario> OnePerCategory(const std::vector<Scenario>& all) {
  std::set<std::string> seen;
  std::vector<Scenario> sample;
  for (const Scenario& s : all) {
    if (seen.insert(CategoryOf(s)).second) sample.push_back(s);
  }
  return sample;
}

// At most this many starts of the real CLI in the fast tier.
constexpr size_t kMostSampled = 20;

bool Sampled() {
  const char* mode = std::getenv("DIFFERENTIAL_SCENARIOS");
  return mode != nullptr && std::string(mode) == "one-per-category";
}

std::vector<Scenario> ScenariosToRun() {
  return Sampled() ? OnePerCategory(File().scenarios) : File().scenarios;
}

TEST(DifferentialScenarios, LoadAndNumberAtLeastForty) {
  EXPECT_EQ(TestScenarios().error, "");
  EXPECT_GE(File().scenarios.size(), 40u);
}

TEST(DifferentialScenarios, ModeIsOneTheBuildRulesSet) {
  const char* mode = std::getenv("DIFFERENTIAL_SCENARIOS");
  ASSERT_NE(mode, nullptr) << "DIFFERENTIAL_SCENARIOS is unset; the BUILD rule sets it";
  EXPECT_TRUE(std::string(mode) == "all" || std::string(mode) == "one-per-category") << mode;
}

// The sample covers every category once, within the fast tier's budget of real-CLI starts.
TEST(DifferentialScenarios, TheSampleHasEveryCategoryOnceAndAtMostTwentyStarts) {
  const std::vector<Scenario> sample = OnePerCategory(File().scenarios);
  std::map<std::string, int> per_category;
  for (const Scenario& s : File().scenarios) per_category[CategoryOf(s)] += 0;
  for (const Scenario& s : sample) per_category[CategoryOf(s)] += 1;
  for (const auto& [category, count] : per_category) EXPECT_EQ(count, 1) << category;
  EXPECT_LE(sample.size(), kMostSampled);
  // Sampling must leave something out, or the exhaustive tier buys nothing.
  EXPECT_LT(sample.size(), File().scenarios.size());
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
         "(tools/build/azmcp.bzl: @azure/mcp-linux-x64@" AZMCP_CLI_VERSION ", checked by sha256).";
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
      ReadRecording(RunfilesPath("fixtures/azmcp-" AZMCP_CLI_VERSION "-differential"), s, error);
  ASSERT_TRUE(recorded.has_value())
      << error << "; run tools/fixtures/record_differential.sh to record it";
  EXPECT_EQ(DescribeDifference(*recorded, want, "recording", "real"), "")
      << "the recording no longer matches the real CLI; re-record with "
         "tools/fixtures/record_differential.sh";
}

std::string TestName(const ::testing::TestParamInfo<Scenario>& info) {
  return TestNameOf(info.param);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, DifferentialTest, ::testing::ValuesIn(ScenariosToRun()),
                         TestName);

}  // namespace
}  // namespace azure_pricing::fakes::azmcp
