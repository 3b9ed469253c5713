// The live check's judgements, on inputs whose right answer is known from how they were written:
// the real CLI's recorded output and recorded request (fixtures/azmcp-3.0.0-beta.46), and
// variants of them broken in one way each. Every judgement must be able to fail.
#include "conformance/live/contract.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "conformance/citations/cites.h"
#include "ref/base/files.h"
#include "ref/base/runfiles.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::live {
namespace {

CITES("HOST-004", "HOST-005", "BOUND-017", "BOUND-021", "UPSTREAM-002", "SELECT-015", "ZONE-006");

using ::azure_pricing::StatusIs;

std::string Recorded(const std::string& name) {
  return *base::ReadFile(base::Runfile("fixtures/azmcp-3.0.0-beta.46/cli-stdout/" + name));
}

// The real CLI's request for `--sku Standard_BASIC --region eastus` (requests-observed.txt).
constexpr char kBasicTarget[] =
    "/api/retail/prices?currencyCode=USD&$filter=armSkuName%20eq%20%27Standard_BASIC%27%20and%20"
    "armRegionName%20eq%20%27eastus%27";
const std::vector<std::string> kBasicArgv = {"/usr/local/bin/azmcp", "pricing", "get", "--sku",
                                             "Standard_BASIC", "--region", "eastus"};

LiveCheck BasicCheck() {
  return {.id = "basic", .what = "", .arguments = R"({"sku":"Standard_BASIC","region":"eastus"})",
          .requirements = {"HOST-004"}, .expect = {.outcome = "completed", .min_rows = 1}};
}

Seen BasicSeen() {
  Seen seen;
  seen.execs.push_back({.argv = kBasicArgv,
                        .result = sandbox::ExecResult{.stdout_bytes = Recorded("success-basic.json")}});
  seen.report.output = R"({"prices":[{"meterName":"x","matched_by":"region"}],"received_rows":1})";
  seen.upstream.push_back({.target = kBasicTarget, .status = 200});
  return seen;
}

const Finding* Named(const std::vector<Finding>& findings, const std::string& name) {
  for (const Finding& f : findings) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

bool Passed(const std::vector<Finding>& findings, const std::string& name) {
  const Finding* f = Named(findings, name);
  return f != nullptr && f->passed;
}

TEST(JudgeCheckTest, TheRealCliRecordingPassesEveryJudgement) {
  const std::vector<Finding> f = JudgeCheck(BasicCheck(), BasicSeen());
  for (const Finding& one : f) EXPECT_TRUE(one.passed) << one.name << ": " << one.detail;
  for (const char* name : {"outcome", "envelope", "row_keys", "filter_composition", "rows"}) {
    EXPECT_NE(Named(f, name), nullptr) << name;
  }
}

TEST(JudgeCheckTest, RowKeysOutOfOrderOrUnknownFail) {
  Seen seen = BasicSeen();
  std::string& out = seen.execs[0].result->stdout_bytes;
  out.replace(out.find("\"skuName\""), 9, "\"skuNameX\"");
  EXPECT_FALSE(Passed(JudgeCheck(BasicCheck(), seen), "row_keys"));
}

TEST(JudgeCheckTest, AnEnvelopeWithAnUnknownMemberOrAMismatchedExitCodeFails) {
  Seen seen = BasicSeen();
  seen.execs[0].result->exit_code = 1;
  EXPECT_FALSE(Passed(JudgeCheck(BasicCheck(), seen), "envelope"));
  seen = BasicSeen();
  std::string& out = seen.execs[0].result->stdout_bytes;
  out.replace(out.find("\"duration\""), 10, "\"elapsed\"");
  EXPECT_FALSE(Passed(JudgeCheck(BasicCheck(), seen), "envelope"));
}

TEST(JudgeCheckTest, AFilterComposedDifferentlyFails) {
  Seen seen = BasicSeen();
  // Parenthesised, as the CLI does not do: the tool relies on it not doing so.
  seen.upstream[0].target =
      "/api/retail/prices?currencyCode=USD&$filter=(armSkuName%20eq%20%27Standard_BASIC%27)%20and%20"
      "armRegionName%20eq%20%27eastus%27";
  EXPECT_FALSE(Passed(JudgeCheck(BasicCheck(), seen), "filter_composition"));
  seen.upstream.clear();
  EXPECT_FALSE(Passed(JudgeCheck(BasicCheck(), seen), "filter_composition"));
}

TEST(JudgeCheckTest, TheWrongOutcomeOrTooFewRowsFail) {
  Seen seen = BasicSeen();
  seen.report.outcome = Outcome::kFailed;
  seen.report.reason = "cli_failed";
  EXPECT_FALSE(Passed(JudgeCheck(BasicCheck(), seen), "outcome"));
  seen = BasicSeen();
  seen.report.output = R"({"prices":[]})";
  EXPECT_FALSE(Passed(JudgeCheck(BasicCheck(), seen), "rows"));
}

TEST(JudgeCheckTest, TheCeilingNeedsFiveThousandRowsInFivePagesAndBothFlags) {
  LiveCheck check = BasicCheck();
  check.expect = {.outcome = "completed", .ceiling = true};
  Seen seen = BasicSeen();
  std::string rows;
  for (int i = 0; i < 5000; ++i) rows += std::string(i ? "," : "") + "{}";
  seen.execs[0].result->stdout_bytes =
      R"({"status":200,"message":"Success","results":{"prices":[)" + rows + R"(]},"duration":1})";
  seen.report.output = R"({"prices":[],"received_rows":5000,"truncated":true,"upstream_limit_reached":true})";
  for (int skip = 1000; skip < 5000; skip += 1000) {
    seen.upstream.push_back({.target = std::string(kBasicTarget) + "&$skip=" + std::to_string(skip)});
  }
  EXPECT_TRUE(Passed(JudgeCheck(check, seen), "ceiling"));
  seen.upstream.pop_back();
  EXPECT_FALSE(Passed(JudgeCheck(check, seen), "ceiling"));
  seen.upstream.push_back({.target = std::string(kBasicTarget) + "&$skip=4000"});
  seen.report.output = R"({"prices":[],"received_rows":5000,"truncated":true,"upstream_limit_reached":false})";
  EXPECT_FALSE(Passed(JudgeCheck(check, seen), "ceiling"));
}

// A CLI output holding one row of `service` under `region` (the other keys as the contract has them).
std::string OneRow(const std::string& service, const std::string& region) {
  return R"({"status":200,"message":"Success","results":{"prices":[{"armSkuName":"","skuName":"s",)"
         R"("productName":"p","serviceName":")" + service + R"(","serviceFamily":"Networking",)"
         R"("region":")" + region + R"(","location":"l","retailPrice":1,"unitPrice":1,)"
         R"("currencyCode":"USD","unitOfMeasure":"1 GB","priceType":"Consumption",)"
         R"("effectiveStartDate":"2024-01-01T00:00:00+00:00","meterName":"m","meterId":"i",)"
         R"("isPrimaryMeterRegion":true}]},"duration":1})";
}

TEST(JudgeCheckTest, RequiredEdgeZoneRowsMustComeBackAndBeSelectedAtTheMappedZone) {
  LiveCheck check = BasicCheck();
  check.arguments = R"({"region":"australiaeast","filter":"serviceName eq 'Content Delivery Network'"})";
  check.expect = {.outcome = "completed", .zone_family = "edge", .zone_rows = "required"};
  Seen seen = BasicSeen();
  seen.execs[0].result->stdout_bytes = OneRow("Content Delivery Network", "Zone 4");
  seen.report.output =
      R"({"prices":[{"matched_by":"zone","zone":"Zone 4","zone_family":"edge"}],)"
      R"("selection_notes":["... the serving edge ..."]})";
  EXPECT_TRUE(Passed(JudgeCheck(check, seen), "zone_rows"));
  seen.report.output =
      R"({"prices":[{"matched_by":"zone","zone":"Zone 4","zone_family":"edge"}]})";
  EXPECT_FALSE(Passed(JudgeCheck(check, seen), "zone_rows"));
  seen.report.output = R"({"prices":[{"matched_by":"zone","zone":"Zone 1","zone_family":"edge"}]})";
  EXPECT_FALSE(Passed(JudgeCheck(check, seen), "zone_rows"));
  seen.execs[0].result->stdout_bytes = OneRow("Content Delivery Network", "Zone 1");
  seen.report.output = R"({"prices":[]})";
  EXPECT_FALSE(Passed(JudgeCheck(check, seen), "zone_rows"));
}

TEST(JudgeCheckTest, ExpressRouteZoneRowsMustBeOmittedWithANote) {
  LiveCheck check = BasicCheck();
  check.arguments = R"({"region":"eastus","filter":"serviceName eq 'ExpressRoute'"})";
  check.expect = {.outcome = "completed", .zone_family = "expressroute",
                  .zone_rows = "omitted_with_note"};
  Seen seen = BasicSeen();
  seen.execs[0].result->stdout_bytes = OneRow("ExpressRoute", "Zone 1");
  seen.report.output = R"({"prices":[],"selection_notes":["ExpressRoute rows were left out"]})";
  EXPECT_TRUE(Passed(JudgeCheck(check, seen), "zone_rows"));
  seen.report.output = R"({"prices":[],"selection_notes":[]})";
  EXPECT_FALSE(Passed(JudgeCheck(check, seen), "zone_rows"));
  seen.report.output =
      R"({"prices":[{"serviceName":"ExpressRoute","matched_by":"zone"}],"selection_notes":["ExpressRoute"]})";
  EXPECT_FALSE(Passed(JudgeCheck(check, seen), "zone_rows"));
}

TEST(JudgeCheckTest, NotAllEmptyArmSkusNeedsOneRowThatNamesItsSku) {
  LiveCheck check = BasicCheck();
  check.arguments = R"({"region":"eastus","filter":"serviceName eq 'ExpressRoute'"})";
  check.expect = {.outcome = "completed", .arm_sku_some_named = true};
  Seen seen = BasicSeen();
  std::string row = OneRow("ExpressRoute", "eastus");
  seen.execs[0].result->stdout_bytes = row;
  EXPECT_FALSE(Passed(JudgeCheck(check, seen), "empty_arm_sku"));
  row.replace(row.find(R"("armSkuName":"")"), 15, R"("armSkuName":"ErGwScale")");
  seen.execs[0].result->stdout_bytes = row;
  EXPECT_TRUE(Passed(JudgeCheck(check, seen), "empty_arm_sku"));
}

TEST(JudgeCheckTest, FrontDoorStandardPremiumZoneRowsMustBeOmittedWithANote) {
  LiveCheck check = BasicCheck();
  check.arguments = R"({"region":"westeurope","filter":"serviceName eq 'Azure Front Door Service'"})";
  check.expect = {.outcome = "completed", .zone_family = "front_door_standard_premium",
                  .zone_rows = "omitted_with_note"};
  Seen seen = BasicSeen();
  std::string row = OneRow("Azure Front Door Service", "Zone 7");
  const std::string product = R"("productName":"p")";
  row.replace(row.find(product), product.size(), R"("productName":"Azure Front Door")");
  seen.execs[0].result->stdout_bytes = row;
  seen.report.output =
      R"({"prices":[],"selection_notes":["Front Door Standard/Premium rows were left out"]})";
  EXPECT_TRUE(Passed(JudgeCheck(check, seen), "zone_rows"));
  seen.report.output = R"({"prices":[],"selection_notes":[]})";
  EXPECT_FALSE(Passed(JudgeCheck(check, seen), "zone_rows"));
  seen.report.output =
      R"({"prices":[{"serviceName":"Azure Front Door Service","productName":"Azure Front Door",)"
      R"("matched_by":"zone"}],"selection_notes":["Standard/Premium"]})";
  EXPECT_FALSE(Passed(JudgeCheck(check, seen), "zone_rows"));
  // A classic Front Door zone row is not one of them.
  seen.execs[0].result->stdout_bytes = OneRow("Azure Front Door Service", "Zone 1");
  seen.report.output = R"({"prices":[],"selection_notes":["Standard/Premium"]})";
  EXPECT_FALSE(Passed(JudgeCheck(check, seen), "zone_rows"));
}

TEST(JudgeCheckTest, AFailedLookupMustNotRepeatAnArgumentInItsTrustedMessages) {
  LiveCheck check = BasicCheck();
  check.arguments = R"({"filter":"osType eq 'Windows'"})";
  check.expect = {.outcome = "failed", .reason = "upstream_filter_rejected", .upstream_status = 400};
  Seen seen = BasicSeen();
  seen.execs[0].result = sandbox::ExecResult{.stdout_bytes = Recorded("upstream-400.json"),
                                             .exit_code = 1};
  seen.upstream[0] = {.target = "/api/retail/prices?currencyCode=USD&$filter=osType%20eq%20%27Windows%27",
                      .status = 400};
  seen.execs[0].argv = {"/usr/local/bin/azmcp", "pricing", "get", "--filter", "osType eq 'Windows'"};
  seen.report.outcome = Outcome::kFailed;
  seen.report.reason = "upstream_filter_rejected";
  seen.report.output.reset();
  seen.report.trusted_messages = {"The price API rejected the filter."};
  std::vector<Finding> f = JudgeCheck(check, seen);
  for (const Finding& one : f) EXPECT_TRUE(one.passed) << one.name << ": " << one.detail;
  seen.report.trusted_messages = {"rejected: osType eq 'Windows'"};
  EXPECT_FALSE(Passed(JudgeCheck(check, seen), "no_echo"));
  seen.upstream[0].status = 404;
  EXPECT_FALSE(Passed(JudgeCheck(check, seen), "upstream_status"));
}

// The real CLI's request in the "quote" recording: every typed option, a quote in a value, a
// currency, and a raw filter with `or`, joined without parentheses.
TEST(ExpectedRequestTest, MatchesTheRealCliOnEveryOption) {
  const ExpectedRequest r = ExpectedRequestFor(
      {"azmcp", "pricing", "get", "--sku", "O'Brien", "--service", "Virtual Machines", "--region",
       "eastus", "--service-family", "Compute", "--price-type", "Consumption", "--currency", "EUR",
       "--filter", "meterName eq 'x' or meterName eq 'y'"});
  EXPECT_FALSE(r.api_version);
  EXPECT_EQ(r.currency, "EUR");
  EXPECT_EQ(r.filter,
            "armSkuName eq 'O''Brien' and serviceName eq 'Virtual Machines' and armRegionName eq "
            "'eastus' and serviceFamily eq 'Compute' and priceType eq 'Consumption' and meterName "
            "eq 'x' or meterName eq 'y'");
  EXPECT_TRUE(ExpectedRequestFor({"azmcp", "pricing", "get", "--sku", "S", "--include-savings-plan"})
                  .api_version);
}

TEST(CliVersionTest, ComesFromTheUserAgentTheRealCliSends) {
  EXPECT_EQ(CliVersionFromUserAgent("Azure.Mcp.Tools.Pricing/9.8.7-beta.6 (.NET 10.0.11; Linux)"),
            "9.8.7-beta.6");
  EXPECT_EQ(CliVersionFromUserAgent("curl/8.0"), "");
}

TEST(HttpResponseBodyTest, ReadsLengthChunkedAndToTheEndAndRefusesWhatItCannotRead) {
  EXPECT_EQ(*HttpResponseBody("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcdef"), "abc");
  EXPECT_EQ(*HttpResponseBody("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                              "3\r\nabc\r\na\r\n0123456789\r\n0\r\n\r\n"),
            "abc0123456789");
  EXPECT_EQ(*HttpResponseBody("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nall of it"), "all of it");
  EXPECT_THAT(HttpResponseBody("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\nxx").status(),
              StatusIs(Outcome::kFailed, kUnreadableResponse));
  EXPECT_THAT(HttpResponseBody("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab").status(),
              StatusIs(Outcome::kFailed, kUnreadableResponse));
  EXPECT_THAT(HttpResponseBody("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nab").status(),
              StatusIs(Outcome::kFailed, kUnreadableResponse));
  EXPECT_THAT(HttpResponseBody("garbage").status(), StatusIs(Outcome::kFailed, kUnreadableResponse));
}

}  // namespace
}  // namespace azure_pricing::conformance::live
