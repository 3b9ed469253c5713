// The fake azmcp against the real azmcp 3.0.0-beta.46, both through the same GET-only egress
// proxy to the same fake price API: identical stdout apart from `duration`, identical stderr and
// exit codes, identical upstream request sequences. The real binary comes from
// AZURE_PRICING_AZMCP (tools/bazel installs it); without it the test fails and says so.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "fakes/egress_proxy/proxy.h"
#include "fakes/prices_server/catalog_generator.h"
#include "fakes/testing/run_program.h"
#include "fakes/testing/server_process.h"
#include "gtest/gtest.h"

namespace fakes::azmcp {
namespace {

using Json = nlohmann::json;

struct Outcome {
  int exit_code = -1;
  std::string out, err;
  std::vector<std::string> requests;  // method + target, in order
};

std::string Catalog() {
  std::string text;
  fakes::prices::GenerateCatalog(11, 14000, [&](const std::string& l) { text += l + "\n"; });
  return text;
}

struct Scenario {
  std::string name;
  std::vector<std::string> args;
  std::string faults;  // JSON array for the fake API, queued before each binary runs
  // Known differences must stay true, as in protobuf's conformance failure lists: a listed
  // scenario whose stdout starts to match fails too, so the list never goes stale.
  std::string known_difference;
};

class DifferentialTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    upstream_ = new fakes::testing::PricesServerProcess(Catalog());
    fakes::egress::ProxyOptions options;
    options.upstream_host = "127.0.0.1";
    options.upstream_port = upstream_->port();
    options.upstream_ca_file = upstream_->ca_file();
    options.log = [](const std::string&) {};
    proxy_ = new fakes::egress::EgressProxy(options);
    ASSERT_TRUE(proxy_->Start());
    dir_ = std::getenv("TEST_TMPDIR");
    std::ofstream(dir_ + "/egress-ca.pem") << proxy_->egress_ca_pem();
    mkdir((dir_ + "/home").c_str(), 0700);
  }
  static void TearDownTestSuite() {
    delete proxy_;
    delete upstream_;
  }

  Outcome Run(const std::string& binary, const Scenario& s) {
    EXPECT_TRUE(upstream_->Reset());
    if (!s.faults.empty()) {
      EXPECT_TRUE(upstream_->AddFaults(s.faults));
    }
    std::vector<std::string> args = {binary, "pricing", "get"};
    args.insert(args.end(), s.args.begin(), s.args.end());
    const fakes::testing::ProgramRun run = fakes::testing::RunProgram(
        args, {"HOME=" + dir_ + "/home", "PATH=/usr/bin:/bin", "LANG=C.UTF-8",
               "HTTPS_PROXY=http://127.0.0.1:" + std::to_string(proxy_->port()),
               "SSL_CERT_FILE=" + dir_ + "/egress-ca.pem", "AZURE_MCP_COLLECT_TELEMETRY=false",
               "AZURE_MCP_COLLECT_TELEMETRY_MICROSOFT=false"});
    // A hung CLI fails its scenario instead of the whole suite.
    if (run.timed_out) ADD_FAILURE() << binary << " did not finish within 60 s";
    Outcome o;
    o.exit_code = run.exit_code;
    o.out = std::regex_replace(run.out, std::regex("\"duration\": [0-9]+"), "\"duration\": N");
    o.err = run.err;
    for (const Json& r : Json::parse(upstream_->RequestLog())) {
      o.requests.push_back(r["method"].get<std::string>() + " " + r["target"].get<std::string>());
    }
    return o;
  }

  static fakes::testing::PricesServerProcess* upstream_;
  static fakes::egress::EgressProxy* proxy_;
  static std::string dir_;
};

fakes::testing::PricesServerProcess* DifferentialTest::upstream_ = nullptr;
fakes::egress::EgressProxy* DifferentialTest::proxy_ = nullptr;
std::string DifferentialTest::dir_;

