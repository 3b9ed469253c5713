#include "conformance/judge/filter_tree.h"

#include <gtest/gtest.h>

#include "conformance/citations/cites.h"

namespace azure_pricing {
CITES("PROFILE-005", "ARG-006", "REGION-001");
namespace conformance::judge {
namespace {

bool Same(const std::string& a, const std::string& b) {
  return CanonicalText(ParseFilter(a)) == CanonicalText(ParseFilter(b));
}

constexpr char kExpansion[] =
    "(armRegionName eq 'eastus' or armRegionName eq 'Global' or armRegionName eq 'Zone 1')";

TEST(FilterTree, OperandOrderOfAndAndOrCarriesNoMeaning) {
  EXPECT_TRUE(Same(std::string(kExpansion) + " and (meterName eq 'x')",
                   "(meterName eq 'x') and (armRegionName eq 'Zone 1' or "
                   "armRegionName eq 'eastus' or armRegionName eq 'Global')"));
}

TEST(FilterTree, RedundantParenthesesSpacingAndDuplicatesCarryNoMeaning) {
  EXPECT_TRUE(Same("a eq 'x' and b eq 'y'", "((a  eq 'x') and ((b eq 'y')))"));
  EXPECT_TRUE(Same("a eq 'x' or a eq 'x'", "a eq 'x'"));
  EXPECT_TRUE(Same("a eq 'x' and (b eq 'y' and c eq 'z')", "c eq 'z' and a eq 'x' and b eq 'y'"));
}

TEST(FilterTree, PrecedenceIsMeaning) {
  // The CLI ANDs its typed clauses with the raw filter without parentheses.
  EXPECT_FALSE(Same("armSkuName eq 'S' and m eq 'a' or m eq 'b'",
                    "armSkuName eq 'S' and (m eq 'a' or m eq 'b')"));
}

TEST(FilterTree, QuotedTextIsNeitherSplitNorCollapsed) {
  const FilterTree t = ParseFilter("meterName eq 'a) or (b  and c' and x eq 'O''Brien and'");
  ASSERT_EQ(t.kind, FilterTree::Kind::kAnd);
  ASSERT_EQ(t.operands.size(), 2u);
  EXPECT_EQ(CanonicalText(t),
            "(meterName eq 'a) or (b  and c' and x eq 'O''Brien and')");
  EXPECT_FALSE(Same("m eq 'a  b'", "m eq 'a b'"));
}

TEST(FilterTree, LocationsOfAnExpansionAreASet) {
  EXPECT_FALSE(Same(kExpansion, "(armRegionName eq 'eastus' or armRegionName eq 'Global')"));
  EXPECT_EQ(DescribeFilterDifference(
                ParseFilter("(armRegionName eq 'eastus' or armRegionName eq 'Global')"),
                ParseFilter(kExpansion)),
            "lacks armRegionName eq 'Zone 1'");
}

TEST(FilterTree, UnbalancedTextIsOneAtom) {
  const FilterTree t = ParseFilter("a eq 'x' and (b");
  EXPECT_EQ(t.kind, FilterTree::Kind::kAtom);
  EXPECT_EQ(t.atom, "a eq 'x' and (b");
}

TEST(FilterTree, KeywordsNeedWordBoundaries) {
  const FilterTree t = ParseFilter("productName eq 'x' and brand eq 'y'");
  EXPECT_EQ(t.operands.size(), 2u);
  EXPECT_EQ(ParseFilter("android eq 'orange'").kind, FilterTree::Kind::kAtom);
}

TEST(FilterTree, CliFilterJoinsTypedClausesThenTheRawFilterWithoutParentheses) {
  EXPECT_EQ(CliFilter({.sku = "O'Brien", .region = "Global", .price_type = "Consumption",
                       .filter = "(m eq 'a' or m eq 'b')"}),
            "armSkuName eq 'O''Brien' and armRegionName eq 'Global' and priceType eq "
            "'Consumption' and (m eq 'a' or m eq 'b')");
  EXPECT_EQ(CliFilter({}), "");
}

TEST(FilterTree, DifferenceNamesTheChangedOperandOnly) {
  const std::string want = "armSkuName eq 'x' and " + std::string(kExpansion);
  const std::string got =
      "armSkuName eq 'x' and (armRegionName eq 'eastus' or armRegionName eq 'Global' or "
      "armRegionName eq 'zone 1')";
  EXPECT_EQ(DescribeFilterDifference(ParseFilter(got), ParseFilter(want)),
            "lacks armRegionName eq 'Zone 1'; has armRegionName eq 'zone 1'");
  EXPECT_EQ(DescribeFilterDifference(ParseFilter(want), ParseFilter(want)), "");
}

}  // namespace
}  // namespace conformance::judge
}  // namespace azure_pricing
