// The live output marks a check whose expectation rests on no recorded real response, in the
// table, its own UNVERIFIED line and the JSON report; a recorded one carries no mark.
#include "conformance/live/live_run.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "conformance/citations/cites.h"

namespace azure_pricing::conformance::live {
namespace {

CITES("HOST-004", "HOST-005");

LiveReport TwoChecks() {
  LiveReport report{.mode = "dry-run", .upstream = "u", .cli = "c", .cli_version = "v",
                    .started_at = "t"};
  CheckResult recorded{.check = {.id = "cdn", .what = "w", .arguments = "{}"}, .ran = true,
                       .passed = true, .outcome = "completed"};
  CheckResult inferred{.check = {.id = "dns", .what = "w", .arguments = "{}",
                                 .unverified = "no recorded real row"},
                       .ran = true, .passed = true, .outcome = "completed"};
  report.results = {recorded, inferred};
  report.passed = 2;
  return report;
}

TEST(LiveRunTest, TheTableMarksAnUnverifiedExpectationAndSaysWhy) {
  const std::string table = FormatLiveTable(TwoChecks());
  EXPECT_NE(table.find("  ok, expectation unverified until recorded\n"), std::string::npos)
      << table;
  EXPECT_NE(table.find("UNVERIFIED dns: expectation unverified until recorded: no recorded real "
                       "row\n"),
            std::string::npos)
      << table;
  EXPECT_EQ(table.find("UNVERIFIED cdn"), std::string::npos) << table;
  EXPECT_NE(table.find("  ok\n"), std::string::npos) << table;
}

TEST(LiveRunTest, TheJsonReportCarriesTheMarkOrNull) {
  const nlohmann::json report = nlohmann::json::parse(LiveReportJson(TwoChecks()));
  ASSERT_EQ(report["checks"].size(), 2u);
  EXPECT_TRUE(report["checks"][0]["expectation_unverified"].is_null());
  EXPECT_EQ(report["checks"][1]["expectation_unverified"], "no recorded real row");
}

}  // namespace
}  // namespace azure_pricing::conformance::live