std::string FakeBinary() {
  return std::string(std::getenv("TEST_SRCDIR")) + "/" + std::getenv("TEST_WORKSPACE") +
         "/fakes/azmcp/azmcp";
}

TEST_F(DifferentialTest, FakeMatchesTheRealCli) {
  const char* real = std::getenv("AZURE_PRICING_AZMCP");
  ASSERT_TRUE(real != nullptr && access(real, X_OK) == 0)
      << "AZURE_PRICING_AZMCP does not name the real azmcp. Run the tests through tools/bazel, "
         "which installs @azure/mcp-linux-x64@3.0.0-beta.46 and sets it.";
  const std::vector<Scenario> scenarios = {
      {"sku", {"--sku", "Standard_D8s_v5"}, ""},
      {"sku and region", {"--sku", "Standard_D8s_v5", "--region", "westeurope"}, ""},
      {"savings plan", {"--sku", "Standard_D4s_v5", "--include-savings-plan"}, ""},
      {"savings plan false", {"--sku", "Standard_D4s_v5", "--include-savings-plan", "false"}, ""},
      {"currency", {"--sku", "Standard_D2s_v5", "--currency", "EUR"}, ""},
      {"empty currency", {"--sku", "Standard_D2s_v5", "--currency", ""}, ""},
      {"quotes doubled", {"--sku", "O'Brien", "--region", "eastus"}, ""},
      {"every typed option",
       {"--sku", "Standard_D8s_v5", "--service", "Virtual Machines", "--region", "eastus",
        "--service-family", "Compute", "--price-type", "Consumption", "--currency", "USD"},
       ""},
      {"raw filter with or, no parentheses",
       {"--sku", "Standard_D8s_v5", "--filter",
        "armRegionName eq 'eastus' or armRegionName eq 'westus'"},
       ""},
      {"raw filter only", {"--filter", "serviceName eq 'Azure DNS'"}, ""},
      {"contains", {"--filter", "contains(meterName, 'Spot')"}, ""},
      {"price type alone", {"--price-type", "Reservation"}, ""},
      {"paging past 5,000 stops silently", {"--price-type", "Consumption"}, ""},
      {"two pages", {"--service-family", "Networking", "--region", "Global"}, ""},
      {"no match", {"--sku", "Standard_NOPE"}, ""},
      {"wrong case", {"--sku", "standard_d8s_v5", "--include-savings-plan"}, ""},
      {"validation: no filter", {}, ""},
      {"validation: empty sku", {"--sku", ""}, ""},
      {"validation: currency alone", {"--currency", "EUR"}, ""},
      {"validation: service without sku", {"--service", "Virtual Machines"}, ""},
      {"parse error", {"--bogus", "1"}, ""},
      {"upstream 400 unknown field", {"--filter", "termType eq '1 Year'"}, ""},
      {"upstream 400 bad price type", {"--price-type", "Spot"}, ""},
      {"upstream 400 lambda", {"--filter", "savingsPlan/any(t: t/term eq '1 Year')"}, ""},
      {"upstream 404 long url", {"--filter", "meterName eq '" + std::string(2100, 'x') + "'"}, ""},
      {"upstream 500 retried", {"--sku", "Standard_D8s_v5"}, R"([{"status":500,"times":4}])"},
      {"upstream 503 then success", {"--sku", "Standard_D8s_v5"}, R"([{"status":503,"times":2}])"},
      {"upstream 429 honours Retry-After",
       {"--sku", "Standard_D8s_v5"},
       R"([{"status":429,"retry_after":1,"times":2}])"},
      {"upstream 404 not retried", {"--sku", "Standard_D8s_v5"}, R"([{"status":404}])"},
      {"connection reset retried", {"--sku", "Standard_D8s_v5"}, R"([{"reset":true,"times":4}])"},
      {"reset then success", {"--sku", "Standard_D8s_v5"}, R"([{"reset":true}])"},
      {"foreign NextPageLink followed",
       {"--sku", "Standard_D8s_v5"},
       R"([{"next_page_link":"https://evil.example/api/retail/prices?$skip=1000"}])"},
      {"same-host NextPageLink",
       {"--sku", "Standard_D8s_v5"},
       R"([{"next_page_link":"https://prices.azure.com:443/api/retail/prices?currencyCode=USD&$filter=armSkuName%20eq%20%27Standard_NOPE%27"}])"},
      {"unknown service family",
       {"--sku", "x"},
       R"([{"body":"{\"Items\":[{\"serviceFamily\":\"Brand New Family\",\"type\":\"Consumption\"}],\"NextPageLink\":null,\"Count\":1}"}])"},
      {"unknown price type",
       {"--sku", "x"},
       R"([{"body":"{\"Items\":[{\"serviceFamily\":\"Compute\",\"type\":\"SavingsPlan\"}],\"NextPageLink\":null,\"Count\":1}"}])"},
      {"AI + Machine Learning drops all rows",
       {"--sku", "x"},
       R"([{"body":"{\"Items\":[{\"serviceFamily\":\"AI + Machine Learning\",\"type\":\"Consumption\"}],\"NextPageLink\":null,\"Count\":1}"}])"},
      {"empty page",
       {"--sku", "x"},
       R"([{"body":"{\"Items\":[],\"NextPageLink\":null,\"Count\":0}"}])"},
      {"service family member names", {"--service-family", "Networking", "--sku", ""}, ""},
      {"reservation terms", {"--price-type", "Reservation", "--sku", "Standard_D16s_v5"}, ""},
      {"devtest", {"--price-type", "DevTestConsumption", "--region", "eastus"}, ""},
      {"duplicate keys in a page",
       {"--sku", "x"},
       R"([{"body":"{\"Items\":[],\"Items\":[],\"NextPageLink\":null,\"Count\":0}"}])"},
      {"truncated body then success", {"--sku", "Standard_D8s_v5"}, R"([{"truncate":10}])"},
      {"NaN in a page",
       {"--sku", "x"},
       R"([{"body":"{\"Items\":[{\"serviceFamily\":\"Compute\",\"type\":\"Consumption\",\"retailPrice\":NaN}],\"NextPageLink\":null}"}])",
       "System.Text.Json's parse-error text (\"'N' is an invalid start of a value. LineNumber: 0 | "
       "BytePositionInLine: 72.\") is not reproduced; the fake fails with its own message"},
      {"invalid UTF-8 in an unknown field",
       {"--sku", "x"},
       R"([{"body_hex":"7b 22 49 74 65 6d 73 22 3a 5b 5d 2c 22 78 22 3a 22 c3 28 22 7d"}])",
       "the real CLI skips unknown fields without validating them and succeeds; the fake "
       "rejects the whole page"},
  };
  int matching = 0;
  for (const Scenario& s : scenarios) matching += s.known_difference.empty();
  ASSERT_GE(matching, 40);
  for (const Scenario& s : scenarios) {
    SCOPED_TRACE(s.name);
    const auto start = std::chrono::steady_clock::now();
    const Outcome want = Run(real, s);
    const Outcome got = Run(FakeBinary(), s);
    std::printf("scenario %-45s %6.1f s\n", s.name.c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    std::fflush(stdout);
    if (!s.known_difference.empty()) {
      EXPECT_NE(got.out, want.out) << "listed as a known difference but now matches: remove it";
      EXPECT_EQ(got.requests, want.requests);
      continue;
    }
    EXPECT_EQ(got.exit_code, want.exit_code);
    EXPECT_EQ(got.out, want.out);
    EXPECT_EQ(got.err, want.err);
    EXPECT_EQ(got.requests, want.requests);
  }
}

}  // namespace
}  // namespace fakes::azmcp
