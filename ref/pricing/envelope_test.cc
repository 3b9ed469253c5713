#include "ref/pricing/envelope.h"

#include <gtest/gtest.h>

#include "conformance/citations/cites.h"

namespace azure_pricing {
CITES("UPSTREAM-001", "UPSTREAM-002", "BOUND-005", "BOUND-006", "BOUND-008", "BOUND-009",
      "BOUND-010", "BOUND-011", "BOUND-013", "BOUND-014", "BOUND-015");
namespace {

constexpr int64_t kBudget = 8 * 1024 * 1024;

const char kRow[] =
    R"({"armSkuName":"","skuName":"s","productName":"p","serviceName":"n","serviceFamily":"Networking",)"
    R"("region":"","location":"","retailPrice":0.5,"unitPrice":0.5,"currencyCode":"USD",)"
    R"("unitOfMeasure":"1 GB","priceType":"Consumption","effectiveStartDate":"2023-07-01T00:00:00+00:00",)"
    R"("meterName":"m","meterId":"id","isPrimaryMeterRegion":true})";

std::string Envelope(const std::string& rows) {
  return R"({"status":200,"message":"Success","results":{"prices":[)" + rows +
         R"(]},"duration":5})";
}

std::string ReasonOf(const CliResult& r) {
  const auto rows = ValidateCliResult(r, kBudget);
  return rows.ok() ? "ok" : std::string(rows.status().reason());
}

TEST(EnvelopeTest, AcceptsTheRealShapeAndAnEmptyArray) {
  CliResult r;
  r.stdout_bytes = Envelope(kRow);
  const auto rows = ValidateCliResult(r, kBudget);
  ASSERT_TRUE(rows.ok()) << rows.status().reason();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0].retail_price, 0.5);
  EXPECT_EQ((*rows)[0].arm_sku_name, "");
  r.stdout_bytes = Envelope("");
  EXPECT_EQ(ReasonOf(r), "ok");
}

TEST(EnvelopeTest, ExecutionFailuresComeFirst) {
  CliResult r;
  r.stdout_bytes = Envelope(kRow);
  r.timed_out = true;
  EXPECT_EQ(ReasonOf(r), "timeout");
  r.timed_out = false;
  r.output_limit_exceeded = true;
  EXPECT_EQ(ReasonOf(r), "output_limit");
  r.output_limit_exceeded = false;
  r.stderr_bytes = std::string(kBudget, 'e');  // combined with stdout over budget
  EXPECT_EQ(ReasonOf(r), "output_limit");
  r.stderr_bytes = "x";
  EXPECT_EQ(ReasonOf(r), "stderr_not_empty");
}

TEST(EnvelopeTest, EnvelopeShapeIsTheClis) {
  CliResult r;
  r.stdout_bytes =
      R"({"status":200,"message":"Success","results":{"prices":[]},"duration":5,"extra":1})";
  EXPECT_EQ(ReasonOf(r), "malformed_envelope");
  r.stdout_bytes = R"({"status":"200","message":"Success","results":{"prices":[]}})";
  EXPECT_EQ(ReasonOf(r), "malformed_envelope");
  r.stdout_bytes = R"({"status":200,"message":"Success","results":{"prices":{}}})";
  EXPECT_EQ(ReasonOf(r), "malformed_envelope");
  r.stdout_bytes = R"({"status":200,"message":"Success","results":{"prices":[],"next":1}})";
  EXPECT_EQ(ReasonOf(r), "malformed_envelope");
  r.stdout_bytes = R"({"status":200,"message":"Success"})";
  EXPECT_EQ(ReasonOf(r), "malformed_envelope");
  r.stdout_bytes = "";
  EXPECT_EQ(ReasonOf(r), "malformed_envelope");
  r.exit_code = 139;  // crashed without printing
  EXPECT_EQ(ReasonOf(r), "cli_failed");
}

