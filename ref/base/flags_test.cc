#include "ref/base/flags.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ref/status/status_matchers.h"

namespace azure_pricing::base {
namespace {

StatusOr<Flags> Parse(std::vector<const char*> args, std::string* offending = nullptr) {
  args.insert(args.begin(), "program");
  return Flags::Parse(static_cast<int>(args.size()), args.data(),
                      {{"--out", FlagKind::kValue},
                       {"--catalog", FlagKind::kRepeatable},
                       {"--json", FlagKind::kSwitch}},
                      offending);
}

TEST(FlagsTest, ReadsValuesRepeatsAndSwitches) {
  StatusOr<Flags> flags = Parse({"--catalog", "a", "--out", "o", "--json", "--catalog", "-x"});
  ASSERT_THAT(flags, IsOk());
  EXPECT_EQ(flags->Value("--out"), "o");
  // A value may look like anything but one of the program's own flags.
  EXPECT_THAT(flags->Values("--catalog"), ::testing::ElementsAre("a", "-x"));
  EXPECT_TRUE(flags->Has("--json"));
  EXPECT_FALSE(Parse({})->Has("--json"));
  EXPECT_EQ(Parse({})->Value("--out"), std::nullopt);
  EXPECT_TRUE(Parse({})->Values("--catalog").empty());
}

TEST(FlagsTest, NamesWhatIsWrongAndWhichFlag) {
  struct Case {
    std::vector<const char*> args;
    Reason reason;
    const char* offending;
    const char* problem;
  } cases[] = {
      {{"--bogus"}, kFlagUnknown, "--bogus", "unknown option --bogus"},
      {{"--out", "o", "-o"}, kFlagUnknown, "-o", "unknown option -o"},
      {{"westeurope"}, kFlagUnknown, "westeurope", "unexpected argument westeurope"},
      {{"--out"}, kFlagMissingValue, "--out", "--out needs a value"},
      {{"--catalog", "a", "--catalog"}, kFlagMissingValue, "--catalog", "--catalog needs a value"},
      {{"--out", "a", "--out", "b"}, kFlagRepeated, "--out", "--out is given more than once"},
      {{"--out", "--json"}, kFlagMissingValue, "--out", "--out needs a value"},
      {{"--catalog", "--out", "o"}, kFlagMissingValue, "--catalog", "--catalog needs a value"},
  };
  for (const Case& c : cases) {
    std::string offending;
    StatusOr<Flags> flags = Parse(c.args, &offending);
    EXPECT_THAT(flags, ProgramErrorIs(c.reason)) << c.problem;
    EXPECT_EQ(offending, c.offending);
    EXPECT_EQ(FlagProblem(flags.status(), offending), c.problem);
  }
}

TEST(FlagsTest, ParseOrExplainGivesThePersonsLine) {
  const char* args[] = {"program", "--out"};
  std::string problem;
  EXPECT_THAT(Flags::ParseOrExplain(2, args, {{"--out", FlagKind::kValue}}, &problem),
              ProgramErrorIs(kFlagMissingValue));
  EXPECT_EQ(problem, "--out needs a value");
  const char* good[] = {"program", "--out", "o"};
  problem.clear();
  EXPECT_THAT(Flags::ParseOrExplain(3, good, {{"--out", FlagKind::kValue}}, &problem), IsOk());
  EXPECT_EQ(problem, "");
}

TEST(FlagsTest, MessagesAreFixedText) {
  std::string offending;
  StatusOr<Flags> flags = Parse({"--secret-value"}, &offending);
  EXPECT_THAT(flags, ProgramErrorIs(kFlagUnknown, ::testing::Not(::testing::HasSubstr("secret"))));
}

}  // namespace
}  // namespace azure_pricing::base
