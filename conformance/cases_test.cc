// Every data case must pass against the reference implementation, and the runner must be able
// to fail: a wrong expectation, or a case that does not follow case.schema.json.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "conformance/case_runner.h"
#include "ref/base/files.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance {
namespace {

using ::testing::HasSubstr;

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

INSTANTIATE_TEST_SUITE_P(Files, CaseFileTest, testing::ValuesIn(CaseFiles()));

TEST(CaseFilesTest, AreDiscoveredWithoutTheSchema) {
  const std::vector<std::string> files = CaseFiles();
  EXPECT_GE(files.size(), 4u);
  EXPECT_THAT(files, testing::Contains("conformance/cases/host.json"));
  EXPECT_THAT(files, testing::Not(testing::Contains(kCaseSchema)));
}

std::vector<CaseResult> RunText(const std::string& name, const std::string& body) {
  const std::string path = testing::TempDir() + "/" + name;
  EXPECT_THAT(base::WriteFileAtomically(path, body), IsOk());
  return RunCaseFile(path);
}

TEST(CaseRunnerTest, AWrongExpectationFails) {
  const std::vector<CaseResult> results = RunText("wrong.json", R"({"description":"x","cases":[
    {"id":"wrong-reason","requirements":["ARG-004"],"arguments":{},"expect":{"outcome":"refused","reason":"empty_value"}},
    {"id":"wrong-argv","requirements":["ARG-007"],"arguments":{"filter":"a"},"expect":{"outcome":"planned","argv":["azmcp"]}},
    {"id":"echo","requirements":["ARG-006"],"arguments":{"price_type":"Consumption-ish"},"expect":{"outcome":"refused","reason":"invalid_price_type"}}]})");
  ASSERT_EQ(results.size(), 3u);
  EXPECT_FALSE(results[0].passed);
  EXPECT_THAT(results[0].detail, HasSubstr("reason: missing_filter, want empty_value"));
  EXPECT_FALSE(results[1].passed);
  EXPECT_THAT(results[1].detail, HasSubstr("argv: "));
  EXPECT_TRUE(results[2].passed) << results[2].detail;
}

TEST(CaseRunnerTest, AnUnknownKeyAnywhereFailsNamingFileCaseAndKey) {
  const std::string good_case =
      R"({"id":"ok","requirements":["ARG-004"],"arguments":{},"expect":{"outcome":"refused"}})";
  const struct {
    const char* where;
    std::string cases;
    std::string want;
  } table[] = {
      {"case", R"({"id":"c","requirements":["ARG-004"],"argumnets":{},"expect":{"outcome":"refused"}})",
       R"(case c: unknown key "argumnets" at /cases/1)"},
      {"expect", R"({"id":"c","requirements":["ARG-004"],"arguments":{},"expect":{"outcome":"refused","reasn":"x"}})",
       R"(case c: unknown key "reasn" at /cases/1/expect)"},
      {"cli", R"({"id":"c","requirements":["ARG-004"],"arguments":{},"cli":{"stdout":"","exitcode":1},"expect":{"outcome":"failed"}})",
       R"(case c: unknown key "exitcode" at /cases/1/cli)"},
      {"router", R"({"id":"c","requirements":["ARG-004"],"arguments":{},"host":{"router":{"enabeld":false}},"cli":{},"expect":{"outcome":"refused"}})",
       R"(case c: unknown key "enabeld" at /cases/1/host/router)"},
      {"result_label", R"({"id":"c","requirements":["ARG-004"],"arguments":{},"cli":{},"expect":{"outcome":"completed","result_label":{"integrity":"trusted","secrecy":"public"}}})",
       R"(case c: unknown key "secrecy" at /cases/1/expect/result_label)"},
  };
  for (const auto& row : table) {
    const std::vector<CaseResult> results =
        RunText("bad.json", R"({"description":"x","cases":[)" + good_case + "," + row.cases + "]}");
    ASSERT_EQ(results.size(), 2u) << row.where;
    EXPECT_TRUE(results[0].passed) << row.where << ": " << results[0].detail;
    EXPECT_FALSE(results[1].passed) << row.where;
    EXPECT_THAT(results[1].detail, HasSubstr("bad.json: " + row.want)) << row.where;
  }
}

TEST(CaseRunnerTest, AnUnknownTopLevelKeyFailsTheFile) {
  const std::vector<CaseResult> results = RunText("top.json", R"({"description":"x","extra":1,
    "cases":[{"id":"ok","requirements":["ARG-004"],"arguments":{},"expect":{"outcome":"refused"}}]})");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].id, "(file)");
  EXPECT_FALSE(results[0].passed);
  EXPECT_THAT(results[0].detail, HasSubstr(R"(top.json: case (file): unknown key "extra" at /)"));
  EXPECT_TRUE(results[1].passed) << results[1].detail;
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
