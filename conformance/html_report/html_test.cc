#include "conformance/html_report/html.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azure_pricing::conformance::html_report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

TEST(EscapeTest, MarkupCharactersBecomeEntities) {
  EXPECT_EQ(Escape(R"(<a href="x">'&'</a>)"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
}

TEST(EscapeTest, WellFormedUtf8IsKept) {
  EXPECT_EQ(Escape("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"), "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
}

TEST(EscapeTest, BytesThatAreNotUtf8BecomeReplacementCharacters) {
  EXPECT_EQ(Escape("a\xFF" "b"), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(Escape("\xC3"), "\xEF\xBF\xBD");                    // cut short
  EXPECT_EQ(Escape("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");    // overlong
  EXPECT_EQ(Escape("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
}

TEST(ValueTest, AShortOneLineValueIsShownInline) {
  EXPECT_EQ(Value("actual", "refused/<x>"), "<code class=\"value\">refused/&lt;x&gt;</code>");
}

TEST(ValueTest, ALongValueFoldsUnderItsLabelAndSize) {
  const std::string long_value(500, 'x');
  const std::string html = Value("inputs", long_value);
  EXPECT_THAT(html, StartsWith("<details class=\"value\"><summary>inputs (500 B)</summary><pre>"));
  EXPECT_THAT(html, HasSubstr(long_value));
}

TEST(ValueTest, AValueOfSeveralLinesFoldsWhateverItsLength) {
  EXPECT_THAT(Value("detail", "a\nb"), StartsWith("<details"));
  EXPECT_THAT(Value("detail", "ab", 0), StartsWith("<details"));
}

TEST(PrettyJsonTest, JsonIsIndentedAndOtherTextKept) {
  EXPECT_EQ(PrettyJson(R"({"a":[1]})"), "{\n  \"a\": [\n    1\n  ]\n}");
  EXPECT_EQ(PrettyJson("not json {"), "not json {");
}

TEST(SizeTest, BytesUpTo999ThenKilobytes) {
  EXPECT_EQ(Size(999), "999 B");
  EXPECT_EQ(Size(1250), "1.2 kB");
  EXPECT_THAT(Size(0), Not(HasSubstr("kB")));
}

TEST(AnchorTest, ChecksAndRequirementsHaveTheirOwnForms) {
  EXPECT_EQ(CheckAnchor("kind", "refuse-service-without-sku"), "kind/refuse-service-without-sku");
  EXPECT_EQ(RequirementAnchor("ARG-001"), "req-ARG-001");
}

}  // namespace
}  // namespace azure_pricing::conformance::html_report
