// The protocol schemas say what the two PROTOCOL.md files say: every line of their transcripts
// validates (but the requests they show being refused), and each broken line fails with the
// rule it breaks named, never with what it held.
#include "conformance/protocol_schema/validator.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "conformance/protocol_schema/transcript.h"
#include "ref/base/files.h"
#include "ref/base/runfiles.h"
#include "ref/base/test_tmpdir.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::protocol_schema {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

const ProtocolSchemas& Schemas() {
  static const ProtocolSchemas* schemas = [] {
    StatusOr<ProtocolSchemas> loaded = ProtocolSchemas::Load();
    EXPECT_THAT(loaded.status(), IsOk());
    return loaded.ok() ? new ProtocolSchemas(*loaded) : nullptr;
  }();
  return *schemas;
}

// Each violation as "PATH: RULE".
std::vector<std::string> Check(Protocol protocol, LineDirection direction, std::string_view op,
                               std::string_view line) {
  std::vector<std::string> out;
  for (const Violation& v : Schemas().Validate(protocol, direction, op, line).violations) {
    out.push_back(v.path + ": " + v.rule);
  }
  return out;
}

TEST(ValidatorTest, EverySchemaFileLoadsWithItsIdNamingWhereItIs) {
  ASSERT_EQ(Schemas().size(), 26u);  // 12 backend files, 14 testee files
  for (const char* directory :
       {"conformance/backend/protocol/schema", "conformance/testee/schema"}) {
    for (const auto& entry : std::filesystem::directory_iterator(base::Runfile(directory))) {
      const std::string name = entry.path().filename().string();
      if (!name.ends_with(".schema.json")) continue;
      StatusOr<std::string> text = base::ReadFile(entry.path().string());
      ASSERT_THAT(text.status(), IsOk());
      const nlohmann::json schema = nlohmann::json::parse(*text);
      EXPECT_EQ(schema["$id"],
                "https://azure-pricing-conformance.invalid/" + std::string(directory) + "/" + name);
    }
  }
}

TEST(ValidatorTest, ASchemaWithAKeywordTheValidatorDoesNotImplementDoesNotLoad) {
  const std::string dir = base::TestTmpDir();
  for (const char* protocol : {"backend", "testee"}) {
    std::filesystem::create_directories(dir + "/" + protocol);
    // The unknown keyword is in a definition no message refers to: found all the same.
    ASSERT_THAT(base::WriteFileAtomically(
                    dir + "/" + protocol + "/request.x.schema.json",
                    R"({"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"urn:)" +
                        std::string(protocol) +
                        R"(","title":"t","description":"d","$defs":{"a":{"format":"email"}}})"),
                IsOk());
  }
  const StatusOr<ProtocolSchemas> loaded =
      ProtocolSchemas::LoadFrom(dir + "/backend", dir + "/testee");
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().reason(), kSchemaInvalid);
  EXPECT_THAT(loaded.status().message(), HasSubstr("\"format\""));
}

// The transcript lines of a PROTOCOL.md in the runfiles.
std::vector<TranscriptLine> Transcript(const std::string& protocol_md) {
  StatusOr<std::string> text = base::ReadFile(base::Runfile(protocol_md));
  EXPECT_THAT(text.status(), IsOk());
  return TranscriptLines(text.ok() ? *text : "");
}

// Every line that breaks a rule, with its first violation.
std::map<std::string, std::string> BrokenLines(Protocol protocol,
                                               const std::vector<TranscriptLine>& lines) {
  std::map<std::string, std::string> broken;
  for (const DirectedLine& d : Directed(protocol, lines)) {
    const std::vector<std::string> found = Check(protocol, d.direction, d.op, d.line.text);
    if (!found.empty()) broken[d.line.text] = found.front();
  }
  return broken;
}

