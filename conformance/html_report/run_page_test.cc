#include "conformance/html_report/run_page.h"

#include "conformance/html_report/page_test_support.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/base/test_tmpdir.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::html_report {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::UnorderedElementsAre;

constexpr char kSpec[] =
    "Title\n\nCalls need a filter. Calls run once. Output is JSON.\n\nRegions expand.\n";

Catalog SmallCatalog() {
  return {.requirements = {
              {.id = "ARG-001", .level = "MUST", .text = "a filter", .source = "spec", .quote = "Calls need a filter."},
              {.id = "ARG-002", .level = "MUST", .text = "once", .source = "spec", .quote = "Calls run once."},
              {.id = "ARG-003", .level = "SHOULD", .text = "JSON", .source = "spec", .quote = "Output is JSON."},
              {.id = "REGION-001", .level = "MUST", .text = "expand", .source = "spec", .quote = "Regions expand."},
              {.id = "PROFILE-001", .level = "MUST", .text = "The reason vocabulary.", .source = "profile"},
          }};
}

JsonReport Report() {
  JsonReport report;
  report.header = {.implementation = "port 1.0",
                   .profile_version = "2026-12-05.1",
                   .gate_version = "0.0.0.dev0",
                   .date = "2026-12-05T10:00:00Z",
                   .command_line = {"--testee", "python3 port.py"},
                   .backend = "bubblewrap (the reference)",
                   .verdict_lines = {"backend: NOT CONFORMANT (2 required probes, 1 failed)",
                                     "gate: FAIL", "1 passed, 2 failed"}};
  report.records = {
      {.suite = "kind", .id = "filter-ok", .requirements = {"ARG-001"}},
      {.suite = "kind", .id = "runs-once", .requirements = {"ARG-002", "PROFILE-001"},
       .verdict = Verdict::kFailed, .expected = "completed", .actual = "failed/cli_failed",
       .detail = "<script>alert(1)</script>", .inputs = R"({"arguments":{"sku":"x"}})",
       .expected_value = R"({"outcome":"completed","rows":[1]})",
       .actual_value = R"({"outcome":"failed","rows":[1]})"},
      {.suite = "kind", .id = "json-wording", .requirements = {"ARG-003"},
       .verdict = Verdict::kFailed, .level = Level::kRecommended},
      {.suite = "backend", .id = "exec.argv", .requirements = {"ARG-002"},
       .expected = "argv arrives byte for byte", .actual = "6 arguments arrived"},
      {.suite = "backend", .id = "egress.get_only", .requirements = {"ARG-002"},
       .verdict = Verdict::kKnown, .expected = "POST refused", .actual = "POST forwarded"},
      {.suite = "gate", .id = "known-failures", .verdict = Verdict::kFailed, .detail = "one"},
      {.suite = "gate", .id = "known-failures", .verdict = Verdict::kFailed, .detail = "two"},
  };
  return report;
}

