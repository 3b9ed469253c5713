#include "fakes/azmcp/dotnet_json.h"

#include <fstream>
#include <iterator>

#include "gtest/gtest.h"

namespace fakes::azmcp {
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
}

TEST(FormatDateTest, ZuluBecomesAnOffset) {
  EXPECT_EQ(FormatDate("2023-07-01T00:00:00Z"), "2023-07-01T00:00:00+00:00");
  EXPECT_EQ(FormatDate("2023-07-01T10:30:00.123Z"), "2023-07-01T10:30:00.123+00:00");
  EXPECT_EQ(FormatDate("2023-07-01T00:00:00+02:00"), "2023-07-01T00:00:00+02:00");
}

TEST(WriteIndentedTest, ReproducesARecordedEnvelopeByteForByte) {
  std::ifstream in("fixtures/azmcp-3.0.0-beta.46/cli-stdout/success-basic.json", std::ios::binary);
  const std::string recorded((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  ASSERT_FALSE(recorded.empty());
  const nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(recorded);
  std::string text = WriteIndented(parsed);
  // The CLI ends its output with a newline (Console.WriteLine).
  EXPECT_EQ(text + "\n", recorded);
}

}  // namespace
}  // namespace fakes::azmcp
