#include "conformance/judge/profile_facts.h"

#include <gtest/gtest.h>

#include "conformance/citations/cites.h"

namespace azure_pricing {
CITES("PROFILE-001", "PROFILE-002");
namespace conformance::judge {
namespace {

std::vector<std::vector<std::string>> Alternatives(const std::vector<Fact>& facts) {
  std::vector<std::vector<std::string>> out;
  for (const Fact& f : facts) out.push_back(f.any);
  return out;
}

TEST(ProfileFacts, ACellIsFactsAlternativesAndEachOf) {
  EXPECT_EQ(Alternatives(FactsOfCell(
                "`\"filter\"`; `\"parentheses\"` / `\"parenthesis\"`; each of `\"a\"`, `\"b\"`; "
                "`\"empty\" / \"blank\"`")),
            (std::vector<std::vector<std::string>>{{"filter"}, {"parentheses", "parenthesis"},
                                                   {"a"}, {"b"}, {"empty", "blank"}}));
}

TEST(ProfileFacts, FactsThatDependOnTheCallAreLeftToTheCases) {
  EXPECT_EQ(Alternatives(FactsOfCell(
                "\xC2\xAB" "argument\xC2\xBB; the maximum, `\"256\"` or `\"2048\"`; `\"x; y\"`")),
            (std::vector<std::vector<std::string>>{{"x; y"}}));
  EXPECT_TRUE(FactsOfCell("none: the gate gives it a fixed text").empty());
}

constexpr char kProfile[] = R"(intro
<!-- reason-table: tool -->
| outcome | code | when it applies | facts the message states |
|---|---|---|---|
| refused | `missing_filter` | none given | each of `"sku"`, `"filter"` |
| failed | `timeout` | too slow | `"timeout"` / `"timed out"` |
<!-- /reason-table -->
<!-- facts-table: messages -->
| message | which | facts |
|---|---|---|
| `completed` | first | `"completed"` / `"complete"` |
<!-- /facts-table -->
)";

TEST(ProfileFacts, TheTablesGiveFactsByReasonAndByMessage) {
  const std::optional<ProfileFacts> facts = ParseProfileFacts(kProfile);
  ASSERT_TRUE(facts.has_value());
  EXPECT_EQ(facts->by_reason.size(), 2u);
  EXPECT_EQ(Alternatives(facts->by_reason.at({"refused", "missing_filter"})),
            (std::vector<std::vector<std::string>>{{"sku"}, {"filter"}}));
  EXPECT_EQ(Alternatives(facts->by_message.at("completed")),
            (std::vector<std::vector<std::string>>{{"completed", "complete"}}));
  EXPECT_FALSE(ParseProfileFacts("no tables here").has_value());
}

TEST(ProfileFacts, TheBundledProfileGivesEveryReasonARow) {
  const std::optional<ProfileFacts> facts = LoadProfileFacts();
  ASSERT_TRUE(facts.has_value());
  EXPECT_GE(facts->by_reason.size(), 49u);
  for (const char* message : {"completed", "guidance", "truncated", "upstream_limit_reached"}) {
    EXPECT_EQ(facts->by_message.count(message), 1u) << message;
  }
}

}  // namespace
}  // namespace conformance::judge
}  // namespace azure_pricing
