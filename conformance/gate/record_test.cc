#include "conformance/gate/record.h"

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <tuple>

#include "conformance/gate/known_failures.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/base/files.h"
#include "ref/base/test_tmpdir.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

std::string TmpFile(const std::string& name) {
  return base::TestTmpDir() + "/" + name;
}

ReportHeader Header() {
  return {.implementation = "impl 1", .profile_version = "2026-12-05.1"};
}

std::vector<GateRecord> Sample() {
  return {{.suite = "cases", .id = "a", .requirements = {"ARG-001"}, .verdict = Verdict::kPassed},
          {.suite = "cases", .id = "b", .verdict = Verdict::kFailed, .expected = "refused/x",
           .detail = "outcome: completed, want \"refused\" <&>"},
          {.suite = "backend", .id = "exec.argv", .verdict = Verdict::kSkipped}};
}

TEST(GateRecordTest, TheJsonReportHoldsEveryRecordAndTheCounts) {
  ASSERT_THAT(WriteJsonReport(TmpFile("r.json"), Header(), Sample()), IsOk());
  const nlohmann::json doc = nlohmann::json::parse(*base::ReadFile(TmpFile("r.json")));
  EXPECT_EQ(doc["implementation"], "impl 1");
  EXPECT_EQ(doc["profile_version"], "2026-12-05.1");
  ASSERT_EQ(doc["records"].size(), 3u);
  EXPECT_EQ(doc["records"][1]["result"], "failed");
  EXPECT_EQ(doc["records"][1]["expected"], "refused/x");
  EXPECT_EQ(doc["records"][0]["requirements"], nlohmann::json::array({"ARG-001"}));
  EXPECT_EQ(doc["passed"], 1);
  EXPECT_EQ(doc["failed"], 1);
  EXPECT_EQ(doc["skipped"], 1);
  EXPECT_EQ(doc["records"][1]["level"], "REQUIRED");
  EXPECT_EQ(doc["by_level"]["REQUIRED"]["failed"], 1);
  EXPECT_EQ(doc["by_level"]["RECOMMENDED"]["failed"], 0);
}

TEST(GateRecordTest, TheJsonReportCarriesInputsAndWholeValuesAsJson) {
  std::vector<GateRecord> records = Sample();
  records[1].level = Level::kRecommended;
  records[1].inputs = R"({"calls":[{"arguments":{"sku":"x"}}]})";
  records[1].expected_value = R"([{"outcome":"refused"}])";
  records[1].actual_value = "not json";
  ASSERT_THAT(WriteJsonReport(TmpFile("v.json"), Header(), records), IsOk());
  const nlohmann::json doc = nlohmann::json::parse(*base::ReadFile(TmpFile("v.json")));
  const nlohmann::json& r = doc["records"][1];
  EXPECT_EQ(r["level"], "RECOMMENDED");
  EXPECT_EQ(r["inputs"]["calls"][0]["arguments"]["sku"], "x");
  EXPECT_EQ(r["expected_value"][0]["outcome"], "refused");
  EXPECT_EQ(r["actual_value"], "not json");
  EXPECT_FALSE(doc["records"][0].contains("inputs"));
  EXPECT_EQ(doc["by_level"]["RECOMMENDED"]["failed"], 1);
}

TEST(GateRecordTest, ARecommendedFailureIsNoJUnitFailure) {
  std::vector<GateRecord> records = Sample();
  records[1].level = Level::kRecommended;
  ASSERT_THAT(WriteJUnitReport(TmpFile("rec.xml"), Header(), records), IsOk());
  const std::string xml = *base::ReadFile(TmpFile("rec.xml"));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"cases\" tests=\"2\" failures=\"0\" skipped=\"1\">"));
  EXPECT_THAT(xml, HasSubstr("<skipped message=\"failed (RECOMMENDED): outcome"));
  EXPECT_THAT(xml, HasSubstr("<property name=\"level\" value=\"RECOMMENDED\"/>"));
}

