// The suite registry: --suite's spellings and error, the usage text's suite lines, --list-suites,
// and the verdict's scope (partial, the testee's, the backend's) derived from what each suite
// judges. CITES nothing: these are the gate's own command line and report shape.
#include "conformance/gate/suite_registry.h"

#include <set>
#include <sstream>
#include <string>

#include "conformance/gate/run.h"
#include "gtest/gtest.h"

namespace azure_pricing::conformance {
namespace {

void Nothing(GateRun&) {}

constexpr Suite kA = {.name = "alpha",
                      .description = "the first",
                      .in_all = true,
                      .judges = SuiteJudges::kImplementation,
                      .alias = "a",
                      .run = Nothing};
constexpr Suite kB = {.name = "beta",
                      .description = "the second",
                      .in_all = true,
                      .judges = SuiteJudges::kImplementation,
                      .run = Nothing};
constexpr Suite kSandbox = {.name = "sandbox",
                            .description = "a backend",
                            .in_all = true,
                            .judges = SuiteJudges::kBackend,
                            .run = Nothing};
constexpr Suite kSlow = {.name = "slow",
                         .description = "opt in",
                         .in_all = false,
                         .judges = SuiteJudges::kHarness,
                         .run = Nothing};
const Suite* const kFakes[] = {&kA, &kB, &kSandbox, &kSlow};

std::set<std::string> Parse(std::string_view text, std::string& problem) {
  return ParseSuiteList(kFakes, text, problem);
}

TEST(SuiteRegistryTest, AllSelectsEverySuiteInAllAndNothingElse) {
  std::string problem;
  EXPECT_EQ(Parse("all", problem), (std::set<std::string>{"alpha", "beta", "sandbox"}));
  EXPECT_EQ(problem, "");
}

TEST(SuiteRegistryTest, ACommaListTakesNamesAndAliasesAndANamedOptInSuite) {
  std::string problem;
  EXPECT_EQ(Parse("a,slow,beta,alpha", problem), (std::set<std::string>{"alpha", "beta", "slow"}));
  EXPECT_EQ(problem, "");
  EXPECT_EQ(Parse("all,slow", problem),
            (std::set<std::string>{"alpha", "beta", "sandbox", "slow"}));
}

TEST(SuiteRegistryTest, AnUnknownOrEmptyWordNamesEverySuite) {
  for (const char* bad : {"alphas", "alpha,", "", "ALPHA"}) {
    std::string problem;
    Parse(bad, problem);
    EXPECT_EQ(problem, "--suite is all, or a comma-separated list of alpha, beta, sandbox, slow")
        << bad;
  }
}

TEST(SuiteRegistryTest, UsageListsEachSuiteAlignedThenItsAlias) {
  EXPECT_EQ(SuiteUsage(kFakes),
            "  --suite S,...  all (the default), or a comma-separated list of these suites:\n"
            "                   alpha    the first\n"
            "                   beta     the second\n"
            "                   sandbox  a backend\n"
            "                   slow     opt in (not in all)\n"
            "                 `a` is accepted for alpha\n");
}

TEST(SuiteRegistryTest, ListingIsOneNameTabDescriptionLinePerSuite) {
  EXPECT_EQ(SuiteListing(kFakes),
            "alpha\tthe first\nbeta\tthe second\nsandbox\ta backend\nslow\topt in (not in all)\n");
}

TEST(SuiteRegistryTest, PhraseNamesTheSuitesThatJudgeOneThing) {
  EXPECT_EQ(SuitesPhrase(kFakes, SuiteJudges::kImplementation), "the alpha and beta suites");
  EXPECT_EQ(SuitesPhrase(kFakes, SuiteJudges::kBackend), "the sandbox suite");
  EXPECT_EQ(SuitesPhrase({"a", "b", "c"}), "the a, b and c suites");
}

GateOptions Selecting(std::set<std::string> suites) {
  GateOptions o;
  o.registry = kFakes;
  o.suites = std::move(suites);
  return o;
}

TEST(SuiteRegistryTest, ARunIsPartialUnlessEverySuiteInAllRuns) {
  EXPECT_FALSE(Selecting({"alpha", "beta", "sandbox"}).Partial());
  EXPECT_TRUE(Selecting({"alpha", "beta", "slow"}).Partial());
  GateOptions filtered = Selecting({"alpha", "beta", "sandbox"});
  filtered.filter.emplace("x");
  EXPECT_TRUE(filtered.Partial());
}

TEST(SuiteRegistryTest, ATesteeIsJudgedWholeByTheSuitesThatJudgeAnImplementation) {
  GateOptions o = Selecting({"alpha", "beta"});
  o.testee = {"t"};
  EXPECT_FALSE(o.Partial());
  o.suites = {"alpha", "sandbox", "slow"};
  EXPECT_TRUE(o.Partial());
}

TEST(SuiteRegistryTest, TheBackendSuitesAloneAreTheBackendsVerdict) {
  EXPECT_TRUE(Selecting({"sandbox"}).BackendOnly());
  EXPECT_FALSE(Selecting({"sandbox"}).Partial());
  EXPECT_FALSE(Selecting({"sandbox", "slow"}).BackendOnly());
  GateOptions with_testee = Selecting({"sandbox"});
  with_testee.testee = {"t"};
  EXPECT_FALSE(with_testee.BackendOnly());
}

// The gate's own list: the order its report has always had, names a Bazel target can carry, and
// descriptions that keep the usage text within 100 columns. A new suite changes none of these.
size_t Position(std::string_view name) {
  const SuiteList suites = GateSuites();
  for (size_t i = 0; i < suites.size(); ++i) {
    if (suites[i]->name == name) return i;
  }
  ADD_FAILURE() << "the gate has no suite " << name;
  return suites.size();
}

TEST(GateSuitesTest, TheGatesSuitesRunInTheReportsOrder) {
  EXPECT_LT(Position("kind"), Position("catalog"));
  EXPECT_LT(Position("catalog"), Position("properties"));
  EXPECT_LT(Position("properties"), Position("backend"));
  EXPECT_LT(Position("backend"), Position("stack"));
  EXPECT_LT(Position("stack"), Position("live"));
  std::string problem;
  EXPECT_EQ(ParseSuiteList(GateSuites(), "cases", problem), (std::set<std::string>{"kind"}));
  std::set<std::string_view> names;
  for (const Suite* suite : GateSuites()) EXPECT_TRUE(names.insert(suite->name).second);
}

TEST(GateSuitesTest, NamesAndDescriptionsFitTheirPlaces) {
  for (const Suite* suite : GateSuites()) {
    EXPECT_EQ(suite->name.find_first_not_of("abcdefghijklmnopqrstuvwxyz_"), std::string::npos)
        << suite->name << ": a name is a Bazel target's part (gate_<name>_test) and a word";
    EXPECT_LE(suite->description.size(), kMaxDescription) << suite->name;
    EXPECT_EQ(suite->description.find_first_of("\t\n"), std::string::npos) << suite->name;
    EXPECT_NE(suite->run, nullptr) << suite->name;
  }
  std::istringstream usage(SuiteUsage(GateSuites()));
  for (std::string line; std::getline(usage, line);) EXPECT_LE(line.size(), 100u) << line;
}

}  // namespace
}  // namespace azure_pricing::conformance
