#include "ref/pricing/arguments.h"

#include <gtest/gtest.h>

#include <string>

#include "conformance/citations/cites.h"

namespace azure_pricing {
CITES("ARG-001", "ARG-002", "ARG-004", "ARG-005", "ARG-006", "ARG-008", "ARG-009", "ARG-010",
      "REGION-008", "BOUND-015");
namespace {

std::string ReasonOf(std::string_view json) {
  const StatusOr<ToolArguments> args = ParseToolArguments(json);
  return args.ok() ? "ok" : std::string(args.status().reason());
}

TEST(ArgumentsTest, DefaultsApplyWhenOmitted) {
  const StatusOr<ToolArguments> args = ParseToolArguments(R"({"sku":"Standard_LRS"})");
  ASSERT_TRUE(args.ok());
  EXPECT_EQ(args->currency, "USD");
  EXPECT_FALSE(args->include_savings_plan);
  EXPECT_FALSE(args->filter.has_value());
}

TEST(ArgumentsTest, EachFilterArgumentAloneIsEnough) {
  for (const char* json : {R"({"sku":"a"})", R"({"region":"eastus"})", R"({"filter":"x"})",
                           R"({"service_family":"Compute"})", R"({"price_type":"Reservation"})",
                           R"({"sku":"a","service":"Virtual Machines"})"}) {
    EXPECT_EQ(ReasonOf(json), "ok") << json;
  }
  EXPECT_EQ(ReasonOf(R"({"currency":"EUR","include_savings_plan":true})"), "missing_filter");
  EXPECT_EQ(ReasonOf("{}"), "missing_filter");
}

TEST(ArgumentsTest, ServiceWithoutSkuIsRefusedWithTheAlternative) {
  const StatusOr<ToolArguments> args =
      ParseToolArguments(R"({"service":"Virtual Network","filter":"a"})");
  ASSERT_FALSE(args.ok());
  EXPECT_EQ(args.status().outcome(), Outcome::kRefused);
  EXPECT_EQ(args.status().reason(), "service_without_sku");
  EXPECT_NE(args.status().message().find("omit both service and sku"), std::string::npos);
}

TEST(ArgumentsTest, PriceTypesAreExact) {
  for (std::string_view t : kPriceTypes) {
    EXPECT_EQ(ReasonOf(R"({"price_type":")" + std::string(t) + "\"}"), "ok");
  }
  EXPECT_EQ(ReasonOf(R"({"price_type":"SavingsPlan"})"), "invalid_price_type");
  EXPECT_EQ(ReasonOf(R"({"price_type":"reservation"})"), "invalid_price_type");
}

TEST(ArgumentsTest, ServiceFamiliesAreTheCliEnumValues) {
  EXPECT_EQ(kServiceFamilies.size(), 26u);
  for (std::string_view f : kServiceFamilies) {
    EXPECT_EQ(ReasonOf(R"({"service_family":")" + std::string(f) + "\"}"), "ok") << f;
  }
  EXPECT_EQ(ReasonOf(R"({"service_family":"compute"})"), "invalid_service_family");
}

TEST(ArgumentsTest, CurrencyIsThreeUpperCaseLetters) {
  EXPECT_EQ(ReasonOf(R"({"sku":"a","currency":"JPY"})"), "ok");
  for (const char* c : {"usd", "US", "USDX", "U$D", "ÜSD"}) {
    EXPECT_EQ(ReasonOf(std::string(R"({"sku":"a","currency":")") + c + "\"}"), "invalid_currency")
        << c;
  }
}

