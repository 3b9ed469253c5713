// The testee protocol's codec: every message survives a round trip, and every line that is not
// a message is named as such, never thrown.
#include "conformance/testee/protocol.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <iterator>

#include "ref/json/json.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::testee {
namespace {

using conformance::host::CallReport;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::string WithoutNewline(std::string line) {
  EXPECT_EQ(line.back(), '\n');
  line.pop_back();
  return line;
}

TEST(TesteeProtocolTest, ACaseMessageRoundTripsWithoutItsScripts) {
  GateMessage m{.seq = 7, .op = GateOp::kCase};
  m.call.arguments = "{\"sku\":\"Standard_D2s_v5\" , \"region\":\"west\\u0065urope\"}";
  m.call.host = host::ConfigFromText(R"({"max_rows":3})");
  m.call.backend = host::ConfigFromText(R"({"bounded_exec":false})");
  m.call.labels = host::ConfigFromText(R"({"conversation":{"integrity":"trusted"}})");
  m.call.middleware = {"tracker", "policy"};
  m.call.max_output_bytes = 1024;
  m.call.call_id = "call-7";
  m.call.same_host = true;
  m.call.scripts.push_back({.fail_acquire = true});
  std::optional<int64_t> seq;
  StatusOr<GateMessage> back = DecodeGateMessage(WithoutNewline(EncodeGateMessage(m)), &seq);
  ASSERT_THAT(back.status(), IsOk());
  EXPECT_EQ(seq, 7);
  EXPECT_EQ(back->op, GateOp::kCase);
  EXPECT_EQ(back->call.arguments, m.call.arguments);  // the model's text, byte for byte
  EXPECT_EQ(json::Serialize(back->call.host), R"({"max_rows":3})");
  EXPECT_EQ(json::Serialize(back->call.backend), R"({"bounded_exec":false})");
  EXPECT_EQ(json::Serialize(back->call.labels), R"({"conversation":{"integrity":"trusted"}})");
  EXPECT_THAT(back->call.middleware, ElementsAre("tracker", "policy"));
  EXPECT_EQ(back->call.max_rows, std::nullopt);
  EXPECT_EQ(back->call.max_output_bytes, 1024);
  EXPECT_EQ(back->call.call_id, "call-7");
  EXPECT_TRUE(back->call.same_host);
  EXPECT_TRUE(back->call.scripts.empty());
}

TEST(TesteeProtocolTest, EachVersionCarriesTheConfigurationItsOwnWay) {
  GateMessage m{.seq = 2, .op = GateOp::kCase};
  m.call.host = host::ConfigFromText(R"({ "max_rows" : 3 })");
  const std::string v3 = WithoutNewline(EncodeGateMessage(m, Version::kV3));
  const std::string v2 = WithoutNewline(EncodeGateMessage(m, Version::kV2));
  EXPECT_THAT(v3, HasSubstr(R"("host":{"max_rows":3},"backend":{},"labels":{})"));
  EXPECT_THAT(v2, HasSubstr(R"("host_json":"{\"max_rows\":3}","backend_json":"{}")"));
  // Version 2 passes the value as its JSON text; version 3 the value itself. Both read back as it.
  StatusOr<GateMessage> from_v2 = DecodeGateMessage(v2, nullptr, Version::kV2);
  StatusOr<GateMessage> from_v3 = DecodeGateMessage(v3, nullptr, Version::kV3);
  ASSERT_THAT(from_v2.status(), IsOk());
  ASSERT_THAT(from_v3.status(), IsOk());
  EXPECT_EQ(json::Serialize(from_v2->call.host), R"({"max_rows":3})");
  EXPECT_EQ(json::Serialize(from_v3->call.host), R"({"max_rows":3})");
  // Each version's call is not a message of the other.
  EXPECT_THAT(DecodeGateMessage(v2, nullptr, Version::kV3), StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_THAT(DecodeGateMessage(v3, nullptr, Version::kV2), StatusIs(Outcome::kRefused, kMalformedMessage));
}

TEST(TesteeProtocolTest, Version3SendsATextThatIsNotJsonAsAStringTheTesteeMustRefuse) {
  GateMessage m{.seq = 2, .op = GateOp::kCase};
  // A repeated member: no one JSON value, so the text is held as a string.
  m.call.backend = host::ConfigFromText(R"({"name":"a","name":"b"})");
  const std::string line = WithoutNewline(EncodeGateMessage(m, Version::kV3));
  EXPECT_THAT(line, HasSubstr(R"("backend":"{\"name\":\"a\",\"name\":\"b\"}")"));
  StatusOr<GateMessage> back = DecodeGateMessage(line, nullptr, Version::kV3);
  ASSERT_THAT(back.status(), IsOk());
  // A JSON string, not an object: the host refuses it as invalid_configuration.
  ASSERT_TRUE(back->call.backend.is_string());
  EXPECT_EQ(back->call.backend.as_string(), R"({"name":"a","name":"b"})");
}

TEST(TesteeProtocolTest, VersionsAreNamedAsHelloSpellsThem) {
  EXPECT_EQ(VersionName(Version::kV4), kProtocolVersion);
  EXPECT_EQ(VersionName(Version::kV3), kProtocolVersion3);
  EXPECT_EQ(VersionName(Version::kV2), kProtocolVersion2);
  EXPECT_EQ(VersionNamed("azure-pricing-testee/4"), Version::kV4);
  EXPECT_EQ(VersionNamed("azure-pricing-testee/3"), Version::kV3);
  EXPECT_EQ(VersionNamed("azure-pricing-testee/2"), Version::kV2);
  EXPECT_EQ(VersionNamed("azure-pricing-testee/1"), std::nullopt);
  EXPECT_EQ(VersionNamed("Azure-Pricing-Testee/3"), std::nullopt);
  StatusOr<TesteeAnswer> v2 =
      DecodeAnswer(WithoutNewline(EncodeHelloAnswer(1, {"py", "0.2"}, Version::kV2)), GateOp::kHello);
  ASSERT_THAT(v2.status(), IsOk());
  EXPECT_EQ(v2->protocol, kProtocolVersion2);
}

TEST(TesteeProtocolTest, HelloAndStopRoundTrip) {
  StatusOr<GateMessage> hello = DecodeGateMessage(
      WithoutNewline(EncodeGateMessage({.seq = 1, .op = GateOp::kHello, .protocol = "x/1"})),
      nullptr);
  ASSERT_THAT(hello.status(), IsOk());
  EXPECT_EQ(hello->protocol, "x/1");
  StatusOr<TesteeAnswer> answer =
      DecodeAnswer(WithoutNewline(EncodeHelloAnswer(1, {"py", "0.2"})), GateOp::kHello);
  ASSERT_THAT(answer.status(), IsOk());
  EXPECT_EQ(answer->seq, 1);
  EXPECT_EQ(answer->implementation.name, "py");
  EXPECT_EQ(answer->implementation.version, "0.2");
  StatusOr<TesteeAnswer> stop = DecodeAnswer(WithoutNewline(EncodeStopAnswer(9)), GateOp::kStop);
  ASSERT_THAT(stop.status(), IsOk());
  EXPECT_EQ(stop->seq, 9);
}

TEST(TesteeProtocolTest, ACaseAnswerRoundTripsEveryPartTheTesteeKnows) {
  CallReport r;
  r.outcome = Outcome::kBlocked;
  r.reason = "policy_violation";
  r.tools = 1;
  r.trusted_messages = {"one", "two"};
  r.output = R"({"prices":[]})";
  r.result_label = labels::ContentLabel{};
  r.result_label->confidentiality = labels::Confidentiality::kPrivate;
  r.violations = {"v"};
  r.warnings = {"w"};
  r.tool_name = "azure_pricing_get";
  r.tool_description = "d";
  r.tool_parameters_schema = R"({"type":"object"})";
  r.output_variable = "var_1";
  r.conversation_label = labels::ContentLabel{};
  r.audit_log = {"untrusted_context", "max_allowed_confidentiality"};
  r.sandbox_acquisitions = 5;  // the gate's to count, never carried
  StatusOr<TesteeAnswer> a = DecodeAnswer(WithoutNewline(EncodeCaseAnswer(3, r)), GateOp::kCase);
  ASSERT_THAT(a.status(), IsOk());
  EXPECT_EQ(a->report.outcome, Outcome::kBlocked);
  EXPECT_EQ(a->report.reason, "policy_violation");
  EXPECT_EQ(a->report.tools, 1u);
  EXPECT_THAT(a->report.trusted_messages, ElementsAre("one", "two"));
  EXPECT_EQ(a->report.output, r.output);
  ASSERT_TRUE(a->report.result_label.has_value());
  EXPECT_EQ(a->report.result_label->confidentiality, labels::Confidentiality::kPrivate);
  EXPECT_THAT(a->report.violations, ElementsAre("v"));
  EXPECT_THAT(a->report.warnings, ElementsAre("w"));
  EXPECT_EQ(a->report.tool_name, "azure_pricing_get");
  EXPECT_EQ(a->report.tool_description, "d");
  EXPECT_EQ(a->report.tool_parameters_schema, r.tool_parameters_schema);
  EXPECT_EQ(a->report.sandbox_acquisitions, 0);
  EXPECT_TRUE(a->report.reports_label_tracking);
  EXPECT_EQ(a->report.output_variable, "var_1");
  EXPECT_EQ(a->report.conversation_label, labels::ContentLabel{});
  EXPECT_THAT(a->report.audit_log, ElementsAre("untrusted_context", "max_allowed_confidentiality"));
}

TEST(TesteeProtocolTest, AnOlderVersionsReportCarriesNoLabelTrackingAndMayNotAddIt) {
  CallReport r;
  r.output_variable = "var_1";
  r.conversation_label = labels::ContentLabel{};
  r.audit_log = {"untrusted_context"};
  const std::string v3 = WithoutNewline(EncodeCaseAnswer(3, r, Version::kV3));
  EXPECT_EQ(v3.find("output_variable"), std::string::npos);
  StatusOr<TesteeAnswer> a = DecodeAnswer(v3, GateOp::kCase, Version::kV3);
  ASSERT_THAT(a.status(), IsOk());
  EXPECT_FALSE(a->report.reports_label_tracking);
  EXPECT_EQ(a->report.output_variable, std::nullopt);
  EXPECT_THAT(a->report.audit_log, IsEmpty());
  // Each version's report is exactly its members: a version 3 report lacks version 4's three.
  EXPECT_THAT(DecodeAnswer(v3, GateOp::kCase, Version::kV4).status(),
              StatusIs(Outcome::kFailed, kTesteeProtocolError,
                       ::testing::EndsWith(" At fault: report.output_variable: missing.")));
  EXPECT_THAT(DecodeAnswer(WithoutNewline(EncodeCaseAnswer(3, r)), GateOp::kCase, Version::kV3)
                  .status(),
              StatusIs(Outcome::kFailed, kTesteeProtocolError,
                       ::testing::EndsWith(" At fault: report.output_variable: unknown member.")));
}

TEST(TesteeProtocolTest, AnErrorAnswerKeepsAKnownReasonAndNeverTheTesteesMessage) {
  const std::string line = WithoutNewline(EncodeErrorAnswer(
      4, Status(Outcome::kRefused, conformance::host::kInvalidConfiguration, "secret text")));
  StatusOr<TesteeAnswer> a = DecodeAnswer(line, GateOp::kCase);
  ASSERT_THAT(a.status(), IsOk());
  EXPECT_THAT(a->error, StatusIs(Outcome::kRefused, conformance::host::kInvalidConfiguration));
  EXPECT_EQ(a->error.message().find("secret"), std::string::npos);
  StatusOr<TesteeAnswer> other = DecodeAnswer(
      R"({"seq":4,"ok":false,"error":{"outcome":"failed","reason":"mine","message":"m"}})",
      GateOp::kCase);
  ASSERT_THAT(other.status(), IsOk());
  EXPECT_THAT(other->error, StatusIs(Outcome::kFailed, kTesteeError));
}

TEST(TesteeProtocolTest, LinesThatAreNotMessagesAreNamed) {
  std::optional<int64_t> seq;
  EXPECT_THAT(DecodeGateMessage("not json", &seq).status(),
              StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_THAT(DecodeGateMessage(R"({"seq":3,"op":"dance"})", &seq).status(),
              StatusIs(Outcome::kRefused, kUnknownOp));
  EXPECT_EQ(seq, 3);
  EXPECT_THAT(DecodeGateMessage(R"({"seq":3,"seq":4,"op":"stop"})", &seq).status(),
              StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_THAT(DecodeGateMessage(R"({"seq":3,"op":"stop","extra":1})", &seq).status(),
              StatusIs(Outcome::kRefused, kMalformedMessage));
  // Version 2's case needs same_host; a version 1 case (without it) is not a version 2 message.
  EXPECT_THAT(
      DecodeGateMessage(R"({"seq":5,"op":"case","call":{"arguments":"{}","host_json":"{}",)"
                        R"("backend_json":"{}","labels_json":"{}","middleware":[]}})",
                        &seq)
          .status(),
      StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_THAT(DecodeAnswer(R"({"seq":1,"ok":true})", GateOp::kCase).status(),
              StatusIs(Outcome::kFailed, kTesteeProtocolError));
  EXPECT_THAT(DecodeAnswer(R"({"seq":1,"ok":true,"protocol":"azure-pricing-testee/1",)"
                           R"("implementation":{"name":"n","version":"v"}})",
                           GateOp::kHello)
                  .status(),
              StatusIs(Outcome::kFailed, kProtocolMismatch));
}

// A protocol error names the member or line at fault and what is wrong there, and never echoes
// a value the testee sent; the reason stays testee_protocol_error.
struct BadAnswer {
  const char* line;
  GateOp answered;
  const char* fault;
};

class ProtocolFaultTest : public ::testing::TestWithParam<BadAnswer> {};

TEST_P(ProtocolFaultTest, NamesTheMemberAndWhatIsWrongWithoutTheValue) {
  const Status status = DecodeAnswer(GetParam().line, GetParam().answered).status();
  EXPECT_THAT(status, StatusIs(Outcome::kFailed, kTesteeProtocolError,
                               ::testing::EndsWith(std::string(" At fault: ") +
                                                   GetParam().fault + ".")));
  EXPECT_THAT(status.message(), ::testing::StartsWith("The testee's line is not a protocol answer"));
  EXPECT_EQ(status.message().find("SECRET"), std::string::npos) << status.message();
}

// A complete report with the text `replace` replaced by `with`.
std::string Report(const std::string& replace, const std::string& with) {
  std::string report =
      R"({"outcome":"completed","reason":null,"trusted_messages":["a","b"],"output":null,)"
      R"("result_label":null,"violations":[],"warnings":[],"tools":1,)"
      R"("tool":{"name":"t","description":"d","parameters_schema":"{}"},)"
      R"("output_variable":null,"conversation_label":{"integrity":"trusted",)"
      R"("confidentiality":"public"},"audit_log":[]})";
  if (!replace.empty()) {
    const size_t at = report.find(replace);
    EXPECT_NE(at, std::string::npos) << replace;
    report.replace(at, replace.size(), with);
  }
  return R"({"seq":2,"ok":true,"report":)" + report + "}";
}

const std::string kCases[][2] = {
    {R"("trusted_messages":["a","b"])", R"("trusted_messages":["a",7])"},
    {R"("trusted_messages":["a","b"])", R"("trusted_messages":"SECRET")"},
    {R"("tools":1,)", ""},
    {R"("tools":1,)", R"("tools":1,"extra_member":"SECRET",)"},
    {R"("tools":1,)", R"("tools":"SECRET",)"},
    {R"("outcome":"completed")", R"("outcome":"SECRET")"},
    {R"("result_label":null)", R"("result_label":{"integrity":"SECRET","confidentiality":"x"})"},
    {R"("result_label":null)", R"("result_label":{"integrity":"trusted"})"},
    {R"("name":"t")", R"("name":42)"},
    {R"("warnings":[])", R"("warnings":[],"warnings":["SECRET"])"},
    {R"("output":null)", R"("output":{"prices":"SECRET"})"},
    {R"("output_variable":null)", R"("output_variable":"")"},
    {R"("output_variable":null)", R"("output_variable":7)"},
    {R"("conversation_label":{"integrity":"trusted",)", R"("conversation_label":{"integrity":"SECRET",)"},
    {R"("audit_log":[])", R"("audit_log":[1])"},
};

INSTANTIATE_TEST_SUITE_P(
    Answers, ProtocolFaultTest,
    ::testing::Values(
        BadAnswer{"SECRET not json", GateOp::kCase, "the line: not JSON (at byte 1)"},
        BadAnswer{R"(["SECRET"])", GateOp::kCase, "the line: wrong type (array), want object"},
        BadAnswer{R"({"ok":true})", GateOp::kCase, "seq: missing"},
        BadAnswer{R"({"seq":1,"ok":"SECRET"})", GateOp::kCase,
                  "ok: wrong type (string), want boolean"},
        BadAnswer{R"({"seq":"SECRET","ok":true})", GateOp::kCase,
                  "seq: wrong type or value (string), want a 64-bit integer or null"},
        BadAnswer{R"({"seq":1,"ok":true})", GateOp::kCase, "report: missing"},
        BadAnswer{R"({"seq":1,"ok":true,"report":{},"SECRET?":1})", GateOp::kCase,
                  "<a member whose name is not an identifier>: unknown member"},
        BadAnswer{R"({"seq":1,"ok":true,"protocol":"p","implementation":{"name":"n"}})",
                  GateOp::kHello, "implementation.version: missing"},
        BadAnswer{R"({"seq":1,"ok":false,"error":{"outcome":"completed","reason":"r",)"
                  R"("message":"SECRET"}})",
                  GateOp::kCase, "error.outcome: not one of refused, failed, blocked"},
        BadAnswer{R"({"seq":1,"ok":true,"extra":[]})", GateOp::kStop, "extra: unknown member"}));

TEST(TesteeProtocolTest, AReportFaultIsNamedByItsJsonPath) {
  const char* const faults[] = {
      "report.trusted_messages[1]: wrong type (number), want string",
      "report.trusted_messages: wrong type (string), want array of strings",
      "report.tools: missing",
      "report.extra_member: unknown member",
      "report.tools: wrong type or value (string), want a non-negative integer",
      "report.outcome: not one of completed, refused, failed, blocked",
      "report.result_label.integrity: not an integrity label this gate knows",
      "report.result_label.confidentiality: missing",
      "report.tool.name: wrong type (number), want string",
      "report.warnings: member repeated",
      "report.output: wrong type (object), want string or null",
      "report.output_variable: empty, want a variable id or null",
      "report.output_variable: wrong type (number), want string or null",
      "report.conversation_label.integrity: not an integrity label this gate knows",
      "report.audit_log[0]: wrong type (number), want string",
  };
  static_assert(std::size(faults) == std::size(kCases));
  for (size_t i = 0; i < std::size(kCases); ++i) {
    const std::string line = Report(kCases[i][0], kCases[i][1]);
    const Status status = DecodeAnswer(line, GateOp::kCase).status();
    EXPECT_THAT(status, StatusIs(Outcome::kFailed, kTesteeProtocolError,
                                 ::testing::EndsWith(std::string(" At fault: ") + faults[i] +
                                                     ".")))
        << line;
    EXPECT_EQ(status.message().find("SECRET"), std::string::npos) << status.message();
  }
  // The unchanged report decodes, so each fault above is the replaced member's alone.
  EXPECT_THAT(DecodeAnswer(Report("", ""), GateOp::kCase).status(), IsOk());
}

TEST(TesteeProtocolTest, ARepeatedMemberDeepInsideIsNamedByItsPath) {
  EXPECT_THAT(
      DecodeAnswer(R"({"seq":1,"ok":true,"report":{"a":[{"x":1},{"y":[1,{"z":2,"z":3}]}]}})",
                   GateOp::kCase)
          .status(),
      StatusIs(Outcome::kFailed, kTesteeProtocolError,
               ::testing::EndsWith(" At fault: report.a[1].y[1].z: member repeated.")));
}

TEST(TesteeProtocolTest, ProtocolErrorWithoutAFaultIsTheFixedMessage) {
  EXPECT_EQ(TesteeProtocolError("").message(),
            StatusForReason(Outcome::kFailed, kTesteeProtocolError).message());
  EXPECT_EQ(TesteeProtocolError("seq: x").reason(), kTesteeProtocolError);
}

TEST(TesteeProtocolTest, ACallbackIsTellingFromAnAnswer) {
  EXPECT_TRUE(IsCallback(R"({"seq":1,"op":"acquire"})"));
  EXPECT_FALSE(IsCallback(R"({"seq":1,"ok":true})"));
  EXPECT_FALSE(IsCallback("garbage"));
}

}  // namespace
}  // namespace azure_pricing::conformance::testee
