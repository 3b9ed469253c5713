#include "fakes/azmcp/dotnet_json.h"

#include <string>

#include "gtest/gtest.h"
#include "ref/base/files.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::fakes::azmcp {
namespace {

TEST(FormatDoubleTest, DotNetShortestRoundTrip) {
  // Values seen in the real CLI's output (fixtures/azmcp-3.0.0-beta.46) and .NET's switch to
  // exponent form below 1E-04 and from 1E+15.
  EXPECT_EQ(FormatDouble(1000), "1000");
  EXPECT_EQ(FormatDouble(0.192), "0.192");
  EXPECT_EQ(FormatDouble(0.000012), "1.2E-05");
  EXPECT_EQ(FormatDouble(0.0001), "0.0001");
  EXPECT_EQ(FormatDouble(0), "0");
  EXPECT_EQ(FormatDouble(1e15), "1E+15");
  EXPECT_EQ(FormatDouble(123456789012345.0), "123456789012345");
  EXPECT_EQ(FormatDouble(-2.5), "-2.5");
  EXPECT_EQ(FormatDouble(8760.5), "8760.5");
  // Probed on the real CLI: a page's -0 stays negative, 1e308 and large integers go exponential.
  EXPECT_EQ(FormatDouble(-0.0), "-0");
  EXPECT_EQ(FormatDouble(1e308), "1E+308");
  EXPECT_EQ(FormatDouble(123456789012345678.0), "1.2345678901234568E+17");
}

TEST(FormatDateTimeOffsetTest, WritesWhatTheRealCliWrote) {
  // From the recordings and the differential scenarios' page bodies.
  EXPECT_EQ(FormatDateTimeOffset("2023-07-01T00:00:00Z"), "2023-07-01T00:00:00+00:00");
  EXPECT_EQ(FormatDateTimeOffset("2023-07-01T10:30:00.123Z"), "2023-07-01T10:30:00.123+00:00");
  EXPECT_EQ(FormatDateTimeOffset("2024-01-01T05:00:00+02:00"), "2024-01-01T05:00:00+02:00");
  EXPECT_EQ(FormatDateTimeOffset("2024-01-01"), "2024-01-01T00:00:00+00:00");
  EXPECT_EQ(FormatDateTimeOffset("2023-07-01T10:30:00.1200000Z"), "2023-07-01T10:30:00.12+00:00");
}

TEST(FormatDateTimeOffsetTest, RefusesWhatIsNotADate) {
  for (const char* text : {"garbage", "", "2024-13-01", "2023-02-29", "2024-01-01T25:00:00Z",
                           "2024-01-01T00:00:00+0200", "2024-01-01T00:00:00.12345678Z"}) {
    EXPECT_EQ(FormatDateTimeOffset(text), std::nullopt) << text;
  }
  EXPECT_NE(FormatDateTimeOffset("2024-02-29"), std::nullopt);
}

TEST(WriteIndentedTest, EscapesAsUnsafeRelaxedJsonEscaping) {
  // Probed on the real CLI: "A\n/\"<>&\u2028" plus an emoji in a page came back like this.
  EXPECT_EQ(WriteIndented(nlohmann::ordered_json("A\n/\"<>&\u00e9\u2028\U0001F600")),
            "\"A\\n/\\\"<>&\u00e9\\u2028\\uD83D\\uDE00\"");
}

TEST(WriteIndentedTest, ReproducesARecordedEnvelopeByteForByte) {
  const StatusOr<std::string> file =
      base::ReadFile("fixtures/azmcp-3.0.0-beta.46/cli-stdout/success-basic.json");
  ASSERT_THAT(file, IsOk());
  const std::string& recorded = *file;
  ASSERT_FALSE(recorded.empty());
  const nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(recorded);
  std::string text = WriteIndented(parsed);
  // The CLI ends its output with a newline (Console.WriteLine).
  EXPECT_EQ(text + "\n", recorded);
}

}  // namespace
}  // namespace azure_pricing::fakes::azmcp
