#include "conformance/backend/protocol/server.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "fakes/sandbox/fake_backend.h"
#include "ref/base/test_tmpdir.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::backend::protocol {
namespace {

using Json = nlohmann::json;
using fakes::sandbox::FakeBackend;
using fakes::sandbox::PricingCapableDeclaration;

const BackendIdentity kIdentity{"fake", "1.0"};
const std::string kHello = R"({"seq":1,"op":"hello","protocol":"azure-pricing-backend/1"})";

std::string Acquire(int seq) {
  sandbox::Spec spec;
  spec.required = {sandbox::Capability::kExec};
  return EncodeRequest(Request{seq, AcquireRequest{spec, {"a", "s", "c"}, std::nullopt}});
}

std::string Stop(int seq) { return EncodeRequest(Request{seq, StopRequest{}}); }

std::string Exec(int seq, const std::string& sandbox, int64_t timeout = 5) {
  return EncodeRequest(
      Request{seq, ExecBoundedRequest{sandbox, {{"azmcp", "pricing", "get"}, {}, timeout, 100}}});
}

struct Served {
  int rc = -1;
  std::vector<Json> answers;
};

// Runs the server over files in TEST_TMPDIR: the input ends in EOF after the last byte.
Served Serve(sandbox::Backend& backend, const std::string& input,
             const ServeOptions& options = {}) {
  const std::string& dir = base::TestTmpDir();
  const std::string in_path = dir + "/server_in", out_path = dir + "/server_out";
  std::ofstream(in_path, std::ios::binary | std::ios::trunc) << input;
  const int in = open(in_path.c_str(), O_RDONLY | O_CLOEXEC);
  const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  Served served;
  served.rc = ServeBackend(backend, kIdentity, in, out, options);
  close(in);
  close(out);
  std::ifstream answers(out_path, std::ios::binary);
  std::string line;
  while (std::getline(answers, line)) served.answers.push_back(Json::parse(line));
  return served;
}

std::string Reason(const Json& answer) {
  if (!answer.contains("error")) return "";
  return answer["error"]["reason"].get<std::string>();
}

TEST(Server, AnswersEveryBadLineWithItsReasonAndKeepsServing) {
  FakeBackend backend(PricingCapableDeclaration());
  // Each line and the reason its answer must carry ("" for a success).
  const std::vector<std::pair<std::string, std::string>> script = {
      {"this is not json", kMalformedMessage},
      {"[1,2,3]", kMalformedMessage},
      {R"({"op":"hello"})", kMalformedMessage},
      {R"({"seq":1,"op":"stop"})", kNotStarted},
      {R"({"seq":2,"op":"teleport"})", kUnknownOp},
      {R"({"seq":2,"op":"hello","protocol":"x"})", kOutOfOrder},
      {R"({"seq":3,"op":"hello","protocol":"azure-pricing-backend/0"})", kProtocolMismatch},
      {R"({"seq":4,"op":"hello","protocol":"azure-pricing-backend/1"})", ""},
      {R"({"seq":5,"op":"hello","protocol":"azure-pricing-backend/1"})", kAlreadyStarted},
      {R"({"seq":6,"op":"dispose","sandbox":"nope"})", kUnknownSandbox},
      {R"({"seq":7,"op":"dispose","sandbox":"caf\u00e9","x":1})", kMalformedMessage},
      {"{\"seq\":8,\"op\":\"dispose\",\"sandbox\":\"\xff\xfe\"}", kMalformedMessage},
      {"\xc3\x28", kMalformedMessage},
      {R"({"seq":9,"op":"stop"})", ""},
  };
  std::string input;
  for (const auto& [line, reason] : script) input += line + "\n";
  const Served s = Serve(backend, input);
  ASSERT_EQ(s.answers.size(), script.size());
  for (size_t i = 0; i < script.size(); ++i) {
    EXPECT_EQ(Reason(s.answers[i]), script[i].second) << script[i].first;
  }
  EXPECT_TRUE(s.answers[0]["seq"].is_null());
  EXPECT_TRUE(s.answers[2]["seq"].is_null());
  EXPECT_EQ(s.answers[3]["seq"], 1);
  EXPECT_EQ(s.answers[5]["seq"], 2);
  EXPECT_TRUE(s.answers[11]["seq"].is_null()) << "not UTF-8, so not JSON: its seq is unreadable";
  EXPECT_EQ(s.answers[3]["error"]["outcome"], "refused");
  EXPECT_EQ(s.answers[13], Json::parse(R"({"seq":9,"ok":true})"));
  EXPECT_EQ(s.rc, 0);
}

TEST(Server, ErrorMessagesAreFixedTextNeverTheLine) {
  FakeBackend backend(PricingCapableDeclaration());
  const Served s = Serve(backend, "{\"secret-token\": 1}\nsecret-token\n");
  ASSERT_EQ(s.answers.size(), 2u);
  for (const Json& a : s.answers) {
    EXPECT_EQ(a.dump().find("secret"), std::string::npos) << a.dump();
    EXPECT_FALSE(a["error"]["message"].get<std::string>().empty());
  }
}

TEST(Server, HelloDeclaresWhatTheBackendDeclares) {
  FakeBackend backend(PricingCapableDeclaration());
  const Served s = Serve(backend, kHello + "\n");
  ASSERT_EQ(s.answers.size(), 1u);
  EXPECT_EQ(s.answers[0], Json::parse(R"({"seq":1,"ok":true,"protocol":"azure-pricing-backend/1",
      "backend":{"name":"fake","version":"1.0"},
      "declaration":{"os_families":["posix"],"isolation":"container",
        "capabilities":["EXEC","EGRESS_METHODS"],"egress_modes":["closed","allowlist"],
        "egress_method_tokens":["GET"],"bounded_exec":true}})"));
  EXPECT_EQ(s.rc, 1);  // EOF without stop
}

TEST(Server, AcquireExecDispose) {
  FakeBackend backend(PricingCapableDeclaration());
  backend.Script({.exec = {.stdout_bytes = std::string("out\0\xff", 5), .exit_code = 3}});
  const std::string dispose = R"({"seq":4,"op":"dispose","sandbox":"sandbox-1"})";
  const std::string again = R"({"seq":5,"op":"dispose","sandbox":"sandbox-1"})";
  const Served s = Serve(
      backend, kHello + "\n" + Acquire(2) + Exec(3, "sandbox-1") + dispose + "\n" + again + "\n");
  ASSERT_EQ(s.answers.size(), 5u);
  EXPECT_EQ(s.answers[1], Json::parse(R"({"seq":2,"ok":true,"sandbox":"sandbox-1"})"));
  EXPECT_EQ(s.answers[2], Json::parse(R"({"seq":3,"ok":true,"exit_code":3,
      "stdout_base64":"b3V0AP8=","stderr_base64":""})"));
  EXPECT_EQ(s.answers[3], Json::parse(R"({"seq":4,"ok":true})"));
  EXPECT_EQ(Reason(s.answers[4]), kUnknownSandbox);
  ASSERT_EQ(backend.acquires().size(), 1u);
  EXPECT_EQ(backend.acquires()[0].key.call_id, "c");
  ASSERT_EQ(backend.execs().size(), 1u);
  EXPECT_TRUE(backend.execs()[0].bounded);
  EXPECT_EQ(backend.execs()[0].request.argv[0], "azmcp");
  EXPECT_EQ(backend.execs()[0].request.max_output_bytes, 100);
  EXPECT_EQ(backend.live(), 0);
}

TEST(Server, BackendFailuresKeepTheirReason) {
  FakeBackend backend(PricingCapableDeclaration());
  backend.Script({.exec = {.delay_ms = 2000}});
  backend.Script({.exec = {.stdout_bytes = std::string(101, 'x')}});
  backend.Script({.fail_acquire = true});
  const Served s = Serve(backend, kHello + "\n" + Acquire(2) + Exec(3, "sandbox-1", 2) +
                                      Acquire(4) + Exec(5, "sandbox-2") + Acquire(6));
  ASSERT_EQ(s.answers.size(), 6u);
  EXPECT_EQ(s.answers[2]["error"], Json::parse(R"({"outcome":"failed","reason":"timeout",
      "message":"Timed out."})"));
  EXPECT_EQ(Reason(s.answers[4]), sandbox::kExecOutputLimitReason);
  EXPECT_EQ(Reason(s.answers[5]), fakes::sandbox::kFakeAcquireFailed);
  EXPECT_EQ(backend.live(), 0) << "EOF disposes what the client left live";
  EXPECT_EQ(backend.disposals(), 2);
}

TEST(Server, StopDisposesWhatIsLiveAndEndsTheLoop) {
  FakeBackend backend(PricingCapableDeclaration());
  const Served s = Serve(backend, kHello + "\n" + Acquire(2) + Acquire(3) + Stop(4) + Acquire(5));
  ASSERT_EQ(s.answers.size(), 4u) << "nothing after stop is read";
  EXPECT_EQ(s.answers[3], Json::parse(R"({"seq":4,"ok":true})"));
  EXPECT_EQ(s.rc, 0);
  EXPECT_EQ(backend.acquisitions(), 2);
  EXPECT_EQ(backend.live(), 0);
}

TEST(Server, ASandboxWithoutBoundedExecCannotExec) {
  FakeBackend backend(PricingCapableDeclaration());
  backend.SetWithholdBoundedExec(true);
  const Served s = Serve(backend, kHello + "\n" + Acquire(2) + Exec(3, "sandbox-1"));
  ASSERT_EQ(s.answers.size(), 3u);
  EXPECT_EQ(Reason(s.answers[2]), kBoundedExecUnavailable);
  EXPECT_TRUE(backend.execs().empty());
}

TEST(Server, AnUpstreamTheBackendCannotUseFailsTheAcquireBeforeItHappens) {
  FakeBackend backend(PricingCapableDeclaration());
  const std::string acquire = EncodeRequest(
      Request{2, AcquireRequest{{}, {}, sandbox::EgressUpstream{"127.0.0.1", 8443, "pem"}}});
  const Served s = Serve(backend, kHello + "\n" + acquire);
  ASSERT_EQ(s.answers.size(), 2u);
  EXPECT_EQ(Reason(s.answers[1]), sandbox::kEgressRedirectUnsupported);
  EXPECT_EQ(backend.acquire_attempts(), 0);
}

// Records the redirect, then behaves like the fake backend.
class RedirectingBackend : public FakeBackend {
 public:
  RedirectingBackend() : FakeBackend(PricingCapableDeclaration()) {}
  Status RedirectEgress(const sandbox::EgressUpstream& upstream) override {
    redirects.push_back(upstream);
    redirected_before_acquire = acquire_attempts() == 0;
    return OkStatus();
  }
  std::vector<sandbox::EgressUpstream> redirects;
  bool redirected_before_acquire = false;
};

TEST(Server, AnUpstreamIsRedirectedBeforeTheAcquire) {
  RedirectingBackend backend;
  const std::string acquire = EncodeRequest(
      Request{2, AcquireRequest{{}, {}, sandbox::EgressUpstream{"127.0.0.1", 8443, "pem"}}});
  const Served s = Serve(backend, kHello + "\n" + acquire);
  ASSERT_EQ(s.answers.size(), 2u);
  EXPECT_EQ(s.answers[1]["ok"], true);
  ASSERT_EQ(backend.redirects.size(), 1u);
  EXPECT_EQ(backend.redirects[0].port, 8443);
  EXPECT_EQ(backend.redirects[0].ca_pem, "pem");
  EXPECT_TRUE(backend.redirected_before_acquire);
}

class ThrowingBackend : public FakeBackend {
 public:
  ThrowingBackend() : FakeBackend(PricingCapableDeclaration()) {}
  StatusOr<std::unique_ptr<sandbox::Sandbox>> Acquire(const sandbox::Spec&,
                                                      const sandbox::SandboxKey&) override {
    throw std::runtime_error("boom");
  }
};

TEST(Server, ABackendThatThrowsFailsTheCallNotTheServer) {
  ThrowingBackend backend;
  const Served s = Serve(backend, kHello + "\n" + Acquire(2) + Stop(3));
  ASSERT_EQ(s.answers.size(), 3u);
  EXPECT_EQ(s.answers[1]["error"]["outcome"], "failed");
  EXPECT_EQ(Reason(s.answers[1]), kBackendException);
  EXPECT_EQ(s.rc, 0);
}

TEST(Server, AnOversizedLineIsSkippedAndAnswered) {
  FakeBackend backend(PricingCapableDeclaration());
  std::string at_limit(kMaxLineBytes, ' ');
  at_limit.replace(0, kHello.size(), kHello);  // JSON with trailing spaces: exactly the limit
  const std::string over = "{\"seq\":1,\"pad\":\"" + std::string(kMaxLineBytes, 'x') + "\"}";
  const Served s = Serve(backend, over + "\n" + at_limit + "\n" + Stop(2));
  ASSERT_EQ(s.answers.size(), 3u);
  EXPECT_EQ(Reason(s.answers[0]), kMessageTooLong);
  EXPECT_TRUE(s.answers[0]["seq"].is_null());
  EXPECT_EQ(s.answers[1]["ok"], true) << "a line of exactly the limit is read";
  EXPECT_EQ(s.answers[2], Json::parse(R"({"seq":2,"ok":true})"));
}

TEST(Server, AnOversizedLastLineWithoutNewlineIsAnswered) {
  FakeBackend backend(PricingCapableDeclaration());
  const Served s = Serve(backend, std::string(kMaxLineBytes + 10, 'x'));
  ASSERT_EQ(s.answers.size(), 1u);
  EXPECT_EQ(Reason(s.answers[0]), kMessageTooLong);
  EXPECT_EQ(s.rc, 1);
}

TEST(Server, APartialLastLineIsAnswered) {
  FakeBackend backend(PricingCapableDeclaration());
  const Served s = Serve(backend, kHello);
  ASSERT_EQ(s.answers.size(), 1u);
  EXPECT_EQ(s.answers[0]["ok"], true);
}

// The lax mode exists for the conformance suite's lax_protocol mutant: it must really serve
// what the strict mode refuses, or the probes aimed at it would prove nothing.
TEST(Server, TheLaxModeServesWhatTheStrictModeRefuses) {
  const std::vector<std::string> script = {
      kHello,
      R"({"seq":2,"op":"acquire","x":1,"spec":{"os_family":"posix","min_isolation":"container",)"
      R"("requires":["EXEC"],"egress":"closed","egress_allow":[],"isolation_scope":"call",)"
      R"("cleanup":"dispose","image":"i","y":2},"key":{"agent_id":"a","session_id":"s",)"
      R"("call_id":"c"}})",
      R"({"seq":2,"op":"dispose","sandbox":"sandbox-1"})",  // a replayed seq
      R"({"seq":1,"op":"dispose","sandbox":"nope","extra":true})",  // out of order, unknown
      R"({"seq":1,"op":"stop"})",  // a replayed stop
  };
  std::string input;
  for (const std::string& line : script) input += line + "\n";
  FakeBackend strict_backend(PricingCapableDeclaration());
  const Served strict = Serve(strict_backend, input);
  ASSERT_EQ(strict.answers.size(), 5u);
  EXPECT_EQ(Reason(strict.answers[1]), kMalformedMessage);
  EXPECT_EQ(Reason(strict.answers[2]), kOutOfOrder);
  EXPECT_EQ(Reason(strict.answers[3]), kOutOfOrder);
  EXPECT_EQ(Reason(strict.answers[4]), kOutOfOrder);
  EXPECT_EQ(strict.rc, 1);
  FakeBackend lax_backend(PricingCapableDeclaration());
  const Served lax = Serve(lax_backend, input, {.lax = true});
  ASSERT_EQ(lax.answers.size(), 5u);
  EXPECT_EQ(lax.answers[1], Json::parse(R"({"seq":2,"ok":true,"sandbox":"sandbox-1"})"));
  EXPECT_EQ(lax.answers[2], Json::parse(R"({"seq":2,"ok":true})"));
  EXPECT_EQ(Reason(lax.answers[3]), kUnknownSandbox);
  EXPECT_EQ(lax.answers[4], Json::parse(R"({"seq":1,"ok":true})"));
  EXPECT_EQ(lax.rc, 0);
  ASSERT_EQ(lax_backend.acquires().size(), 1u);
  EXPECT_EQ(lax_backend.acquires()[0].spec.image, "i");
}

// The loose_error_answers mutant's answers: error answers without "ok", everything else as the
// strict server writes it, so the probe aimed at it judges the shape and nothing else.
TEST(Server, LooseErrorAnswersLackOkAndNothingElse) {
  const std::string input = R"({"seq":1,"op":"dispose","sandbox":"x"})"
                            "\n"
                            R"({"seq":2,"op":"hello","protocol":"azure-pricing-backend/1"})"
                            "\n";
  FakeBackend strict_backend(PricingCapableDeclaration());
  const Served strict = Serve(strict_backend, input);
  FakeBackend loose_backend(PricingCapableDeclaration());
  const Served loose = Serve(loose_backend, input, {.loose_error_answers = true});
  ASSERT_EQ(strict.answers.size(), 2u);
  ASSERT_EQ(loose.answers.size(), 2u);
  Json expected = strict.answers[0];
  ASSERT_EQ(expected.erase("ok"), 1u);
  EXPECT_EQ(loose.answers[0], expected);
  EXPECT_EQ(Reason(loose.answers[0]), kNotStarted);
  EXPECT_EQ(loose.answers[1], strict.answers[1]);  // an ok answer keeps "ok": true
  EXPECT_EQ(loose.answers[1]["ok"], true);
}

TEST(Server, ABrokenOutputEndsTheLoopWithoutASignal) {
  FakeBackend backend(PricingCapableDeclaration());
  int in[2], out[2];
  ASSERT_EQ(pipe2(in, O_CLOEXEC), 0);
  ASSERT_EQ(pipe2(out, O_CLOEXEC), 0);
  close(out[0]);  // nobody reads the answers
  const std::string input = kHello + "\n" + Acquire(2);
  ASSERT_EQ(write(in[1], input.data(), input.size()), static_cast<ssize_t>(input.size()));
  EXPECT_EQ(ServeBackend(backend, kIdentity, in[0], out[1]), 1);
  close(in[0]);
  close(in[1]);
  close(out[1]);
  EXPECT_EQ(backend.acquisitions(), 0);
}

}  // namespace
}  // namespace azure_pricing::conformance::backend::protocol
