// Real transport failures on the egress path, end to end: the real azmcp 3.0.0-beta.46 runs
// through the GET-only egress proxy to the fake price API while the connection is reset, the
// proxy refuses connections, or the CLI is given a CA that did not sign the proxy's leaf (TLS
// verification stays on, so it refuses). What the CLI printed and its exit status are then what
// the sandbox returns to the reference tool, which must fail closed: outcome `failed`, no price
// report. A run without faults is the control that completes. The real binary comes from
// AZURE_PRICING_AZMCP (tools/bazel installs it); without it the test fails and says so.
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "conformance/citations/cites.h"
#include "conformance/host/scripted_host.h"
#include "fakes/azmcp/differential_rig.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/pricing/reasons.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::host {
CITES("HOST-013", "HOST-014", "BOUND-012");
namespace {

using fakes::azmcp::DifferentialRig;
using fakes::azmcp::Outcome;
using fakes::azmcp::Scenario;

class EgressFailuresTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { rig_ = new DifferentialRig(fakes::azmcp::TestScenarios().file); }
  static void TearDownTestSuite() { delete rig_; }

  // Runs the real CLI for the tool's arguments with `faults` and `env`, then hands its output to
  // the reference tool as the sandbox's exec result.
  CallReport Through(const std::string& faults, const std::vector<std::string>& env,
                     Outcome* cli = nullptr) {
    const char* real = std::getenv("AZURE_PRICING_AZMCP");
    EXPECT_TRUE(real != nullptr && access(real, X_OK) == 0)
        << "AZURE_PRICING_AZMCP does not name the real azmcp; the test's BUILD rule sets it to "
           "@azmcp "
           "(tools/build/azmcp.bzl: the version tools/image/azmcp-version names, checked by sha256).";
    EXPECT_TRUE(rig_->ok());
    if (real == nullptr || !rig_->ok()) return {};
    Scenario s;
    s.name = "egress failure";
    s.args = {"--sku", "Standard_D8s_v5"};
    s.faults_json = faults;
    const Outcome o = rig_->Run(real, s, env);
    EXPECT_EQ(o.rig_error, "");
    EXPECT_FALSE(o.timed_out);
    if (cli != nullptr) *cli = o;
    ScriptedCall call;
    call.arguments = R"({"sku":"Standard_D8s_v5"})";
    call.scripts = {
        {.exec = {.stdout_bytes = o.raw_out, .stderr_bytes = o.err, .exit_code = o.exit_code}}};
    auto report = RunScriptedCall(call);
    EXPECT_THAT(report, IsOk());
    return report.ok() ? *report : CallReport{};
  }

  static DifferentialRig* rig_;
};

DifferentialRig* EgressFailuresTest::rig_ = nullptr;

TEST_F(EgressFailuresTest, ControlRunCompletes) {
  Outcome cli;
  const CallReport r = Through("", {}, &cli);
  EXPECT_EQ(cli.exit_code, 0);
  EXPECT_EQ(cli.requests.size(), 1u);
  EXPECT_EQ(r.outcome, azure_pricing::Outcome::kCompleted) << r.reason;
  EXPECT_TRUE(r.output.has_value());
}

TEST_F(EgressFailuresTest, ConnectionResetsFailClosed) {
  Outcome cli;
  const CallReport r = Through(R"([{"reset":true,"times":4}])", {}, &cli);
  EXPECT_EQ(cli.exit_code, 1);
  EXPECT_EQ(cli.requests.size(), 4u);  // the CLI's own retries
  EXPECT_EQ(r.outcome, azure_pricing::Outcome::kFailed);
  // The tool read the CLI's error envelope, not garbage.
  EXPECT_NE(r.reason, reasons::kMalformedEnvelope);
  EXPECT_FALSE(r.output.has_value());
  EXPECT_EQ(r.sandbox_disposals, r.sandbox_acquisitions);
}

TEST_F(EgressFailuresTest, TruncatedResponsesFailClosed) {
  Outcome cli;
  const CallReport r = Through(R"([{"truncate":10,"times":4}])", {}, &cli);
  EXPECT_EQ(cli.exit_code, 1);
  EXPECT_EQ(cli.requests.size(), 4u);
  EXPECT_EQ(r.outcome, azure_pricing::Outcome::kFailed);
  // The tool read the CLI's error envelope, not garbage.
  EXPECT_NE(r.reason, reasons::kMalformedEnvelope);
  EXPECT_FALSE(r.output.has_value());
}

TEST_F(EgressFailuresTest, ARefusedProxyConnectionFailsClosed) {
  Outcome cli;
  // Port 1 on loopback: nothing listens there, so every connect is refused.
  const CallReport r = Through("", {"HTTPS_PROXY=http://127.0.0.1:1"}, &cli);
  EXPECT_EQ(cli.exit_code, 1);
  EXPECT_TRUE(cli.requests.empty());
  EXPECT_EQ(r.outcome, azure_pricing::Outcome::kFailed);
  // The tool read the CLI's error envelope, not garbage.
  EXPECT_NE(r.reason, reasons::kMalformedEnvelope);
  EXPECT_FALSE(r.output.has_value());
}

TEST_F(EgressFailuresTest, AnUntrustedProxyCertificateFailsClosed) {
  // HOST-013/HOST-014: the CLI trusts exactly the CA it is given in SSL_CERT_FILE and does not
  // fall back or skip verification; with a CA that did not sign the proxy's leaf it sends nothing.
  Outcome cli;
  const CallReport r = Through("", {"SSL_CERT_FILE=" + rig_->unrelated_ca_file()}, &cli);
  EXPECT_EQ(cli.exit_code, 1);
  EXPECT_TRUE(cli.requests.empty());
  EXPECT_THAT(cli.out, testing::HasSubstr("SSL"));
  EXPECT_EQ(r.outcome, azure_pricing::Outcome::kFailed);
  // The tool read the CLI's error envelope, not garbage.
  EXPECT_NE(r.reason, reasons::kMalformedEnvelope);
  EXPECT_FALSE(r.output.has_value());
}

}  // namespace
}  // namespace azure_pricing::conformance::host