TEST(ValidatorTest, EveryBackendTranscriptLineValidatesButTheRequestsShownRefused) {
  const std::vector<TranscriptLine> lines = Transcript("conformance/backend/protocol/PROTOCOL.md");
  ASSERT_GE(lines.size(), 28u);
  EXPECT_EQ(BrokenLines(Protocol::kBackend, lines),
            (std::map<std::string, std::string>{
                {"this is not json", "/: is not JSON, or not UTF-8 (framing)"},
                {R"({"seq":3,"op":"launch"})",
                 "/op: is not one of acquire, dispose, exec_bounded, hello, stop (enum)"},
                {R"({"seq":5,"op":"dispose"})", "/: lacks the required key \"sandbox\" (required)"},
            }));
}

TEST(ValidatorTest, EveryTesteeTranscriptLineValidatesButTheRequestsShownRefused) {
  const std::vector<TranscriptLine> lines = Transcript("conformance/testee/PROTOCOL.md");
  ASSERT_GE(lines.size(), 24u);
  EXPECT_EQ(BrokenLines(Protocol::kTestee, lines),
            (std::map<std::string, std::string>{
                {"not json", "/: is not JSON, or not UTF-8 (framing)"},
                {R"({"seq":5,"op":"dance"})", "/op: is not one of case, hello, stop (enum)"},
            }));
}

struct Broken {
  Protocol protocol;
  LineDirection direction;
  const char* op;
  std::string line;
  const char* violation;  // the first one
};

constexpr Protocol kB = Protocol::kBackend;
constexpr Protocol kT = Protocol::kTestee;
constexpr LineDirection kSent = LineDirection::kRequestSent;
constexpr LineDirection kAnswer = LineDirection::kAnswerReceived;
constexpr LineDirection kCallback = LineDirection::kRequestReceived;
constexpr LineDirection kCallbackAnswer = LineDirection::kAnswerSent;

constexpr char kExec[] = R"({"seq":3,"op":"exec_bounded","sandbox":"s","argv":["azmcp"],"env":[],)"
                         R"("timeout_seconds":60,"max_output_bytes":8388608})";
constexpr char kReport[] =
    R"({"seq":2,"ok":true,"report":{"outcome":"completed","reason":null,"trusted_messages":[],)"
    R"("output":null,"result_label":null,"violations":[],"warnings":[],"tools":1,"tool":null}})";

// `base` with one member's text replaced: `from` must occur in it once.
std::string With(std::string base, const std::string& from, const std::string& to) {
  const size_t at = base.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? base : base.replace(at, from.size(), to);
}

TEST(ValidatorTest, TheBaseLinesOfTheBrokenOnesValidate) {
  EXPECT_THAT(Check(kB, kSent, "exec_bounded", kExec), IsEmpty());
  EXPECT_THAT(Check(kT, kAnswer, "case", kReport), IsEmpty());
  EXPECT_THAT(Check(kT, kCallback, "", kExec), IsEmpty());
}