TEST(ArgumentsTest, EmptyStringsAreRefusedIncludingRegion) {
  for (const char* name :
       {"sku", "service", "region", "service_family", "price_type", "currency", "filter"}) {
    const std::string json = std::string(R"({"sku":"a",")") + name + R"(":""})";
    if (std::string(name) == "sku") continue;
    EXPECT_EQ(ReasonOf(json), "empty_value") << name;
  }
  EXPECT_EQ(ReasonOf(R"({"sku":""})"), "empty_value");
}

TEST(ArgumentsTest, LengthBoundsCountCodePoints) {
  const std::string at_bound(kMaxTypedValueLength, 'a');
  EXPECT_EQ(ReasonOf(R"({"sku":")" + at_bound + "\"}"), "ok");
  EXPECT_EQ(ReasonOf(R"({"sku":")" + at_bound + "a\"}"), "value_too_long");
  std::string accented;
  for (size_t i = 0; i < kMaxTypedValueLength; ++i) accented += "\xc3\xa9";  // 2 bytes, 1 char
  EXPECT_EQ(ReasonOf(R"({"sku":")" + accented + "\"}"), "ok");
  EXPECT_EQ(ReasonOf(R"({"filter":")" + std::string(kMaxFilterLength, 'f') + "\"}"), "ok");
  EXPECT_EQ(ReasonOf(R"({"filter":")" + std::string(kMaxFilterLength + 1, 'f') + "\"}"),
            "value_too_long");
  EXPECT_EQ(ReasonOf(R"({"filter":")" + std::string(kMaxArgumentsJsonBytes, 'f') + "\"}"),
            "arguments_too_large");
}

TEST(ArgumentsTest, ForbiddenCharacterClasses) {
  EXPECT_EQ(ForbiddenCharacterReason("plain text 'with' quotes"), "");
  EXPECT_EQ(ForbiddenCharacterReason("tab\there"), "control_character");
  EXPECT_EQ(ForbiddenCharacterReason("del\x7f"), "control_character");
  EXPECT_EQ(ForbiddenCharacterReason("c1\xc2\x9b"), "control_character");
  EXPECT_EQ(ForbiddenCharacterReason("ls\xe2\x80\xa8"), "line_separator");
  EXPECT_EQ(ForbiddenCharacterReason("ps\xe2\x80\xa9"), "line_separator");
  EXPECT_EQ(ForbiddenCharacterReason("alm\xd8\x9c"), "bidi_control");
  EXPECT_EQ(ForbiddenCharacterReason("rlo\xe2\x80\xae"), "bidi_control");
  EXPECT_EQ(ForbiddenCharacterReason("pdi\xe2\x81\xa9"), "bidi_control");
  EXPECT_EQ(ForbiddenCharacterReason("bad\xff"), "invalid_utf8");
  // Neighbours of the forbidden ranges are fine.
  EXPECT_EQ(ForbiddenCharacterReason("nbsp\xc2\xa0 zwj\xe2\x80\x8d euro\xe2\x82\xac"), "");
}

TEST(ArgumentsTest, FilterMustStayInsideItsParentheses) {
  EXPECT_TRUE(FilterStaysParenthesized("a eq 'x' or (b eq 'y')"));
  EXPECT_TRUE(FilterStaysParenthesized("meterName eq ')(' and skuName eq 'it''s ('"));
  EXPECT_TRUE(FilterStaysParenthesized("contains(meterName, 'Spot')"));
  EXPECT_TRUE(FilterStaysParenthesized("x eq ''''"));  // a literal holding one quote
  EXPECT_FALSE(FilterStaysParenthesized("a) or (b"));
  EXPECT_FALSE(FilterStaysParenthesized("(a"));
  EXPECT_FALSE(FilterStaysParenthesized("a)"));
  EXPECT_FALSE(FilterStaysParenthesized("a eq 'x"));
  EXPECT_FALSE(FilterStaysParenthesized("a eq 'x'' or (b)"));  // '' keeps the literal open
  EXPECT_EQ(ReasonOf(R"({"sku":"x","filter":"a) or (b"})"), "unbalanced_filter");
}

