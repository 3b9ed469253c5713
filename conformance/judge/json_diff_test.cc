#include "conformance/judge/json_diff.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "conformance/citations/cites.h"

namespace azure_pricing {
CITES("PROFILE-006");
namespace conformance::judge {
namespace {

using nlohmann::ordered_json;

TEST(JsonDiff, MemberOrderAndNumberSpellingCarryNoMeaning) {
  const ordered_json a = ordered_json::parse(R"({"a":1,"b":{"c":[1,2.5]}})");
  const ordered_json b = ordered_json::parse(R"({"b":{"c":[1.0,2.5]},"a":1})");
  EXPECT_TRUE(JsonDifferences(a, b).empty());
}

TEST(JsonDiff, NamesThePathOfEachDifference) {
  const ordered_json got = ordered_json::parse(
      R"({"prices":[{"retailPrice":0.19,"extra":true}],"truncated":false})");
  const ordered_json want = ordered_json::parse(
      R"({"prices":[{"retailPrice":0.192,"meterName":"x"}],"truncated":"false"})");
  EXPECT_EQ(JsonDifferences(got, want),
            (std::vector<std::string>{"$.prices[0].retailPrice: 0.19, want 0.192",
                                      "$.prices[0].meterName: missing, want \"x\"",
                                      "$.prices[0].extra: unexpected true",
                                      "$.truncated: false, want \"false\""}));
}

TEST(JsonDiff, ArraysOfDifferentLengthSayBoth) {
  EXPECT_EQ(DescribeJsonDifference(ordered_json::parse("[1]"), ordered_json::parse("[1,2]")),
            "$: 1 items, want 2");
}

TEST(JsonDiff, ALongListIsCut) {
  ordered_json got = ordered_json::array(), want = ordered_json::array();
  for (int i = 0; i < 8; ++i) {
    got.push_back(i);
    want.push_back(i + 100);
  }
  EXPECT_EQ(DescribeJsonDifference(got, want, 2), "$[0]: 0, want 100; $[1]: 1, want 101; and 6 more");
}

}  // namespace
}  // namespace conformance::judge
}  // namespace azure_pricing
