// The fake azmcp against the recorded outputs of the real azmcp 3.0.0-beta.46
// (fixtures/azmcp-3.0.0-beta.46-differential), through the same rig as the live differential
// test: this is the check that still runs where the real binary cannot. The recordings must
// have been made from the current scenarios.json (its SHA-256 is in their manifest).
#include <nlohmann/json.hpp>
#include <string>

#include "fakes/azmcp/differential_compare.h"
#include "fakes/azmcp/differential_rig.h"
#include "azmcp/cli_version.h"
#include "gtest/gtest.h"
#include "ref/base/files.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::fakes::azmcp {
namespace {

// The current version's recordings (tools/image/azmcp-version).
constexpr char kRecordings[] = "fixtures/azmcp-" AZMCP_CLI_VERSION "-differential";
const ScenarioFile& File() { return TestScenarios().file; }

TEST(RecordedScenarios, RecordingsAreOfTheseScenariosAndThisCli) {
  ASSERT_EQ(TestScenarios().error, "");
  const StatusOr<std::string> text =
      base::ReadFile(RunfilesPath(std::string(kRecordings) + "/manifest.json"));
  ASSERT_THAT(text, IsOk()) << "no manifest.json; run tools/fixtures/record_differential.sh";
  const nlohmann::json manifest = nlohmann::json::parse(*text, nullptr, false);
  ASSERT_TRUE(manifest.is_object());
  EXPECT_EQ(manifest.value("scenarios_sha256", ""), File().sha256)
      << "scenarios.json changed since the recording; run tools/fixtures/record_differential.sh";
  EXPECT_EQ(manifest.value("azmcp_package", ""), "@azure/mcp-linux-x64@" AZMCP_CLI_VERSION);
  EXPECT_EQ(manifest.value("scenarios", 0u), File().scenarios.size());
}

class RecordedDifferentialTest : public ::testing::TestWithParam<Scenario> {
 protected:
  static void SetUpTestSuite() { rig_ = new DifferentialRig(File()); }
  static void TearDownTestSuite() {
    delete rig_;
    rig_ = nullptr;
  }
  static DifferentialRig* rig_;
};

DifferentialRig* RecordedDifferentialTest::rig_ = nullptr;

TEST_P(RecordedDifferentialTest, FakeMatchesTheRecording) {
  ASSERT_TRUE(rig_->ok()) << "the fake API or the egress proxy did not start";
  const Scenario& s = GetParam();
  if (s.address_space_mib > 0 && !AddressSpaceLimitsApply()) {
    GTEST_SKIP() << "an AddressSanitizer build cannot run under an address-space limit";
  }
  std::string error;
  const std::optional<Outcome> recorded = ReadRecording(RunfilesPath(kRecordings), s, error);
  ASSERT_TRUE(recorded.has_value()) << error << "; run tools/fixtures/record_differential.sh";
  const Outcome got = rig_->Run(RunfilesPath("fakes/azmcp/azmcp"), s);
  ASSERT_EQ(got.rig_error, "");
  EXPECT_FALSE(got.timed_out) << "the fake azmcp did not finish within 60 s";
  EXPECT_EQ(DescribeDifference(*recorded, got, "recording", "fake"), "");
}

std::string TestName(const ::testing::TestParamInfo<Scenario>& info) {
  return TestNameOf(info.param);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, RecordedDifferentialTest, ::testing::ValuesIn(File().scenarios),
                         TestName);

// The later CLI's refusal of a NextPageLink to another host, behind the fake's own switch (the
// real 3.0.0-beta.46 follows it, as the "foreign NextPageLink followed" scenario records).
TEST(RefuseForeignNextPage, StopsBeforeTheForeignRequest) {
  DifferentialRig rig(File());
  ASSERT_TRUE(rig.ok());
  Scenario s;
  s.name = "refused foreign link";
  s.args = {"--sku", "Standard_D8s_v5", "--refuse-foreign-next-page"};
  s.faults_json = R"([{"next_page_link":"https://evil.example/api/retail/prices?$skip=1000"}])";
  const Outcome o = rig.Run(RunfilesPath("fakes/azmcp/azmcp"), s);
  ASSERT_EQ(o.rig_error, "");
  EXPECT_EQ(o.exit_code, 1);
  ASSERT_EQ(o.requests.size(), 1u);
  // The rig writes "duration": N, so the envelope is checked as text.
  EXPECT_NE(o.out.find("\"status\": 500,"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("\"type\": \"SecurityException\""), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("\"message\": \"The URI 'https://evil.example/api/retail/prices?$skip=1000' "
                       "is not a valid pricing domain.\""),
            std::string::npos)
      << o.out;
  // A link to the pricing host itself is still followed.
  s.faults_json =
      R"([{"next_page_link":"https://prices.azure.com:443/api/retail/prices?currencyCode=USD&$filter=armSkuName%20eq%20%27Standard_NOPE%27"}])";
  const Outcome same = rig.Run(RunfilesPath("fakes/azmcp/azmcp"), s);
  EXPECT_EQ(same.exit_code, 0) << same.out;
  EXPECT_EQ(same.requests.size(), 2u);
}

}  // namespace
}  // namespace azure_pricing::fakes::azmcp
