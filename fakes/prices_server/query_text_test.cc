// The query string's lexical helpers, on the queries azmcp and the API's own NextPageLinks send.
#include "fakes/prices_server/query_text.h"

#include "gtest/gtest.h"

namespace azure_pricing::fakes::prices {
namespace {

TEST(PercentDecodeTest, DecodesEscapesOfEitherCase) {
  EXPECT_EQ(PercentDecode("serviceName%20eq%20%27Virtual%20Machines%27"),
            "serviceName eq 'Virtual Machines'");
  EXPECT_EQ(PercentDecode("%c3%BC%00x"), std::string("\xc3\xbc\0x", 4));
  EXPECT_EQ(PercentDecode("%24skip"), "$skip");
}

TEST(PercentDecodeTest, LeavesWhatIsNotAnEscapeAsItIs) {
  EXPECT_EQ(PercentDecode("a+b"), "a+b");
  EXPECT_EQ(PercentDecode("100%"), "100%");
  EXPECT_EQ(PercentDecode("%4"), "%4");
  EXPECT_EQ(PercentDecode("%zz%4g"), "%zz%4g");
  EXPECT_EQ(PercentDecode("%%41"), "%A");
  EXPECT_EQ(PercentDecode(""), "");
}

TEST(SplitQueryTest, KeepsOrderRawTextAndDecodedText) {
  const std::vector<QueryParam> params =
      SplitQuery("currencyCode=%27USD%27&%24filter=a%20eq%20'b=c'&$skip=1000");
  ASSERT_EQ(params.size(), 3u);
  EXPECT_EQ(params[0].raw_key, "currencyCode");
  EXPECT_EQ(params[0].raw_value, "%27USD%27");
  EXPECT_EQ(params[0].value, "'USD'");
  EXPECT_EQ(params[1].raw_key, "%24filter");
  EXPECT_EQ(params[1].key, "$filter");
  EXPECT_EQ(params[1].value, "a eq 'b=c'");
  EXPECT_EQ(params[2].key, "$skip");
  EXPECT_EQ(params[2].value, "1000");
}

TEST(SplitQueryTest, EmptyPartsAreLeftOutAndAKeyAloneHasAnEmptyValue) {
  const std::vector<QueryParam> params = SplitQuery("&&currencyCode&$filter=&");
  ASSERT_EQ(params.size(), 2u);
  EXPECT_EQ(params[0].raw_key, "currencyCode");
  EXPECT_EQ(params[0].raw_value, "");
  EXPECT_EQ(params[1].raw_key, "$filter");
  EXPECT_EQ(params[1].raw_value, "");
  EXPECT_TRUE(SplitQuery("").empty());
}

TEST(UnquoteTest, DropsOnePairOfSingleQuotes) {
  EXPECT_EQ(Unquote("'USD'"), "USD");
  EXPECT_EQ(Unquote("''"), "");
  EXPECT_EQ(Unquote("'x''"), "x'");
  EXPECT_EQ(Unquote("'"), "'");
  EXPECT_EQ(Unquote("USD'"), "USD'");
  EXPECT_EQ(Unquote("\"USD\""), "\"USD\"");
}

TEST(AsciiLowerTest, LowersAsciiOnly) {
  EXPECT_EQ(AsciiLower("EastUS Zone 1"), "eastus zone 1");
  EXPECT_EQ(AsciiLower("Z\xc3\x9crich"), "z\xc3\x9crich");  // Ü's bytes unchanged
  EXPECT_EQ(AsciiLower("[@`{"), "[@`{");
}

}  // namespace
}  // namespace azure_pricing::fakes::prices
