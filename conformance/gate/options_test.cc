// The gate's command line read into GateOptions: what each flag sets, and each form of usage
// error with the line that names its flag.
#include "conformance/gate/options.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "conformance/gate/suite_registry.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance {
namespace {

// Parses `args` (after the program's name) with the gate's own suites.
StatusOr<GateOptions> Parse(std::vector<std::string> args, std::string* problem) {
  args.insert(args.begin(), "gate");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  return ParseGateOptions(static_cast<int>(argv.size()), argv.data(), GateSuites(), problem);
}

// The usage error's line for `args`; empty when they parse.
std::string ProblemOf(std::vector<std::string> args) {
  std::string problem;
  const StatusOr<GateOptions> options = Parse(std::move(args), &problem);
  if (options.ok()) return "";
  EXPECT_THAT(options.status(), ProgramErrorIs(kGateUsage));
  return problem;
}

TEST(GateOptionsTest, NoFlagsSelectEverySuiteInTheRegistrysOrderWithTheDefaults) {
  std::string problem;
  const StatusOr<GateOptions> o = Parse({}, &problem);
  ASSERT_TRUE(o.ok()) << problem;
  EXPECT_EQ(o->registry.size(), GateSuites().size());
  EXPECT_FALSE(o->Partial());
  EXPECT_EQ(o->seed, kDefaultSeed);
  EXPECT_EQ(o->property_cases, kDefaultPropertyCases);
  EXPECT_TRUE(o->parallel);
  EXPECT_FALSE(o->filter.has_value());
}

TEST(GateOptionsTest, SelectionFlagsSetWhatTheySay) {
  std::string problem;
  const StatusOr<GateOptions> o =
      Parse({"--suite", "kind", "--filter", "^zone", "--shard", "1/3", "--seed", "7",
             "--properties-count", "12", "--sequential", "--verbose"},
            &problem);
  ASSERT_TRUE(o.ok()) << problem;
  EXPECT_TRUE(o->Runs("kind"));
  EXPECT_FALSE(o->Runs("backend"));
  EXPECT_EQ(o->filter_text, "^zone");
  EXPECT_EQ(o->shard_index, 1u);
  EXPECT_EQ(o->shard_count, 3u);
  EXPECT_EQ(o->seed, 7u);
  EXPECT_EQ(o->command_line,
            (std::vector<std::string>{"--suite", "kind", "--filter", "^zone", "--shard", "1/3",
                                      "--seed", "7", "--properties-count", "12", "--sequential",
                                      "--verbose"}));
  EXPECT_EQ(o->property_cases, 12);
  EXPECT_FALSE(o->parallel);
  EXPECT_TRUE(o->verbose);
  EXPECT_TRUE(o->Partial());
}

TEST(GateOptionsTest, EachMalformedValueIsAUsageErrorNamingItsFlag) {
  EXPECT_EQ(ProblemOf({"--shard", "3/3"}), "--shard is I/N with 0 <= I < N");
  EXPECT_EQ(ProblemOf({"--shard", "x"}), "--shard is I/N with 0 <= I < N");
  EXPECT_EQ(ProblemOf({"--seed", "-1"}), "--seed is a whole number");
  EXPECT_EQ(ProblemOf({"--properties-count", "0"}),
            "--properties-count is a whole number from 1 to 100000");
  EXPECT_EQ(ProblemOf({"--filter", "("}),
            "--filter is not a valid ECMAScript regular expression");
  EXPECT_EQ(ProblemOf({"--suite", "nosuch"}), SuiteListProblem(GateSuites()));
  EXPECT_NE(ProblemOf({"--no-such-flag"}).find("--no-such-flag"), std::string::npos);
}

TEST(GateOptionsTest, PathsAreCheckedBeforeAnythingRuns) {
  EXPECT_NE(ProblemOf({"--json", "/nonexistent-dir/report.json"}).find("--json"),
            std::string::npos);
  EXPECT_NE(ProblemOf({"--html", "/nonexistent-dir/report.html"}).find("--html"),
            std::string::npos);
  EXPECT_NE(ProblemOf({"--known-failures", "/nonexistent-file"}).find("--known-failures"),
            std::string::npos);
  EXPECT_EQ(ProblemOf({"--testee", "no-such-program-anywhere"}),
            "--testee no-such-program-anywhere: no program of that name on PATH");
}

TEST(GateOptionsTest, UsageListsTheRegistrysSuitesAndTheFlags) {
  const std::string usage = GateUsage(GateSuites());
  for (const Suite* suite : GateSuites()) {
    EXPECT_NE(usage.find(std::string(suite->name)), std::string::npos) << suite->name;
  }
  EXPECT_NE(usage.find("--known-failures FILE"), std::string::npos);
}

}  // namespace
}  // namespace azure_pricing::conformance