TEST(ValidatorTest, EachBrokenLineFailsWithTheRuleItBreaksNamed) {
  const std::string big(size_t{16} * 1024 * 1024 + 1, ' ');
  const Broken table[] = {
      {kB, kSent, "", R"({"seq":1,"op":"hello","protocol":"p","extra":1})",
       "/extra: unknown member (additionalProperties)"},
      {kB, kSent, "", With(kExec, "60", "\"60\""),
       "/timeout_seconds: is not of type \"integer\" (type)"},
      {kB, kSent, "", With(kExec, "60", "-1"),
       "/timeout_seconds: is less than the minimum 0 (minimum)"},
      {kB, kSent, "", With(kExec, "8388608", "1e3"),
       "/max_output_bytes: is not of type \"integer\" (type)"},
      {kB, kSent, "", With(kExec, R"("seq":3,)", ""),
       "/: lacks the required key \"seq\" (required)"},
      {kB, kSent, "", With(kExec, R"("seq":3)", R"("seq":0)"),
       "/seq: is less than the minimum 1 (minimum)"},
      {kB, kSent, "", With(kExec, R"("seq":3)", R"("seq":9223372036854775808)"),
       "/seq: is greater than the maximum 9223372036854775807 (maximum)"},
      {kB, kSent, "", With(kExec, R"(["azmcp"])", "[]"),
       "/argv: has fewer than 1 items (minItems)"},
      {kB, kSent, "", With(kExec, R"(["azmcp"])", R"(["azmcp",7])"),
       "/argv/1: is not of type \"string\" (type)"},
      {kB, kSent, "", R"({"seq":1,"seq":2,"op":"stop"})",
       "/: repeats a member within one object (framing)"},
      {kB, kSent, "", "[1]", "/: is not a JSON object (framing)"},
      {kB, kSent, "", "{\"seq\":1,\"op\":\"hello\",\"protocol\":\"\xff\"}",
       "/: is not JSON, or not UTF-8 (framing)"},
      {kB, kSent, "", big, "/: is longer than 16 MiB (framing)"},
      {kB, kSent, "", R"({"seq":1})", "/: lacks the required key \"op\" (required)"},
      {kB, kSent, "", R"({"seq":1,"op":["stop"]})", "/op: is not of type \"string\" (type)"},
      {kB, kAnswer, "dispose",
       R"({"seq":4,"ok":false,"error":{"outcome":"blocked","reason":"r","message":""}})",
       "/error/outcome: is not one of [\"refused\",\"failed\"] (enum)"},
      {kB, kAnswer, "dispose",
       R"({"seq":null,"ok":false,"error":{"outcome":"refused","reason":"","message":""}})",
       "/error/reason: is shorter than 1 characters (minLength)"},
      {kB, kAnswer, "dispose", R"({"seq":null,"ok":true})",
       "/seq: is not of type \"integer\" (type)"},
      {kB, kAnswer, "dispose", R"({"seq":4})", "/: lacks the required key \"ok\" (required)"},
      {kB, kAnswer, "acquire", R"({"seq":2,"ok":true,"sandbox":""})",
       "/sandbox: is shorter than 1 characters (minLength)"},
      {kB, kAnswer, "exec_bounded",
       R"({"seq":3,"ok":true,"exit_code":2147483648,"stdout_base64":"","stderr_base64":""})",
       "/exit_code: is greater than the maximum 2147483647 (maximum)"},
      {kB, kAnswer, "exec_bounded",
       R"({"seq":3,"ok":true,"exit_code":0,"stdout_base64":"abc","stderr_base64":""})",
       "/stdout_base64: is not base64 (the standard alphabet, with padding) (contentEncoding)"},
      {kB, kAnswer, "hello",
       R"({"seq":1,"ok":true,"protocol":"p","backend":{"name":"n","version":"v"},)"
       R"("declaration":{"os_families":["posix"],"isolation":"strong","capabilities":[],)"
       R"("egress_modes":[],"bounded_exec":true}})",
       "/declaration/isolation: is not one of [\"none\",\"runtime\",\"os_process\",\"container\","
       "\"hardened_container\",\"microvm\",\"vm\"] (enum)"},
      {kB, kAnswer, "hello",
       R"({"seq":1,"ok":true,"protocol":"p","backend":{"name":"n","version":"v"},)"
       R"("declaration":{"os_families":["posix"],"isolation":"vm","capabilities":[],)"
       R"("egress_modes":[],"egress_method_tokens":"GET"}})",
       "/declaration: lacks the required key \"bounded_exec\" (required)"},
      {kB, kSent, "",
       R"({"seq":2,"op":"acquire","spec":{},"key":{"agent_id":"a","session_id":"s","call_id":"c"},)"
       R"("egress_upstream":{"host":"127.0.0.1","port":0,"ca_pem":""}})",
       "/spec: lacks the required key \"os_family\" (required)"},
      {kB, kCallback, "", kExec, "/: is a line the backend protocol does not have (framing)"},
      {kT, kAnswer, "case", With(kReport, R"("tools":1)", R"("tools":-1)"),
       "/report/tools: is less than the minimum 0 (minimum)"},
      {kT, kAnswer, "case", With(kReport, R"(,"tools":1)", ""),
       "/report: lacks the required key \"tools\" (required)"},
      {kT, kAnswer, "case", With(kReport, R"("completed")", R"("done")"),
       "/report/outcome: is not one of [\"completed\",\"refused\",\"failed\",\"blocked\"] (enum)"},
      {kT, kAnswer, "case",
       With(kReport, R"("result_label":null)",
            R"("result_label":{"integrity":"maybe","confidentiality":"public"})"),
       "/report/result_label/integrity: is not one of [\"trusted\",\"untrusted\"] (enum)"},
      {kT, kAnswer, "case",
       With(kReport, R"("tool":null)",
            R"("tool":{"name":"","description":"","parameters_schema":"{}"})"),
       "/report/tool/name: is shorter than 1 characters (minLength)"},
      {kT, kAnswer, "hello",
       R"({"seq":1,"ok":true,"protocol":"p","implementation":{"name":5,"version":"v"}})",
       "/implementation/name: is not of type \"string\" (type)"},
      {kT, kAnswer, "case",
       R"({"seq":2,"ok":false,"error":{"outcome":"blocked","reason":"r","message":"m"}})",
       "/error/outcome: is not one of [\"refused\",\"failed\"] (enum)"},
      {kT, kSent, "",
       R"({"seq":2,"op":"case","call":{"arguments":"{}","host_json":"{}","backend_json":"{}",)"
       R"("labels_json":"{}","middleware":[],"max_rows":"5"}})",
       "/call: lacks the required key \"same_host\" (required)"},
      {kT, kCallback, "",
       R"({"seq":1,"op":"acquire","spec":{"os_family":"posix","min_isolation":"container",)"
       R"("requires":["EXEC"],"egress":"closed","egress_allow":[],"isolation_scope":"call",)"
       R"("cleanup":"dispose","image":"i"},"key":{"agent_id":"a","session_id":"s","call_id":"c"},)"
       R"("egress_upstream":null})",
       "/egress_upstream: is not allowed here (false)"},
      {kT, kCallback, "", R"({"seq":1,"op":"case","call":{}})",
       "/op: is not one of acquire, dispose, exec_bounded (enum)"},
      {kT, kCallbackAnswer, "exec_bounded",
       R"({"seq":3,"ok":true,"exit_code":1.5,"stdout_base64":"","stderr_base64":""})",
       "/exit_code: is not of type \"integer\" (type)"},
      {kT, kCallbackAnswer, "",
       R"({"seq":3,"ok":false,"error":{"outcome":"refused","reason":"unknown_op"}})",
       "/error: lacks the required key \"message\" (required)"},
  };
  for (const Broken& b : table) {
    const std::vector<std::string> found = Check(b.protocol, b.direction, b.op, b.line);
    ASSERT_FALSE(found.empty()) << b.line.substr(0, 200);
    EXPECT_EQ(found.front(), b.violation) << b.line.substr(0, 200);
  }
}

