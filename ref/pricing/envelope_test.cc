#include "ref/pricing/envelope.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "conformance/citations/cites.h"
#include "ref/pricing/reasons.h"
#include "ref/status/status_matchers.h"

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

TEST(EnvelopeTest, AcceptsTheRealShapeAndAnEmptyArray) {
  CliResult r;
  r.stdout_bytes = Envelope(kRow);
  const auto rows = ValidateCliResult(r, kBudget);
  ASSERT_THAT(rows, IsOk());
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0].retail_price, 0.5);
  EXPECT_EQ((*rows)[0].arm_sku_name, "");
  r.stdout_bytes = Envelope("");
  EXPECT_THAT(ValidateCliResult(r, kBudget), IsOk());
}

TEST(EnvelopeTest, ExecutionFailuresComeFirst) {
  CliResult r;
  r.stdout_bytes = Envelope(kRow);
  r.timed_out = true;
  EXPECT_THAT(ValidateCliResult(r, kBudget), StatusIs(Outcome::kFailed, reasons::kTimeout));
  r.timed_out = false;
  r.output_limit_exceeded = true;
  EXPECT_THAT(ValidateCliResult(r, kBudget), StatusIs(Outcome::kFailed, reasons::kOutputLimit));
  r.output_limit_exceeded = false;
  r.stderr_bytes = std::string(kBudget, 'e');  // combined with stdout over budget
  EXPECT_THAT(ValidateCliResult(r, kBudget), StatusIs(Outcome::kFailed, reasons::kOutputLimit));
  r.stderr_bytes = "x";
  EXPECT_THAT(ValidateCliResult(r, kBudget), StatusIs(Outcome::kFailed, reasons::kStderrNotEmpty));
}

TEST(EnvelopeTest, EnvelopeShapeIsTheClis) {
  CliResult r;
  r.stdout_bytes =
      R"({"status":200,"message":"Success","results":{"prices":[]},"duration":5,"extra":1})";
  EXPECT_THAT(ValidateCliResult(r, kBudget),
              StatusIs(Outcome::kFailed, reasons::kMalformedEnvelope));
  r.stdout_bytes = R"({"status":"200","message":"Success","results":{"prices":[]}})";
  EXPECT_THAT(ValidateCliResult(r, kBudget),
              StatusIs(Outcome::kFailed, reasons::kMalformedEnvelope));
  r.stdout_bytes = R"({"status":200,"message":"Success","results":{"prices":{}}})";
  EXPECT_THAT(ValidateCliResult(r, kBudget),
              StatusIs(Outcome::kFailed, reasons::kMalformedEnvelope));
  r.stdout_bytes = R"({"status":200,"message":"Success","results":{"prices":[],"next":1}})";
  EXPECT_THAT(ValidateCliResult(r, kBudget),
              StatusIs(Outcome::kFailed, reasons::kMalformedEnvelope));
  r.stdout_bytes = R"({"status":200,"message":"Success"})";
  EXPECT_THAT(ValidateCliResult(r, kBudget),
              StatusIs(Outcome::kFailed, reasons::kMalformedEnvelope));
  r.stdout_bytes = "";
  EXPECT_THAT(ValidateCliResult(r, kBudget),
              StatusIs(Outcome::kFailed, reasons::kMalformedEnvelope));
  r.exit_code = 139;  // crashed without printing
  EXPECT_THAT(ValidateCliResult(r, kBudget), StatusIs(Outcome::kFailed, reasons::kCliFailed));
}

