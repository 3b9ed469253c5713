#include "conformance/judge/message_facts.h"

#include <gtest/gtest.h>

#include "conformance/citations/cites.h"

namespace azure_pricing {
CITES("PROFILE-002");
namespace conformance::judge {
namespace {

TEST(MessageFacts, QuotesCaseHyphensDigitGroupingAndSpacingCarryNoMeaning) {
  const std::string message = "The   'region' value is Case-Sensitive; at most 5,000 rows.";
  EXPECT_TRUE(States(message, {.any = {"region"}}));
  EXPECT_TRUE(States(message, {.any = {"case sensitive"}}));
  EXPECT_TRUE(States(message, {.any = {"5000 rows"}}));
  EXPECT_TRUE(States("the \xE2\x80\x9C" "filter\xE2\x80\x9D argument", {.any = {"'filter' argument"}}));
}

TEST(MessageFacts, AnApostropheEndsAWord) {
  EXPECT_TRUE(States("A reservation's price covers its term.", {.any = {"reservation"}}));
  EXPECT_TRUE(States("the CLI\xE2\x80\x99s output", {.any = {"CLI"}}));
  EXPECT_FALSE(States("A reservation's price", {.any = {"reservations"}}));
}

TEST(MessageFacts, AFactIsAWholeWordOrNumber) {
  EXPECT_FALSE(States("at most 2560 characters", {.any = {"256"}}));
  EXPECT_FALSE(States("the regional rows", {.any = {"region"}}));
  EXPECT_TRUE(States("at most 256 characters", {.any = {"256"}}));
}

TEST(MessageFacts, OneAlternativeSuffices) {
  EXPECT_TRUE(States("no continuation token", {.any = {"next page", "continuation"}}));
  EXPECT_FALSE(States("narrow it", {.any = {"next page", "continuation"}}));
}

TEST(MessageFacts, ACaseSensitiveFactKeepsItsSpelling) {
  EXPECT_FALSE(States("give it as global", {.any = {"Global"}, .case_sensitive = true}));
  EXPECT_TRUE(States("give it as \"Global\"", {.any = {"Global"}, .case_sensitive = true}));
}

TEST(MessageFacts, MissingFactsNamesEachByItsAlternatives) {
  EXPECT_EQ(MissingFacts("omit service", {{.any = {"omit"}}, {.any = {"sku", "SKU"}}}),
            (std::vector<std::string>{"sku | SKU"}));
}

TEST(MessageFacts, NormalizationIsStable) {
  EXPECT_EQ(NormalizeForFacts("  A 'b'-c, 1,024  ", false), "a b c, 1024");
  EXPECT_EQ(NormalizeForFacts("Zone 1", true), "Zone 1");
}

}  // namespace
}  // namespace conformance::judge
}  // namespace azure_pricing
