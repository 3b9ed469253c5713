// The bundled check list loads, follows its schema, and covers what the live check must
// (docs/live-check.md); a list that breaks the schema or repeats an id is refused.
#include "conformance/live/checks.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "conformance/citations/cites.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::live {
namespace {

CITES("HOST-004", "HOST-005");

using ::azure_pricing::StatusIs;

TEST(ChecksTest, TheBundledListLoadsAndEveryCheckCitesThePinnedContract) {
  StatusOr<std::string> text = BundledChecksJson();
  ASSERT_TRUE(text.ok());
  StatusOr<std::vector<LiveCheck>> checks = LoadChecks(*text);
  ASSERT_TRUE(checks.ok()) << checks.status().message();
  std::set<std::string> families;
  bool ceiling = false, filter_400 = false, savings_some = false, savings_none = false;
  for (const LiveCheck& c : *checks) {
    EXPECT_THAT(c.requirements, ::testing::Contains("HOST-004")) << c.id;
    families.insert(c.expect.zone_family);
    ceiling = ceiling || c.expect.ceiling;
    filter_400 = filter_400 || c.expect.upstream_status == 400;
    savings_some = savings_some || c.expect.savings_plan == "some";
    savings_none = savings_none || c.expect.savings_plan == "none";
  }
  EXPECT_TRUE(ceiling && filter_400 && savings_some && savings_none);
  for (const char* f : {"network", "edge", "dns", "expressroute", "front_door_standard_premium"}) {
    EXPECT_EQ(families.count(f), 1u) << f;
  }
}

TEST(ChecksTest, AListOutsideTheSchemaOrWithARepeatedIdIsRefused) {
  const std::string one =
      R"({"id":"a","what":"w","arguments":{},"requirements":["HOST-004"],"expect":{"outcome":"completed"}})";
  EXPECT_TRUE(LoadChecks(R"({"description":"d","checks":[)" + one + "]}").ok());
  EXPECT_THAT(LoadChecks(R"({"description":"d","checks":[)" + one + "," + one + "]}").status(),
              ProgramErrorIs(kMalformedChecks));
  EXPECT_THAT(LoadChecks(R"({"description":"d","checks":[{"id":"a","what":"w","arguments":{},)"
                         R"("requirements":["HOST-004"],"expect":{"outcome":"completed","expct":1}}]})")
                  .status(),
              ProgramErrorIs(kMalformedChecks));
  EXPECT_THAT(LoadChecks("[").status(), ProgramErrorIs(kMalformedChecks));
}

}  // namespace
}  // namespace azure_pricing::conformance::live
