#include "conformance/backend/protocol/protocol.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::backend::protocol {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

sandbox::Spec FullSpec() {
  sandbox::Spec spec;
  spec.os_family = sandbox::OsFamily::kWindows;
  spec.min_isolation = sandbox::Isolation::kMicrovm;
  spec.required = {sandbox::Capability::kExec, sandbox::Capability::kFilesIn};
  spec.egress = sandbox::Egress::kAllowlist;
  spec.egress_allow = {{"prices.azure.com", std::set<std::string>{"GET", "HEAD"}},
                       {"example.org", std::nullopt}};
  spec.isolation_scope = sandbox::IsolationScope::kCall;
  spec.cleanup = sandbox::Cleanup::kReset;
  spec.image = "mcr.microsoft.com/azure-cli:2";
  return spec;
}

Request RoundTrip(const Request& request) {
  const std::string line = EncodeRequest(request);
  EXPECT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  std::optional<int64_t> seq;
  StatusOr<Request> decoded = DecodeRequest(line.substr(0, line.size() - 1), &seq);
  EXPECT_THAT(decoded, IsOk());
  EXPECT_EQ(seq, request.seq);
  return decoded.ok() ? std::move(decoded).value() : Request{};
}

TEST(RequestCodec, HelloHasTheVersionAndTheDocumentedShape) {
  EXPECT_EQ(EncodeRequest(Request{1, HelloRequest{}}),
            "{\"seq\":1,\"op\":\"hello\",\"protocol\":\"azure-pricing-backend/1\"}\n");
  const Request back = RoundTrip(Request{1, HelloRequest{}});
  EXPECT_EQ(std::get<HelloRequest>(back.body).protocol, kProtocolVersion);
}

TEST(RequestCodec, AcquireCarriesEveryFieldOfTheSpecTheKeyAndTheUpstream) {
  AcquireRequest a{FullSpec(),
                   {"agent", "session", "call"},
                   sandbox::EgressUpstream{"127.0.0.1", 8443, "-----BEGIN CERTIFICATE-----\n"}};
  const Request back = RoundTrip(Request{2, a});
  ASSERT_EQ(OpOf(back.body), Op::kAcquire);
  const auto& got = std::get<AcquireRequest>(back.body);
  const sandbox::Spec want = FullSpec();
  EXPECT_EQ(got.spec.os_family, want.os_family);
  EXPECT_EQ(got.spec.min_isolation, want.min_isolation);
  EXPECT_EQ(got.spec.required, want.required);
  EXPECT_EQ(got.spec.egress, want.egress);
  EXPECT_EQ(got.spec.egress_allow, want.egress_allow);
  EXPECT_EQ(got.spec.isolation_scope, want.isolation_scope);
  EXPECT_EQ(got.spec.cleanup, want.cleanup);
  EXPECT_EQ(got.spec.image, want.image);
  EXPECT_EQ(got.key.agent_id, "agent");
  EXPECT_EQ(got.key.session_id, "session");
  EXPECT_EQ(got.key.call_id, "call");
  ASSERT_TRUE(got.egress_upstream.has_value());
  EXPECT_EQ(got.egress_upstream->host, "127.0.0.1");
  EXPECT_EQ(got.egress_upstream->port, 8443);
  EXPECT_EQ(got.egress_upstream->ca_pem, "-----BEGIN CERTIFICATE-----\n");
}

TEST(RequestCodec, SpecUsesSpecHNamesAndTheMafSandboxWordRequires) {
  const std::string line = EncodeRequest(Request{2, AcquireRequest{FullSpec(), {}, {}}});
  EXPECT_THAT(line, HasSubstr("\"os_family\":\"windows\""));
  EXPECT_THAT(line, HasSubstr("\"min_isolation\":\"microvm\""));
  EXPECT_THAT(line, HasSubstr("\"requires\":[\"EXEC\",\"FILES_IN\"]"));
  EXPECT_THAT(line, HasSubstr("\"egress_allow\":[{\"host\":\"prices.azure.com\","
                              "\"methods\":[\"GET\",\"HEAD\"]},{\"host\":\"example.org\"}]"));
  EXPECT_THAT(line, HasSubstr("\"isolation_scope\":\"call\",\"cleanup\":\"reset\""));
  EXPECT_THAT(line, Not(HasSubstr("egress_upstream")));
}

TEST(RequestCodec, AcquireWithoutUpstreamStaysWithout) {
  const Request back = RoundTrip(Request{2, AcquireRequest{sandbox::Spec{}, {}, {}}});
  EXPECT_FALSE(std::get<AcquireRequest>(back.body).egress_upstream.has_value());
}