TEST(ArgumentsTest, TerminalSafeNeutralizesControlsAndCutsOnCharacters) {
  EXPECT_EQ(TerminalSafe("\x1b[31mRED\x1b]0;x\x07", 100), "?[31mRED?]0;x?");
  EXPECT_EQ(TerminalSafe("rl\xe2\x80\xaeo \xc2\x9b \xff", 100), "rl?o ? ?");
  EXPECT_EQ(TerminalSafe("\xc3\xa9\xc3\xa9\xc3\xa9", 2), "\xc3\xa9\xc3\xa9~");
  EXPECT_EQ(TerminalSafe("abc", 3), "abc");
  EXPECT_EQ(TerminalSafe("\xe2\x82", 5), "??");
}

TEST(ArgumentsTest, StructuralRefusals) {
  EXPECT_EQ(ReasonOf(R"({"sku":"a","osType":"Windows"})"), "unknown_argument");
  EXPECT_EQ(ReasonOf(R"({"sku":1})"), "wrong_type");
  EXPECT_EQ(ReasonOf(R"({"sku":"a","include_savings_plan":1})"), "wrong_type");
  EXPECT_EQ(ReasonOf(R"({"sku":"a","sku":"b"})"), "duplicate_argument");
  EXPECT_EQ(ReasonOf(R"("sku")"), "malformed_arguments");
  EXPECT_EQ(ReasonOf(R"({"sku":"a"} trailing)"), "malformed_arguments");
  EXPECT_EQ(ReasonOf("{\"sku\":\"\xff\"}"), "invalid_utf8");
  EXPECT_EQ(ReasonOf(R"({"sku":{"nested":{"deeper":{"deepest":{}}}}})"), "malformed_arguments");
}

TEST(ArgumentsTest, ByteLevelRefusalsNameTheArgument) {
  auto message = [](std::string_view json) { return ParseToolArguments(json).status().message(); };
  EXPECT_EQ(message("{\"sku\":\"a\",\"filter\":\"x\xff\"}"),
            "Argument 'filter' is not valid UTF-8.");
  EXPECT_EQ(message(R"({"region":"a\udc00"})"), "Argument 'region' is not valid UTF-8.");
  EXPECT_EQ(message(R"({"sku":"a","sku":"b"})"), "Argument 'sku' is given more than once.");
  // A name that is not an argument is never repeated back.
  EXPECT_EQ(message(R"({"x-secret":"a","x-secret":"b"})"),
            "The arguments name the same key twice.");
  EXPECT_EQ(message("{\"x-secret\xff\":\"a\"}"), "The arguments are not valid UTF-8.");
}

TEST(ArgumentsTest, OptionLikeValuesNeverReachTheCli) {
  EXPECT_EQ(ReasonOf(R"({"sku":"@/etc/passwd"})"), "option_like_value");
  EXPECT_EQ(ReasonOf(R"({"sku":"a","region":"--"})"), "option_like_value");
  EXPECT_EQ(ReasonOf(R"({"sku":"-h"})"), "option_like_value");
  // A raw filter is wrapped in parentheses, so it may start with anything.
  EXPECT_EQ(ReasonOf(R"({"filter":"-x"})"), "ok");
}

TEST(ArgumentsTest, RefusalsNeverContainTheValue) {
  const std::string secret = "SECRET-customer-name-12345";
  for (const std::string& json :
       {R"({"sku":")" + secret + R"(\n"})", R"({"price_type":")" + secret + "\"}",
        R"({"sku":"a","currency":")" + secret + "\"}", R"({"service":")" + secret + "\"}",
        R"({"service_family":")" + secret + "\"}", R"({")" + secret + R"(":"x"})"}) {
    const StatusOr<ToolArguments> args = ParseToolArguments(json);
    ASSERT_FALSE(args.ok()) << json;
    EXPECT_EQ(args.status().message().find("SECRET"), std::string::npos) << args.status().message();
  }
}

}  // namespace
}  // namespace azure_pricing