TEST(RunPageTest, EveryRecordIsOneCheckRowWithAUniqueAnchorAndItsResult) {
  const Catalog catalog = SmallCatalog();
  const std::string page = RunPage(Report(), &catalog, kSpec);
  EXPECT_EQ(Count(page, "<tr class=\"check\""), 7);
  EXPECT_THAT(Captures(page, R"re(<tr class="check" id="([^"]*)")re"),
              UnorderedElementsAre("kind/filter-ok", "kind/runs-once", "kind/json-wording",
                                   "backend/exec.argv", "backend/egress.get_only",
                                   "gate/known-failures", "gate/known-failures~2"));
  EXPECT_THAT(Captures(page, R"re(<tr class="check" [^>]*data-result="([a-z_]*)")re"),
              // the backend section's probes come first, then the other suites' checks
              ElementsAre("passed", "known", "passed", "failed", "failed", "failed", "failed"));
}

TEST(RunPageTest, EachQuotedSentenceIsMarkedByTheChecksCitingIt) {
  const Catalog catalog = SmallCatalog();
  const std::string page = RunPage(Report(), &catalog, kSpec);
  EXPECT_THAT(page, HasSubstr("<span class=\"req\" data-status=\"passed\" data-ids=\"ARG-001\""));
  EXPECT_THAT(page, HasSubstr("<span class=\"req\" data-status=\"failed\" data-ids=\"ARG-002\""));
  EXPECT_THAT(page, HasSubstr("<span class=\"req\" data-status=\"not-met\" data-ids=\"ARG-003\""));
  EXPECT_THAT(page, HasSubstr("<span class=\"req\" data-status=\"not-covered\" data-ids=\"REGION-001\""));
  EXPECT_THAT(page, HasSubstr("<li class=\"req profile\" data-status=\"failed\" data-ids=\"PROFILE-001\""));
  EXPECT_EQ(Count(page, "<span class=\"req\""), 4);
}

TEST(RunPageTest, AFailureShowsItsInputsValuesAndWhereTheyDiffer) {
  const Catalog catalog = SmallCatalog();
  const std::string page = RunPage(Report(), &catalog, kSpec);
  EXPECT_EQ(Count(page, "<article class=\"failure\""), 5);  // failed, not met, known, gate x2
  EXPECT_THAT(page, HasSubstr("$.outcome: &quot;failed&quot;, want &quot;completed&quot;"));
  EXPECT_THAT(page, Not(HasSubstr("$.rows")));
  EXPECT_THAT(page, HasSubstr("&quot;sku&quot;: &quot;x&quot;"));
  EXPECT_THAT(page, HasSubstr("&lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_THAT(page, Not(HasSubstr("<script>alert")));
}

TEST(RunPageTest, TheHeaderShowsTheVerdictLinesAndTheRun) {
  const Catalog catalog = SmallCatalog();
  const std::string page = RunPage(Report(), &catalog, kSpec);
  EXPECT_THAT(page, HasSubstr("backend: NOT CONFORMANT (2 required probes, 1 failed)\ngate: FAIL\n"));
  EXPECT_THAT(page, HasSubstr("gate --testee &#39;python3 port.py&#39;"));
  EXPECT_THAT(page, HasSubstr("2026-12-05T10:00:00Z"));
  EXPECT_THAT(page, HasSubstr("<td>POST refused</td>"));  // the probe table: what it asserts
}

TEST(RunPageTest, AReportOfAnOlderGateGetsItsVerdictWorkedOutFromTheRecords) {
  JsonReport report = Report();
  report.header = {.implementation = "old"};
  const std::string page = RunPage(report, nullptr, "");
  EXPECT_THAT(page, HasSubstr("gate: FAIL\n2 passed, 3 failed\n"));
  EXPECT_THAT(page, HasSubstr("cannot be annotated"));
  EXPECT_THAT(page, HasSubstr("<dt>date</dt><dd><span class=\"muted\">not recorded</span>"));
}

TEST(RunPageTest, ARunWithoutTheBackendSuiteSaysSo) {
  JsonReport report = Report();
  report.header.backend.clear();
  std::erase_if(report.records, [](const GateRecord& r) { return r.suite == "backend"; });
  EXPECT_THAT(RunPage(report, nullptr, ""),
              HasSubstr("<dt>backend</dt><dd>none: the backend suite did not run</dd>"));
}

TEST(RunPageTest, EveryInternalLinkResolvesAndNothingIsFetched) {
  const Catalog catalog = SmallCatalog();
  const std::string page = RunPage(Report(), &catalog, kSpec);
  EXPECT_THAT(DanglingLinks(page), ElementsAre());
  EXPECT_THAT(page, Not(HasSubstr("src=")));
  EXPECT_THAT(page, Not(HasSubstr("<link")));
  EXPECT_THAT(page, Not(HasSubstr("http")));
}

TEST(RunPageTest, AnUnwritablePathIsAnErrorAndLeavesNothing) {
  const std::string path = base::TestTmpDir() + "/no-such-dir/page.html";
  EXPECT_THAT(WriteRunPage(path, Report(), nullptr), ProgramErrorIs(kPageWriteFailed));
}

}  // namespace
}  // namespace azure_pricing::conformance::html_report