TEST(GateRecordTest, TheJUnitReportEscapesAndCountsPerSuite) {
  ASSERT_THAT(WriteJUnitReport(TmpFile("r.xml"), Header(), Sample()), IsOk());
  const std::string xml = *base::ReadFile(TmpFile("r.xml"));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"cases\" tests=\"2\" failures=\"1\" skipped=\"0\">"));
  // Each suite says which implementation was judged against which profile version.
  EXPECT_THAT(xml, HasSubstr("\">\n    <properties><property name=\"implementation\" value=\"impl 1\"/>"
                             "<property name=\"profile_version\" value=\"2026-12-05.1\"/>"
                             "</properties>\n    <testcase classname=\"cases\""));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"backend\" tests=\"1\" failures=\"0\" skipped=\"1\">"));
  EXPECT_THAT(xml, HasSubstr("message=\"outcome: completed, want &quot;refused&quot; &lt;&amp;&gt;\""));
}

// A backend's verdict counts its applicable probes; a skipped one (the suite did not run) fails
// it, and one that does not apply neither passes nor fails.
TEST(GateRecordTest, TheBackendVerdictCountsApplicableProbesInJsonAndJUnit) {
  std::vector<GateRecord> records = {
      {.suite = "kind", .id = "k", .verdict = Verdict::kFailed},
      {.suite = "backend", .id = "exec.argv", .verdict = Verdict::kPassed},
      {.suite = "backend", .id = "egress.closed", .verdict = Verdict::kNotApplicable,
       .detail = "not applicable: no closed egress"}};
  std::optional<BackendVerdict> verdict = JudgeBackend(records);
  ASSERT_TRUE(verdict.has_value());
  EXPECT_TRUE(verdict->conformant);  // the kind failure is the implementation's, not its
  EXPECT_EQ(verdict->required, 1);
  EXPECT_EQ(verdict->not_applicable, 1);
  ASSERT_THAT(WriteJsonReport(TmpFile("b.json"), Header(), records), IsOk());
  const nlohmann::json doc = nlohmann::json::parse(*base::ReadFile(TmpFile("b.json")));
  EXPECT_EQ(doc["backend_verdict"]["verdict"], "CONFORMANT");
  EXPECT_EQ(doc["records"][2]["result"], "not_applicable");
  EXPECT_EQ(doc["not_applicable"], 1);
  records.push_back({.suite = "backend", .id = "exec.env", .verdict = Verdict::kSkipped});
  verdict = JudgeBackend(records);
  EXPECT_FALSE(verdict->conformant);
  EXPECT_EQ(verdict->failed, 1);
  ASSERT_THAT(WriteJUnitReport(TmpFile("b.xml"), Header(), records), IsOk());
  EXPECT_THAT(*base::ReadFile(TmpFile("b.xml")),
              HasSubstr("<property name=\"backend_verdict\" value=\"NOT CONFORMANT\"/>"));
  EXPECT_FALSE(JudgeBackend({records[0]}).has_value());
}

TEST(GateRecordTest, AReportReadsBackAsItWasWritten) {
  std::vector<GateRecord> written = Sample();
  written[0].file = "conformance/cases/tool.json";
  written[0].seconds = 1.5;
  written[1].level = Level::kRecommended;
  written[1].actual = "completed";
  written[1].inputs = R"({"calls":[{"arguments":{"sku":"x"}}]})";
  written[1].expected_value = R"([{"outcome":"refused"}])";
  written[1].actual_value = "not json";
  written[2].verdict = Verdict::kNotApplicable;
  ASSERT_THAT(WriteJsonReport(TmpFile("back.json"),
                              {.implementation = "impl 2", .profile_version = "2026-12-09.2"},
                              written),
              IsOk());
  const StatusOr<JsonReport> read = ReadJsonReport(TmpFile("back.json"));
  ASSERT_THAT(read.status(), IsOk());
  EXPECT_EQ(read->header.implementation, "impl 2");
  EXPECT_EQ(read->header.profile_version, "2026-12-09.2");
  ASSERT_EQ(read->records.size(), written.size());
  for (size_t i = 0; i < written.size(); ++i) {
    const GateRecord& w = written[i];
    const GateRecord& r = read->records[i];
    EXPECT_EQ(std::tie(r.suite, r.id, r.file, r.requirements, r.expected, r.actual, r.detail),
              std::tie(w.suite, w.id, w.file, w.requirements, w.expected, w.actual, w.detail))
        << i;
    EXPECT_EQ(r.verdict, w.verdict) << i;
    EXPECT_EQ(r.level, w.level) << i;
    EXPECT_EQ(r.seconds, w.seconds) << i;
    EXPECT_EQ(std::tie(r.inputs, r.expected_value, r.actual_value),
              std::tie(w.inputs, w.expected_value, w.actual_value))
        << i;
  }
}

