// The real azmcp 3.0.0-beta.46 (the npm tarball tools/bazel caches, named by AZURE_PRICING_AZMCP)
// through the GET-only egress proxy to the fake price API: the lookup succeeds with the injected
// SSL_CERT_FILE, the CLI's telemetry is refused at CONNECT without breaking it, the upstream sees
// only the one GET, and without the egress CA the CLI refuses the proxy (verification stays on).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fakes/prices_server/sample_rows.h"
#include "fakes/testing/run_program.h"
#include "fakes/testing/server_process.h"
#include "gtest/gtest.h"
#include "ref/base/test_tmpdir.h"
#include "ref/egress/proxy.h"
#include "ref/egress/reasons.h"

namespace azure_pricing::egress {
namespace {

using Json = nlohmann::json;

fakes::test_support::ProgramRun RunCli(const std::string& azmcp,
                                       const std::vector<std::string>& env) {
  return fakes::test_support::RunProgram(
      {azmcp, "pricing", "get", "--sku", "Standard_D4s_v5", "--region", "westeurope"}, env);
}

class RealCliTest : public ::testing::Test {
 protected:
  RealCliTest() : upstream_(fakes::prices::kD4sV5WestEuropeRow) {}
  void SetUp() override {
    const char* azmcp = std::getenv("AZURE_PRICING_AZMCP");
    ASSERT_TRUE(azmcp != nullptr && access(azmcp, X_OK) == 0)
        << "AZURE_PRICING_AZMCP does not name the real azmcp; the test's BUILD rule sets it to "
           "@azmcp "
           "(tools/build/azmcp.bzl: the version tools/image/azmcp-version names, checked by sha256).";
    azmcp_ = azmcp;
    ProxyOptions options;
    options.upstream_host = "127.0.0.1";
    options.upstream_port = upstream_.port();
    options.upstream_ca_file = upstream_.ca_file();
    options.log = [this](const std::string& l) {
      std::lock_guard<std::mutex> lock(mu_);
      log_.push_back(l);
    };
    proxy_ = std::make_unique<EgressProxy>(options);
    ASSERT_TRUE(proxy_->Start().ok());
    const std::string& dir = base::TestTmpDir();
    ca_file_ = dir + "/egress-ca.pem";
    std::ofstream(ca_file_) << proxy_->egress_ca_pem();
    home_ = dir + "/home";
    mkdir(home_.c_str(), 0700);
  }

  std::vector<std::string> Env(bool with_ca) const {
    std::vector<std::string> env = {
        "HOME=" + home_, "PATH=/usr/bin:/bin", "LANG=C.UTF-8",
        "HTTPS_PROXY=http://127.0.0.1:" + std::to_string(proxy_->port())};
    if (with_ca) env.push_back("SSL_CERT_FILE=" + ca_file_);
    return env;  // telemetry left on: the proxy must refuse it without breaking the lookup
  }

  std::vector<std::string> Log() {
    std::lock_guard<std::mutex> lock(mu_);
    return log_;
  }

  fakes::test_support::PricesServerProcess upstream_;
  std::unique_ptr<EgressProxy> proxy_;
  std::string azmcp_, ca_file_, home_;
  std::mutex mu_;
  std::vector<std::string> log_;
};

TEST_F(RealCliTest, LookupSucceedsThroughTheProxyAndTelemetryIsRefused) {
  fakes::test_support::ProgramRun run = RunCli(azmcp_, Env(/*with_ca=*/true));
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_EQ(run.err, "");
  Json envelope = Json::parse(run.out, nullptr, false);
  ASSERT_FALSE(envelope.is_discarded()) << run.out;
  EXPECT_EQ(envelope["status"], 200);
  ASSERT_EQ(envelope["results"]["prices"].size(), 1u);
  EXPECT_EQ(envelope["results"]["prices"][0]["meterId"], "m-1");
  Json requests = Json::parse(upstream_.RequestLog());
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0]["method"], "GET");
  EXPECT_EQ(requests[0]["target"],
            "/api/retail/prices?currencyCode=USD&$filter=armSkuName%20eq%20%27Standard_D4s_v5%27"
            "%20and%20armRegionName%20eq%20%27westeurope%27");
  bool forwarded = false;
  for (const std::string& line : Log()) {
    const bool this_forwarded =
        line.find(std::string("decision=") + kRequestForwarded + " ") != std::string::npos;
    forwarded = forwarded || this_forwarded;
    // Anything else the CLI tried (its telemetry) was refused at CONNECT.
    EXPECT_TRUE(this_forwarded || line.find(std::string("decision=") + kHostNotAllowed +
                                            " stage=connect") != std::string::npos)
        << line;
  }
  EXPECT_TRUE(forwarded);
}

TEST_F(RealCliTest, WithoutTheEgressCaTheCliRefusesTheProxy) {
  fakes::test_support::ProgramRun run = RunCli(azmcp_, Env(/*with_ca=*/false));
  EXPECT_NE(run.exit_code, 0);
  Json requests = Json::parse(upstream_.RequestLog());
  EXPECT_EQ(requests.size(), 0u);
}

}  // namespace
}  // namespace azure_pricing::egress
