#include "tools/image/pins.h"

#include <gtest/gtest.h>

#include <string>

#include "ref/status/status_matchers.h"

namespace azure_pricing::tools::image {
namespace {

const std::string kA(64, 'a');
const std::string kB(64, 'b');

std::string Line(const std::string& version, const std::string& sha256) {
  return version + "\t" + sha256 + "\t2026-11-29\tnpm pack, by hand\n";
}

TEST(PinsTest, ParsesLinesAndSkipsComments) {
  const auto pins = ParsePins("# header\n\n" + Line("1.0.0", kA) + Line("2.0.0-beta.1", kB));
  ASSERT_THAT(pins, IsOk());
  ASSERT_EQ(pins->size(), 2u);
  EXPECT_EQ((*pins)[1].version, "2.0.0-beta.1");
  EXPECT_EQ((*pins)[1].sha256, kB);
  EXPECT_EQ((*pins)[1].recorded, "2026-11-29");
  EXPECT_EQ((*pins)[1].how, "npm pack, by hand");
  EXPECT_EQ(FindPin(*pins, "1.0.0")->sha256, kA);
  EXPECT_EQ(FindPin(*pins, "1.0"), nullptr);
}

TEST(PinsTest, RefusesMalformedLinesAndRepeatedVersions) {
  for (const std::string& text :
       {Line("1.0.0", kA.substr(1)), Line("1.0.0", std::string(64, 'A')),
        Line("1.0.0", kA) + Line("1.0.0", kA), std::string("1.0.0 ") + kA + " 2026-11-29 x\n",
        "1.0.0\t" + kA + "\t29.11.2026\tx\n", "1.0.0\t" + kA + "\t2026-11-29\t\n",
        "\t" + kA + "\t2026-11-29\tx\n"}) {
    EXPECT_THAT(ParsePins(text), ProgramErrorIs(kPinsMalformed)) << text;
  }
}

TEST(PinsTest, APinnedVersionMustMatchItsPinWhateverIsGiven) {
  const std::vector<AzmcpPin> pins = {{"1.0.0", kA, "2026-11-29", "x"}};
  EXPECT_THAT(CheckTarball(pins, "1.0.0", kA, std::nullopt), IsOk());
  EXPECT_THAT(CheckTarball(pins, "1.0.0", kA, kA), IsOk());
  EXPECT_THAT(CheckTarball(pins, "1.0.0", kB, std::nullopt),
              ProgramErrorIs(kTarballSha256Mismatch));
  // --sha256 never overrides a pin.
  EXPECT_THAT(CheckTarball(pins, "1.0.0", kB, kB), ProgramErrorIs(kTarballSha256Mismatch));
  EXPECT_THAT(CheckTarball(pins, "1.0.0", kA, kB), ProgramErrorIs(kTarballSha256Mismatch));
}

TEST(PinsTest, AnUnpinnedVersionNeedsAMatchingGivenSha256) {
  const std::vector<AzmcpPin> pins = {{"1.0.0", kA, "2026-11-29", "x"}};
  EXPECT_THAT(CheckTarball(pins, "2.0.0", kB, std::nullopt),
              ProgramErrorIs(kVersionUnpinned, testing::HasSubstr("tools/image/pin VERSION")));
  EXPECT_THAT(CheckTarball(pins, "2.0.0", kB, kA), ProgramErrorIs(kTarballSha256Mismatch));
  EXPECT_THAT(CheckTarball(pins, "2.0.0", kB, kB), IsOk());
  EXPECT_THAT(CheckTarball(pins, "2.0.0", kB, std::string(64, 'B')),
              ProgramErrorIs(kSha256Malformed));
}

}  // namespace
}  // namespace azure_pricing::tools::image