// The report page (conformance/html_report) shows these beside the records.
TEST(GateRecordTest, TheRunsFactsReadBackAsTheyWereWritten) {
  const ReportHeader written = {
      .implementation = "impl",
      .profile_version = "2026-12-05.1",
      .gate_version = "0.0.0.dev0",
      .date = "2026-12-05T16:30:00Z",
      .command_line = {"--suite", "kind", "--testee", "python3 t.py"},
      .backend = "bubblewrap 0.0.0.dev0 (the reference)",
      .suite_seconds = {{"kind", 1.5}, {"backend", 62.25}},
      .wall_seconds = 63.0,
      .coverage_line = "requirements: 1 of 2 implemented ids covered by this run",
      .verdict_lines = {"backend: CONFORMANT (71 required probes)", "gate: PASS", "3 passed, 0 failed"}};
  ASSERT_THAT(WriteJsonReport(TmpFile("facts.json"), written, Sample()), IsOk());
  const StatusOr<JsonReport> read = ReadJsonReport(TmpFile("facts.json"));
  ASSERT_THAT(read.status(), IsOk());
  const ReportHeader& h = read->header;
  EXPECT_EQ(std::tie(h.gate_version, h.date, h.command_line, h.backend, h.suite_seconds,
                     h.wall_seconds, h.coverage_line, h.verdict_lines),
            std::tie(written.gate_version, written.date, written.command_line, written.backend,
                     written.suite_seconds, written.wall_seconds, written.coverage_line,
                     written.verdict_lines));
}

// A report an older gate wrote has no "run" member: it reads, with the facts empty.
TEST(GateRecordTest, AReportWithoutTheRunsFactsStillReads) {
  ASSERT_TRUE(base::WriteFileAtomically(TmpFile("old.json"), R"({"implementation": "x", "records": []})").ok());
  const StatusOr<JsonReport> read = ReadJsonReport(TmpFile("old.json"));
  ASSERT_THAT(read.status(), IsOk());
  EXPECT_EQ(read->header.implementation, "x");
  EXPECT_TRUE(read->header.verdict_lines.empty());
  EXPECT_FALSE(read->header.wall_seconds.has_value());
}

// A run whose profile could not be read (which fails it) still writes its report, saying so;
// one that judged no implementation names none.
TEST(GateRecordTest, AnUnknownProfileVersionIsNullInJsonAndAbsentFromJUnit) {
  const ReportHeader header = {.implementation = "impl"};
  ASSERT_THAT(WriteJsonReport(TmpFile("n.json"), header, Sample()), IsOk());
  const nlohmann::json doc = nlohmann::json::parse(*base::ReadFile(TmpFile("n.json")));
  ASSERT_TRUE(doc.contains("profile_version"));
  EXPECT_TRUE(doc["profile_version"].is_null());
  const StatusOr<JsonReport> read = ReadJsonReport(TmpFile("n.json"));
  ASSERT_THAT(read.status(), IsOk());
  EXPECT_EQ(read->header.profile_version, "");
  ASSERT_THAT(WriteJUnitReport(TmpFile("n.xml"), header, Sample()), IsOk());
  EXPECT_THAT(*base::ReadFile(TmpFile("n.xml")), Not(HasSubstr("profile_version")));
  ASSERT_THAT(WriteJUnitReport(TmpFile("c.xml"), {.profile_version = "2026-12-05.1"}, Sample()),
              IsOk());
  EXPECT_THAT(*base::ReadFile(TmpFile("c.xml")),
              HasSubstr("<properties><property name=\"profile_version\" value=\"2026-12-05.1\"/>"
                        "</properties>"));
}

