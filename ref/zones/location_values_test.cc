#include "ref/zones/location_values.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "ref/zones/zones.h"

namespace azure_pricing::zones {
namespace {

TEST(LocationValuesTest, EveryExpansionZoneIsALocationValueOfThatKindAndNoOtherIs) {
  std::set<std::string_view> expansion(kExpansionZones.begin(), kExpansionZones.end());
  size_t expansion_kind = 0;
  for (const LocationValue& v : kLocationValues) {
    if (v.kind == LocationKind::kExpansionZone) {
      ++expansion_kind;
      EXPECT_EQ(expansion.count(v.value), 1u) << v.value;
    }
  }
  EXPECT_EQ(expansion_kind, kExpansionZones.size());
  for (std::string_view zone : kExpansionZones) EXPECT_TRUE(IsLocationValue(zone)) << zone;
}

TEST(LocationValuesTest, ValuesAreDistinctEvenIgnoringCaseAndAreNotArmNames) {
  std::set<std::string> folded;
  for (const LocationValue& v : kLocationValues) {
    std::string f(v.value);
    std::transform(f.begin(), f.end(), f.begin(), [](unsigned char c) { return std::tolower(c); });
    EXPECT_TRUE(folded.insert(f).second) << v.value;
    EXPECT_EQ(ZoneTable::Bundled().Find(v.value), nullptr) << v.value;
  }
}

TEST(LocationValuesTest, ExactValuesAreRecognisedAndCaseVariantsNamed) {
  EXPECT_TRUE(IsLocationValue("Global"));
  EXPECT_TRUE(IsLocationValue("DE Zone 1"));
  EXPECT_TRUE(IsLocationValue("Zone 1 (China)"));
  EXPECT_FALSE(IsLocationValue("global"));
  EXPECT_FALSE(IsLocationValue("eastus"));
  EXPECT_FALSE(IsLocationValue("Zone 10"));
  EXPECT_EQ(LocationValueDifferingInCase("global"), std::optional<std::string_view>("Global"));
  EXPECT_EQ(LocationValueDifferingInCase("zone 1"), std::optional<std::string_view>("Zone 1"));
  EXPECT_EQ(LocationValueDifferingInCase("US GOV ZONE 2"),
            std::optional<std::string_view>("US Gov Zone 2"));
  EXPECT_EQ(LocationValueDifferingInCase("cn zone 1"), std::optional<std::string_view>("CN Zone 1"));
  EXPECT_EQ(LocationValueDifferingInCase("Global"), std::nullopt);
  EXPECT_EQ(LocationValueDifferingInCase("eastus"), std::nullopt);
  EXPECT_EQ(LocationValueDifferingInCase("zone1"), std::nullopt);
}

TEST(LocationValuesTest, SpacingVariantsAreNamedAndNothingElse) {
  EXPECT_EQ(LocationValueDifferingInSpacing("Zone  1"), std::optional<std::string_view>("Zone 1"));
  EXPECT_EQ(LocationValueDifferingInSpacing(" Global"), std::optional<std::string_view>("Global"));
  EXPECT_EQ(LocationValueDifferingInSpacing("us  gov zone 1 "),
            std::optional<std::string_view>("US Gov Zone 1"));
  EXPECT_EQ(LocationValueDifferingInSpacing("Zone 1"), std::nullopt);   // exact
  EXPECT_EQ(LocationValueDifferingInSpacing("zone 1"), std::nullopt);   // a case variant
  EXPECT_EQ(LocationValueDifferingInSpacing("Zone1"), std::nullopt);    // not a space change
  EXPECT_EQ(LocationValueDifferingInSpacing("eastus "), std::nullopt);  // not a location value
}

TEST(LocationValuesTest, ListNamesEveryValueInOrder) {
  const std::string list = LocationValueList();
  EXPECT_EQ(list.rfind("'Global', 'Zone 1', 'Zone 2'", 0), 0u) << list;
  EXPECT_NE(list.find("'Zone 1 (China)', 'US Gov'"), std::string::npos) << list;
}

}  // namespace
}  // namespace azure_pricing::zones