TEST(EnvelopeTest, UpstreamFailuresAreRecognizedWithoutEcho) {
  CliResult r;
  r.exit_code = 1;
  r.stdout_bytes =
      R"({"status":500,"message":"Service request failed.\nStatus: 400 (Bad Request)\n. x",)"
      R"("results":{"message":"Service request failed.\nStatus: 400 (Bad Request)\n","type":"ClientResultException"},"duration":1})";
  const auto rows = ValidateCliResult(r, kBudget);
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().reason(), "upstream_filter_rejected");
  EXPECT_EQ(rows.status().message(), kFilterCorrectionGuidance);
  EXPECT_EQ(rows.status().message().find("Service request failed"), std::string::npos);
  r.stdout_bytes =
      R"({"status":500,"message":"Service request failed.\nStatus: 404 (Not Found)\n. x",)"
      R"("results":{"message":"Service request failed.\nStatus: 404 (Not Found)\n","type":"ClientResultException"},"duration":1})";
  EXPECT_EQ(ReasonOf(r), "upstream_not_found");
  r.stdout_bytes =
      R"({"status":500,"message":"Service request failed.\nStatus: 503 (Service Unavailable)\n. x",)"
      R"("results":{"message":"Service request failed.\nStatus: 503 (Service Unavailable)\n","type":"ClientResultException"},"duration":1})";
  EXPECT_EQ(ReasonOf(r), "cli_failed");
}

TEST(EnvelopeTest, RowRules) {
  CliResult r;
  std::string row = kRow;
  auto with = [&](const std::string& from, const std::string& to) {
    std::string changed = row;
    changed.replace(changed.find(from), from.size(), to);
    r.stdout_bytes = Envelope(changed);
    return ReasonOf(r);
  };
  EXPECT_EQ(with("\"priceType\":\"Consumption\"", "\"priceType\":\"SavingsPlan\""),
            "malformed_row");
  EXPECT_EQ(with("\"priceType\":\"Consumption\"", "\"priceType\":\"Reservation\""),
            "malformed_row");
  EXPECT_EQ(with("\"priceType\":\"Consumption\"",
                 "\"priceType\":\"Reservation\",\"reservationTerm\":\"1 Year\""),
            "ok");
  EXPECT_EQ(with("\"isPrimaryMeterRegion\":true", "\"isPrimaryMeterRegion\":\"true\""),
            "malformed_row");
  EXPECT_EQ(with("\"retailPrice\":0.5", "\"retailPrice\":-0.5"), "malformed_row");
  EXPECT_EQ(with("\"meterId\":\"id\"", "\"meterId\":\"id\",\"savingsPlan\":[]"), "malformed_row");
  EXPECT_EQ(with("\"meterId\":\"id\"",
                 "\"meterId\":\"id\",\"savingsPlan\":[{\"term\":\"1 Year\",\"unitPrice\":1}]"),
            "malformed_row");
  EXPECT_EQ(with("\"meterId\":\"id\"",
                 "\"meterId\":\"id\",\"savingsPlan\":[{\"term\":\"1 "
                 "Year\",\"unitPrice\":1,\"retailPrice\":1}]"),
            "ok");
  EXPECT_EQ(with("\"meterId\":\"id\"", "\"meterId\":\"id\",\"tierMinimumUnits\":0"), "ok");
  r.stdout_bytes = Envelope("[]");
  EXPECT_EQ(ReasonOf(r), "malformed_row");
}

TEST(EnvelopeTest, DuplicateKeysNonFiniteAndUtf8) {
  CliResult r;
  r.stdout_bytes = R"({"status":200,"status":200,"message":"Success","results":{"prices":[]}})";
  EXPECT_EQ(ReasonOf(r), "duplicate_key");
  r.stdout_bytes = Envelope(std::string(kRow).replace(std::string(kRow).find("0.5"), 3, "NaN"));
  EXPECT_EQ(ReasonOf(r), "non_finite_number");
  r.stdout_bytes = Envelope(kRow) + "\xff";
  EXPECT_EQ(ReasonOf(r), "invalid_utf8");
}

}  // namespace
}  // namespace azure_pricing
