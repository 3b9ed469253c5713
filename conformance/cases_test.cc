// Every data case must pass against the reference implementation.
#include <gtest/gtest.h>

#include "conformance/case_runner.h"

namespace azure_pricing::conformance {
namespace {

class CaseFileTest : public testing::TestWithParam<std::string> {};

TEST_P(CaseFileTest, EveryCasePasses) {
  const std::vector<CaseResult> results = RunCaseFile(GetParam());
  ASSERT_FALSE(results.empty());
  int passed = 0;
  for (const CaseResult& r : results) {
    EXPECT_TRUE(r.passed) << r.id << ": " << r.detail;
    passed += r.passed;
  }
  EXPECT_GE(passed, 5) << "a case file shrank unexpectedly";
}

INSTANTIATE_TEST_SUITE_P(Files, CaseFileTest, testing::ValuesIn(DefaultCaseFiles()));

TEST(CaseRunnerTest, AWrongExpectationFails) {
  // The runner must be able to fail: a case whose expectation is wrong is reported.
  const std::string path = testing::TempDir() + "/wrong.json";
  FILE* f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs(R"({"description":"x","cases":[
    {"id":"wrong-reason","requirements":["ARG-004"],"arguments":{},"expect":{"outcome":"refused","reason":"empty_value"}},
    {"id":"wrong-argv","requirements":["ARG-007"],"arguments":{"filter":"a"},"expect":{"outcome":"planned","argv":["azmcp"]}},
    {"id":"echo","requirements":["ARG-006"],"arguments":{"price_type":"Consumption-ish"},"expect":{"outcome":"refused","reason":"invalid_price_type"}}]})",
             f);
  std::fclose(f);
  const std::vector<CaseResult> results = RunCaseFile(path);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_FALSE(results[0].passed);
  EXPECT_NE(results[0].detail.find("reason missing_filter"), std::string::npos)
      << results[0].detail;
  EXPECT_FALSE(results[1].passed);
  EXPECT_TRUE(results[2].passed) << results[2].detail;
}

TEST(CaseRunnerTest, EchoCheckCatchesAnEchoedInput) {
  EXPECT_EQ(EchoProblem("Argument 'sku' must be a string.", {"Standard_D4s_v5", "sku"}), "");
  EXPECT_NE(EchoProblem("bad value Standard_D4s_v5 here", {"Standard_D4s_v5"}), "");
  EXPECT_NE(EchoProblem("Retry failed after 4 tries.", {"x", "Retry failed after 4 tries."}), "");
  // Short inputs are too common to count as an echo.
  EXPECT_EQ(EchoProblem("Argument 'sku' is empty.", {"sku", "empty"}), "");
}

}  // namespace
}  // namespace azure_pricing::conformance