TEST(ValidatorTest, AnAnswerToAnOpWithoutItsOwnSchemaIsCheckedAsAnError) {
  EXPECT_THAT(
      Check(
          kT, kCallbackAnswer, "hello",
          R"({"seq":1,"ok":false,"error":{"outcome":"refused","reason":"unknown_op","message":"m"}})"),
      IsEmpty());
  EXPECT_EQ(Check(kT, kCallbackAnswer, "", R"({"seq":1,"ok":true})"),
            (std::vector<std::string>{"/: lacks the required key \"error\" (required)",
                                      "/ok: is not false (const)"}));
}

TEST(ValidatorTest, AViolationNeverRepeatsWhatTheLineHeld) {
  const std::string lines[] = {
      R"({"seq":1,"op":"hello","protocol":"p","token=s3cr3t":"s3cr3t"})",
      R"({"seq":1,"op":"hello","protocol":["s3cr3t"]})",
      R"({"seq":"s3cr3t","op":"hello","protocol":"p"})",
      R"({"seq":1,"op":"s3cr3t"})",
      R"({"seq":1,"op":"hello","protocol":"p",")" + std::string(80, 'x') + R"(s3cr3t":1})",
      R"({"seq":1,"op":"hello","protocol":"p","extra":"s3cr3t"})",
  };
  std::set<std::string> paths;
  for (const std::string& line : lines) {
    const std::vector<std::string> found = Check(kB, kSent, "", line);
    EXPECT_EQ(found.size(), 1u) << line;
    for (const std::string& v : found) {
      EXPECT_EQ(v.find("s3cr3t"), std::string::npos) << v;
      paths.insert(v.substr(0, v.find(':')));
    }
  }
  // A member name that is not a plain identifier is <member>; a plain one is shown, as the
  // testee protocol's own faults show it.
  EXPECT_EQ(paths, (std::set<std::string>{"/<member>", "/protocol", "/seq", "/op", "/extra"}));
}