TEST(RequestCodec, ExecDisposeAndStop) {
  sandbox::ExecRequest exec{{"azmcp", "pricing", "get"}, {"A=1", "B=two words"}, 7, 1234};
  const Request e = RoundTrip(Request{3, ExecBoundedRequest{"sandbox-1", exec}});
  const auto& got = std::get<ExecBoundedRequest>(e.body);
  EXPECT_EQ(got.sandbox, "sandbox-1");
  EXPECT_EQ(got.exec.argv, exec.argv);
  EXPECT_EQ(got.exec.env, exec.env);
  EXPECT_EQ(got.exec.timeout_seconds, 7);
  EXPECT_EQ(got.exec.max_output_bytes, 1234);
  EXPECT_EQ(std::get<DisposeRequest>(RoundTrip(Request{4, DisposeRequest{"x"}}).body).sandbox, "x");
  EXPECT_EQ(EncodeRequest(Request{5, StopRequest{}}), "{\"seq\":5,\"op\":\"stop\"}\n");
  EXPECT_EQ(OpOf(RoundTrip(Request{5, StopRequest{}}).body), Op::kStop);
}

TEST(RequestCodec, MalformedRequestsKeepTheirSeqWhenItIsReadable) {
  std::optional<int64_t> seq;
  EXPECT_THAT(DecodeRequest("not json", &seq), StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_FALSE(seq.has_value());
  EXPECT_THAT(DecodeRequest("[1]", &seq), StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_THAT(DecodeRequest(R"({"seq":"1","op":"stop"})", &seq),
              StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_FALSE(seq.has_value());
  EXPECT_THAT(DecodeRequest(R"({"seq":1.5,"op":"stop"})", &seq),
              StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_THAT(DecodeRequest(R"({"seq":9223372036854775808,"op":"stop"})", &seq),
              StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_FALSE(seq.has_value());
  EXPECT_THAT(DecodeRequest(R"({"seq":4,"op":"fly"})", &seq),
              StatusIs(Outcome::kRefused, kUnknownOp));
  EXPECT_EQ(seq, 4);
  EXPECT_THAT(DecodeRequest(R"({"seq":5,"op":"stop","extra":1})", &seq),
              StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_EQ(seq, 5);
  EXPECT_THAT(DecodeRequest(R"({"seq":6,"op":"dispose"})", &seq),
              StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_THAT(DecodeRequest(R"({"seq":7,"op":"hello","protocol":1})", &seq),
              StatusIs(Outcome::kRefused, kMalformedMessage));
}

TEST(RequestCodec, ARepeatedMemberIsMalformedAtAnyDepth) {
  EXPECT_THAT(DecodeRequest(R"({"seq":1,"seq":2,"op":"stop"})", nullptr),
              StatusIs(Outcome::kRefused, kMalformedMessage));
  const std::string line = EncodeRequest(Request{2, AcquireRequest{}});
  std::string twice = line.substr(0, line.size() - 1);
  twice.replace(twice.find("\"call_id\""), 0, "\"call_id\":\"x\",");
  EXPECT_THAT(DecodeRequest(twice, nullptr), StatusIs(Outcome::kRefused, kMalformedMessage));
}

TEST(RequestCodec, UnknownSpecNamesAndBadPortsAreMalformed) {
  const std::string line = EncodeRequest(
      Request{2, AcquireRequest{sandbox::Spec{}, {}, sandbox::EgressUpstream{"h", 443, ""}}});
  auto with = [&](const std::string& from, const std::string& to) {
    std::string changed = line.substr(0, line.size() - 1);
    changed.replace(changed.find(from), from.size(), to);
    return DecodeRequest(changed, nullptr);
  };
  EXPECT_THAT(with("\"container\"", "\"jail\""), StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_THAT(with("\"conversation\"", "\"forever\""),
              StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_THAT(with("443", "70000"), StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_THAT(with("\"requires\":[]", "\"requires\":[\"FLY\"]"),
              StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_THAT(with(",\"egress_upstream\":{\"host\":\"h\",\"port\":443,\"ca_pem\":\"\"}",
                   ",\"egress_upstream\":null"),
              IsOk());
}

TEST(ResponseCodec, HelloMapsTheDeclaration) {
  HelloResponse hello;
  hello.backend = {"docker-adapter", "0.3.1"};
  hello.declaration.os_families = {sandbox::OsFamily::kPosix};
  hello.declaration.isolation = sandbox::Isolation::kContainer;
  hello.declaration.capabilities = {sandbox::Capability::kExec,
                                    sandbox::Capability::kEgressMethods};
  hello.declaration.egress_modes = {sandbox::Egress::kAllowlist};
  hello.declaration.egress_method_tokens = std::set<std::string>{"GET"};
  hello.declaration.bounded_exec = true;
  const std::string line = EncodeResponse(Response{1, Status(), hello});
  EXPECT_EQ(
      line,
      "{\"seq\":1,\"ok\":true,\"protocol\":\"azure-pricing-backend/1\",\"backend\":{\"name\":"
      "\"docker-adapter\",\"version\":\"0.3.1\"},\"declaration\":{\"os_families\":[\"posix\"],"
      "\"isolation\":\"container\",\"capabilities\":[\"EXEC\",\"EGRESS_METHODS\"],"
      "\"egress_modes\":[\"allowlist\"],\"egress_method_tokens\":[\"GET\"],"
      "\"bounded_exec\":true}}\n");
  StatusOr<Response> back = DecodeResponse(line, Op::kHello);
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(back->seq, 1);
  const auto& got = std::get<HelloResponse>(back->body);
  EXPECT_EQ(got.backend.name, "docker-adapter");
  EXPECT_EQ(got.backend.version, "0.3.1");
  EXPECT_EQ(got.declaration.name, "docker-adapter");
  EXPECT_EQ(got.declaration.isolation, sandbox::Isolation::kContainer);
  EXPECT_EQ(got.declaration.capabilities, hello.declaration.capabilities);
  EXPECT_EQ(got.declaration.egress_modes, hello.declaration.egress_modes);
  EXPECT_EQ(got.declaration.egress_method_tokens, hello.declaration.egress_method_tokens);
  EXPECT_TRUE(got.declaration.bounded_exec);
}

TEST(ResponseCodec, AbsentMethodTokensMeanEveryTokenAndEmptyMeansNone) {
  HelloResponse hello;
  hello.declaration.egress_method_tokens.reset();
  std::string line = EncodeResponse(Response{1, Status(), hello});
  EXPECT_THAT(line, Not(HasSubstr("egress_method_tokens")));
  StatusOr<Response> back = DecodeResponse(line, Op::kHello);
  ASSERT_THAT(back, IsOk());
  EXPECT_FALSE(std::get<HelloResponse>(back->body).declaration.egress_method_tokens.has_value());
  hello.declaration.egress_method_tokens = std::set<std::string>{};
  back = DecodeResponse(EncodeResponse(Response{1, Status(), hello}), Op::kHello);
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(std::get<HelloResponse>(back->body).declaration.egress_method_tokens,
            std::set<std::string>{});
}

TEST(ResponseCodec, AMisspelledDeclarationMemberIsAnErrorNotAnAbsence) {
  const std::string line =
      R"({"seq":1,"ok":true,"protocol":"azure-pricing-backend/1","backend":{"name":"n",)"
      R"("version":"v"},"declaration":{"os_families":["posix"],"isolation":"container",)"
      R"("capabilities":[],"egress_modes":["closed"],"egress_methods_tokens":["GET"],)"
      R"("bounded_exec":false}})";
  EXPECT_THAT(DecodeResponse(line, Op::kHello), StatusIs(Outcome::kFailed, kAdapterProtocolError));
}

TEST(ResponseCodec, AnotherVersionIsAMismatch) {
  HelloResponse hello;
  hello.protocol = "azure-pricing-backend/2";
  EXPECT_THAT(DecodeResponse(EncodeResponse(Response{1, Status(), hello}), Op::kHello),
              StatusIs(Outcome::kRefused, kProtocolMismatch));
}

TEST(ResponseCodec, ExecOutputIsAnyBytes) {
  std::string every_byte;
  for (int c = 0; c < 256; ++c) every_byte.push_back(static_cast<char>(c));
  for (size_t len = 0; len <= 7; ++len) {
    sandbox::ExecResult result{every_byte.substr(0, len), every_byte.substr(250), -3};
    StatusOr<Response> back =
        DecodeResponse(EncodeResponse(Response{3, Status(), result}), Op::kExecBounded);
    ASSERT_THAT(back, IsOk());
    const auto& got = std::get<sandbox::ExecResult>(back->body);
    EXPECT_EQ(got.stdout_bytes, result.stdout_bytes);
    EXPECT_EQ(got.stderr_bytes, result.stderr_bytes);
    EXPECT_EQ(got.exit_code, -3);
  }
  sandbox::ExecResult all{every_byte, "", 0};
  StatusOr<Response> back =
      DecodeResponse(EncodeResponse(Response{3, Status(), all}), Op::kExecBounded);
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(std::get<sandbox::ExecResult>(back->body).stdout_bytes, every_byte);
  EXPECT_EQ(EncodeResponse(Response{3, Status(), sandbox::ExecResult{"hi\n", "", 0}}),
            "{\"seq\":3,\"ok\":true,\"exit_code\":0,\"stdout_base64\":\"aGkK\","
            "\"stderr_base64\":\"\"}\n");
}

TEST(ResponseCodec, BadBase64IsAProtocolError) {
  for (const char* b64 : {"aGk", "aG!K", "a===", "====x"}) {
    const std::string line = std::string(R"({"seq":3,"ok":true,"exit_code":0,"stdout_base64":")") +
                             b64 + R"(","stderr_base64":""})";
    EXPECT_THAT(DecodeResponse(line, Op::kExecBounded),
                StatusIs(Outcome::kFailed, kAdapterProtocolError))
        << b64;
  }
}

TEST(ResponseCodec, BackendReasonsSurviveWithOurOwnFixedMessages) {
  for (Reason reason : {sandbox::kExecTimeoutReason, sandbox::kExecOutputLimitReason}) {
    const Status sent(Outcome::kFailed, reason, "the backend's own words");
    const std::string line = EncodeResponse(Response{3, sent, {}});
    EXPECT_THAT(line, HasSubstr("\"message\":\"the backend's own words\""));
    StatusOr<Response> back = DecodeResponse(line, Op::kExecBounded);
    ASSERT_THAT(back, IsOk());
    EXPECT_THAT(back->error, StatusIs(Outcome::kFailed, reason, Not(HasSubstr("own words"))));
  }
  StatusOr<Response> refused = DecodeResponse(
      EncodeResponse(
          Response{2, Status(Outcome::kRefused, sandbox::kEgressRedirectUnsupported, "no"), {}}),
      Op::kAcquire);
  ASSERT_THAT(refused, IsOk());
  EXPECT_THAT(refused->error, StatusIs(Outcome::kRefused, sandbox::kEgressRedirectUnsupported));
}

TEST(ResponseCodec, AnUnknownReasonKeepsItsOutcomeOnly) {
  const std::string line =
      R"({"seq":2,"ok":false,"error":{"outcome":"refused","reason":"quota <script>",)"
      R"("message":"secret stuff"}})";
  StatusOr<Response> back = DecodeResponse(line, Op::kAcquire);
  ASSERT_THAT(back, IsOk());
  EXPECT_THAT(back->error, StatusIs(Outcome::kRefused, kBackendError, Not(HasSubstr("secret"))));
}

TEST(ResponseCodec, ErrorAnswersMayHaveANullSeq) {
  const std::string line = EncodeResponse(
      Response{std::nullopt, StatusForReason(Outcome::kRefused, kMalformedMessage), {}});
  EXPECT_THAT(line, HasSubstr("{\"seq\":null,\"ok\":false,\"error\":{\"outcome\":\"refused\","
                              "\"reason\":\"malformed_message\""));
  StatusOr<Response> back = DecodeResponse(line, Op::kStop);
  ASSERT_THAT(back, IsOk());
  EXPECT_FALSE(back->seq.has_value());
  EXPECT_THAT(back->error, StatusIs(Outcome::kRefused, kMalformedMessage));
}

TEST(ResponseCodec, WrongShapesAreProtocolErrors) {
  for (const char* line : {"", "garbage", "[]", R"({"ok":true})", R"({"seq":1})",
                           R"({"seq":1,"ok":"yes"})", R"({"seq":1,"ok":true,"extra":0})",
                           R"({"seq":1,"ok":false,"error":{"outcome":"blocked","reason":"x",)"
                           R"("message":""}})",
                           R"({"seq":1,"ok":false,"error":{"outcome":"failed","reason":"",)"
                           R"("message":""}})",
                           R"({"seq":1,"ok":false})"}) {
    EXPECT_THAT(DecodeResponse(line, Op::kStop), StatusIs(Outcome::kFailed, kAdapterProtocolError))
        << line;
  }
  EXPECT_THAT(DecodeResponse(R"({"seq":2,"ok":true,"sandbox":""})", Op::kAcquire),
              StatusIs(Outcome::kFailed, kAdapterProtocolError));
}

TEST(ResponseCodec, NonUtf8TextIsReplacedNotThrown) {
  HelloResponse hello;
  hello.backend = {"bad\xff name", "1"};
  const std::string line = EncodeResponse(Response{1, Status(), hello});
  StatusOr<Response> back = DecodeResponse(line, Op::kHello);
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(std::get<HelloResponse>(back->body).backend.name, "bad\xEF\xBF\xBD name");
}

}  // namespace
}  // namespace azure_pricing::conformance::backend::protocol