TEST(GateRecordTest, AReportNotAsTheGateWritesItIsUnreadable) {
  EXPECT_THAT(ReadJsonReport(TmpFile("never-written.json")).status(),
              ProgramErrorIs(kReportUnreadable));
  const std::string record = R"({"suite": "kind", "id": "a", "level": "REQUIRED", )";
  for (const std::string& text : std::vector<std::string>{
           "not json",
           R"({"implementation": "i"})",
           R"({"records": [)" + record + R"("result": "won"}]})",
           R"({"records": [{"suite": "kind", "id": "a", "result": "passed"}]})",
           R"({"records": [)" + record + R"("result": "passed", "requirements": "ARG-001"}]})",
           R"({"records": [7]})",
       }) {
    ASSERT_THAT(base::WriteFileAtomically(TmpFile("bad.json"), text), IsOk());
    EXPECT_THAT(ReadJsonReport(TmpFile("bad.json")).status(), ProgramErrorIs(kReportUnreadable))
        << text;
  }
}

TEST(GateRecordTest, AnUnwritableReportIsAnError) {
  EXPECT_THAT(WriteJsonReport("/proc/nonexistent/dir/r.json", Header(), Sample()),
              ProgramErrorIs(kReportWriteFailed));
}

TEST(KnownFailuresTest, AListMustStayTrue) {
  std::vector<GateRecord> records = Sample();
  const std::vector<KnownFailure> known = {
      {"b", "outcome: completed, want \"refused\" <&>"},  // holds: becomes known
      {"a", "whatever"},                                  // passes now
      {"zzz", "x"},                                       // names nothing
      {"exec.argv", "x"}};                                // skipped: not judged
  EXPECT_THAT(ApplyKnownFailures(known, records),
              ElementsAre("known failure a passes now", "known failure zzz names no check"));
  EXPECT_EQ(records[1].verdict, Verdict::kKnown);
}

TEST(KnownFailuresTest, AFailureThatChangedIsReported) {
  std::vector<GateRecord> records = Sample();
  EXPECT_THAT(ApplyKnownFailures({{"b", "an older detail"}}, records),
              ElementsAre(HasSubstr("known failure b fails differently")));
  EXPECT_EQ(records[1].verdict, Verdict::kFailed);
}

TEST(KnownFailuresTest, AListOfAnotherProfileVersionPointsToTheChanges) {
  EXPECT_EQ(ProfileMovedNotice("2026-12-02.1", "2026-12-05.1"),
            "written against profile version 2026-12-02.1; this is 2026-12-05.1: "
            "docs/profile.md's Changes since then say what changed");
  EXPECT_EQ(ProfileMovedNotice("2026-12-05.1", "2026-12-05.1"), "");
  EXPECT_EQ(ProfileMovedNotice("", "2026-12-05.1"), "");
}

TEST(KnownFailuresTest, WrittenListsReadBackAndBadFilesAreRefused) {
  std::vector<GateRecord> records = Sample();
  records.push_back({.suite = kGateSuite, .id = "list does not hold", .verdict = Verdict::kFailed});
  ASSERT_THAT(WriteKnownFailures(TmpFile("k.json"), "impl", "2026-12-05.1", records), IsOk());
  const StatusOr<KnownFailureList> back = LoadKnownFailures(TmpFile("k.json"));
  ASSERT_THAT(back.status(), IsOk());
  EXPECT_EQ(back->profile_version, "2026-12-05.1");
  ASSERT_EQ(back->failures.size(), 1u);
  EXPECT_EQ(back->failures[0].id, "b");
  // A list written before the profile had versions names none, and still reads.
  ASSERT_THAT(base::WriteFileAtomically(TmpFile("old.json"),
                                        R"({"implementation":"i","known_failures":[]})"),
              IsOk());
  const StatusOr<KnownFailureList> old = LoadKnownFailures(TmpFile("old.json"));
  ASSERT_THAT(old.status(), IsOk());
  EXPECT_EQ(old->profile_version, "");
  for (const char* bad : {R"({"known_failures": [1]})",
                          R"({"profile_version": 7, "known_failures": []})"}) {
    ASSERT_THAT(base::WriteFileAtomically(TmpFile("bad.json"), bad), IsOk());
    EXPECT_THAT(LoadKnownFailures(TmpFile("bad.json")).status(),
                ProgramErrorIs(kKnownFailuresUnreadable))
        << bad;
  }
  EXPECT_THAT(LoadKnownFailures("/proc/nonexistent").status(),
              ProgramErrorIs(kKnownFailuresUnreadable));
}

}  // namespace
}  // namespace azure_pricing::conformance