TEST(ValidatorTest, TheRecorderCountsEveryLineAndDescribesTheFirstBrokenOnes) {
  LineRecorder recorder(Schemas(), /*described=*/2);
  const conformance::line_protocol::LineObserver observe = recorder.ObserverFor(Protocol::kBackend);
  observe(kSent, "stop", R"({"seq":1,"op":"stop"})");
  observe(kAnswer, "stop", R"({"seq":1,"ok":true,"extra":"s3cr3t"})");
  observe(kAnswer, "stop", R"({"seq":"s3cr3t","ok":true})");
  recorder.Record(kT, kAnswer, "case", "s3cr3t");
  const LineRecorder::Tally tally = recorder.tally();
  EXPECT_EQ(tally.lines, 4u);
  EXPECT_EQ(tally.violations, 3u);
  EXPECT_EQ(tally.lines_by_protocol.at(kB), 3u);
  EXPECT_EQ(tally.lines_by_protocol.at(kT), 1u);
  EXPECT_EQ(tally.described,
            (std::vector<std::string>{
                "backend answer.stop (line 2): /extra: unknown member (additionalProperties)",
                "backend answer.stop (line 3): /seq: is not of type \"integer\" (type)"}));
  EXPECT_EQ(SummaryLine(tally),
            "protocol validation: 4 lines checked against the JSON Schemas (backend protocol 3, "
            "testee protocol 1), 3 violations");
}

TEST(ValidatorTest, TheRecorderCountsLinesFromManyThreads) {
  LineRecorder recorder(Schemas());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&recorder] {
      for (int i = 0; i < 250; ++i) {
        recorder.Record(kB, kSent, "stop", i % 50 == 0 ? "{}" : R"({"seq":1,"op":"stop"})");
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(recorder.tally().lines, 1000u);
  EXPECT_EQ(recorder.tally().violations, 20u);
  EXPECT_EQ(recorder.tally().described.size(), 5u);
}

TEST(ValidatorTest, TheSummaryLineGroupsThousandsAndSaysWhenNoProtocolWasSpoken) {
  LineRecorder::Tally tally;
  EXPECT_EQ(SummaryLine(tally),
            "protocol validation: 0 lines checked against the JSON Schemas (no protocol was "
            "spoken in this run), 0 violations");
  tally.lines = 1234567;
  tally.violations = 1;
  tally.lines_by_protocol[Protocol::kTestee] = 1234567;
  EXPECT_EQ(SummaryLine(tally),
            "protocol validation: 1,234,567 lines checked against the JSON Schemas (testee "
            "protocol 1,234,567), 1 violation");
}

}  // namespace
}  // namespace azure_pricing::conformance::protocol_schema