TEST(EnvelopeTest, UpstreamFailuresAreRecognizedWithoutEcho) {
  CliResult r;
  r.exit_code = 1;
  r.stdout_bytes =
      R"({"status":500,"message":"Service request failed.\nStatus: 400 (Bad Request)\n. x",)"
      R"("results":{"message":"Service request failed.\nStatus: 400 (Bad Request)\n","type":"ClientResultException"},"duration":1})";
  EXPECT_THAT(ValidateCliResult(r, kBudget),
              StatusIs(Outcome::kFailed, reasons::kUpstreamFilterRejected,
                       ::testing::StrEq(kFilterCorrectionGuidance)));
  r.stdout_bytes =
      R"({"status":500,"message":"Service request failed.\nStatus: 404 (Not Found)\n. x",)"
      R"("results":{"message":"Service request failed.\nStatus: 404 (Not Found)\n","type":"ClientResultException"},"duration":1})";
  EXPECT_THAT(ValidateCliResult(r, kBudget),
              StatusIs(Outcome::kFailed, reasons::kUpstreamNotFound));
  r.stdout_bytes =
      R"({"status":500,"message":"Service request failed.\nStatus: 503 (Service Unavailable)\n. x",)"
      R"("results":{"message":"Service request failed.\nStatus: 503 (Service Unavailable)\n","type":"ClientResultException"},"duration":1})";
  EXPECT_THAT(ValidateCliResult(r, kBudget), StatusIs(Outcome::kFailed, reasons::kCliFailed));
}

TEST(EnvelopeTest, RowRules) {
  CliResult r;
  std::string row = kRow;
  auto with = [&](const std::string& from, const std::string& to) {
    std::string changed = row;
    changed.replace(changed.find(from), from.size(), to);
    r.stdout_bytes = Envelope(changed);
    return ValidateCliResult(r, kBudget);
  };
  EXPECT_THAT(with("\"priceType\":\"Consumption\"", "\"priceType\":\"SavingsPlan\""),
              StatusIs(Outcome::kFailed, reasons::kMalformedRow));
  EXPECT_THAT(with("\"priceType\":\"Consumption\"", "\"priceType\":\"Reservation\""),
              StatusIs(Outcome::kFailed, reasons::kMalformedRow));
  EXPECT_THAT(with("\"priceType\":\"Consumption\"",
                   "\"priceType\":\"Reservation\",\"reservationTerm\":\"1 Year\""),
              IsOk());
  EXPECT_THAT(with("\"isPrimaryMeterRegion\":true", "\"isPrimaryMeterRegion\":\"true\""),
              StatusIs(Outcome::kFailed, reasons::kMalformedRow));
  EXPECT_THAT(with("\"retailPrice\":0.5", "\"retailPrice\":-0.5"),
              StatusIs(Outcome::kFailed, reasons::kMalformedRow));
  EXPECT_THAT(with("\"meterId\":\"id\"", "\"meterId\":\"id\",\"savingsPlan\":[]"),
              StatusIs(Outcome::kFailed, reasons::kMalformedRow));
  EXPECT_THAT(with("\"meterId\":\"id\"",
                   "\"meterId\":\"id\",\"savingsPlan\":[{\"term\":\"1 Year\",\"unitPrice\":1}]"),
              StatusIs(Outcome::kFailed, reasons::kMalformedRow));
  EXPECT_THAT(with("\"meterId\":\"id\"",
                   "\"meterId\":\"id\",\"savingsPlan\":[{\"term\":\"1 "
                   "Year\",\"unitPrice\":1,\"retailPrice\":1}]"),
              IsOk());
  EXPECT_THAT(with("\"meterId\":\"id\"", "\"meterId\":\"id\",\"tierMinimumUnits\":0"), IsOk());
  r.stdout_bytes = Envelope("[]");
  EXPECT_THAT(ValidateCliResult(r, kBudget), StatusIs(Outcome::kFailed, reasons::kMalformedRow));
}

TEST(EnvelopeTest, DuplicateKeysNonFiniteAndUtf8) {
  CliResult r;
  r.stdout_bytes = R"({"status":200,"status":200,"message":"Success","results":{"prices":[]}})";
  EXPECT_THAT(ValidateCliResult(r, kBudget), StatusIs(Outcome::kFailed, reasons::kDuplicateKey));
  r.stdout_bytes = Envelope(std::string(kRow).replace(std::string(kRow).find("0.5"), 3, "NaN"));
  EXPECT_THAT(ValidateCliResult(r, kBudget), StatusIs(Outcome::kFailed, reasons::kNonFiniteNumber));
  r.stdout_bytes = Envelope(kRow) + "\xff";
  EXPECT_THAT(ValidateCliResult(r, kBudget), StatusIs(Outcome::kFailed, reasons::kInvalidUtf8));
}

}  // namespace
}  // namespace azure_pricing
