#include "ref/pricing/arguments.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "conformance/citations/cites.h"
#include "ref/pricing/reasons.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing {
CITES("ARG-001", "ARG-002", "ARG-004", "ARG-005", "ARG-006", "ARG-008", "ARG-009", "ARG-010",
      "REGION-008", "BOUND-015");
namespace {

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
    EXPECT_THAT(ParseToolArguments(json), IsOk()) << json;
  }
  EXPECT_THAT(ParseToolArguments(R"({"currency":"EUR","include_savings_plan":true})"),
              StatusIs(Outcome::kRefused, reasons::kMissingFilter));
  EXPECT_THAT(ParseToolArguments("{}"), StatusIs(Outcome::kRefused, reasons::kMissingFilter));
}

TEST(ArgumentsTest, ServiceWithoutSkuIsRefusedWithTheAlternative) {
  const StatusOr<ToolArguments> args =
      ParseToolArguments(R"({"service":"Virtual Network","filter":"a"})");
  EXPECT_THAT(args, StatusIs(Outcome::kRefused, reasons::kServiceWithoutSku,
                             ::testing::HasSubstr("omit both service and sku")));
}

TEST(ArgumentsTest, PriceTypesAreExact) {
  for (std::string_view t : kPriceTypes) {
    EXPECT_THAT(ParseToolArguments(R"({"price_type":")" + std::string(t) + "\"}"), IsOk());
  }
  EXPECT_THAT(ParseToolArguments(R"({"price_type":"SavingsPlan"})"),
              StatusIs(Outcome::kRefused, reasons::kInvalidPriceType));
  EXPECT_THAT(ParseToolArguments(R"({"price_type":"reservation"})"),
              StatusIs(Outcome::kRefused, reasons::kInvalidPriceType));
}

TEST(ArgumentsTest, ServiceFamiliesAreTheCliEnumValues) {
  EXPECT_EQ(kServiceFamilies.size(), 26u);
  for (std::string_view f : kServiceFamilies) {
    EXPECT_THAT(ParseToolArguments(R"({"service_family":")" + std::string(f) + "\"}"), IsOk()) << f;
  }
  EXPECT_THAT(ParseToolArguments(R"({"service_family":"compute"})"),
              StatusIs(Outcome::kRefused, reasons::kInvalidServiceFamily));
}

TEST(ArgumentsTest, CurrencyIsThreeUpperCaseLetters) {
  EXPECT_THAT(ParseToolArguments(R"({"sku":"a","currency":"JPY"})"), IsOk());
  for (const char* c : {"usd", "US", "USDX", "U$D", "ÜSD"}) {
    EXPECT_THAT(ParseToolArguments(std::string(R"({"sku":"a","currency":")") + c + "\"}"),
                StatusIs(Outcome::kRefused, reasons::kInvalidCurrency))
        << c;
  }
}

TEST(ArgumentsTest, EmptyStringsAreRefusedIncludingRegion) {
  for (const char* name :
       {"sku", "service", "region", "service_family", "price_type", "currency", "filter"}) {
    const std::string json = std::string(R"({"sku":"a",")") + name + R"(":""})";
    if (std::string(name) == "sku") continue;
    EXPECT_THAT(ParseToolArguments(json), StatusIs(Outcome::kRefused, reasons::kEmptyValue))
        << name;
  }
  EXPECT_THAT(ParseToolArguments(R"({"sku":""})"),
              StatusIs(Outcome::kRefused, reasons::kEmptyValue));
}

TEST(ArgumentsTest, LengthBoundsCountCodePoints) {
  const std::string at_bound(kMaxTypedValueLength, 'a');
  EXPECT_THAT(ParseToolArguments(R"({"sku":")" + at_bound + "\"}"), IsOk());
  EXPECT_THAT(ParseToolArguments(R"({"sku":")" + at_bound + "a\"}"),
              StatusIs(Outcome::kRefused, reasons::kValueTooLong));
  std::string accented;
  for (size_t i = 0; i < kMaxTypedValueLength; ++i) accented += "\xc3\xa9";  // 2 bytes, 1 char
  EXPECT_THAT(ParseToolArguments(R"({"sku":")" + accented + "\"}"), IsOk());
  EXPECT_THAT(ParseToolArguments(R"({"filter":")" + std::string(kMaxFilterLength, 'f') + "\"}"),
              IsOk());
  EXPECT_THAT(ParseToolArguments(R"({"filter":")" + std::string(kMaxFilterLength + 1, 'f') + "\"}"),
              StatusIs(Outcome::kRefused, reasons::kValueTooLong));
  EXPECT_THAT(
      ParseToolArguments(R"({"filter":")" + std::string(kMaxArgumentsJsonBytes, 'f') + "\"}"),
      StatusIs(Outcome::kRefused, reasons::kArgumentsTooLarge));
  // The bound itself is allowed: valid arguments padded with blanks to exactly the bound.
  std::string text = R"({"sku":"x")";
  text += std::string(kMaxArgumentsJsonBytes - text.size() - 1, ' ') + "}";
  ASSERT_EQ(text.size(), kMaxArgumentsJsonBytes);
  EXPECT_THAT(ParseToolArguments(text), IsOk());
  EXPECT_THAT(ParseToolArguments(text + " "),
              StatusIs(Outcome::kRefused, reasons::kArgumentsTooLarge));
}

TEST(ArgumentsTest, ForbiddenCharacterClasses) {
  EXPECT_EQ(ForbiddenCharacterReason("plain text 'with' quotes"), "");
  EXPECT_EQ(ForbiddenCharacterReason("tab\there"), kCharControl);
  EXPECT_EQ(ForbiddenCharacterReason("del\x7f"), kCharControl);
  EXPECT_EQ(ForbiddenCharacterReason("c1\xc2\x9b"), kCharControl);
  EXPECT_EQ(ForbiddenCharacterReason("ls\xe2\x80\xa8"), kCharLineSeparator);
  EXPECT_EQ(ForbiddenCharacterReason("ps\xe2\x80\xa9"), kCharLineSeparator);
  EXPECT_EQ(ForbiddenCharacterReason("alm\xd8\x9c"), kCharBidiControl);
  EXPECT_EQ(ForbiddenCharacterReason("rlo\xe2\x80\xae"), kCharBidiControl);
  EXPECT_EQ(ForbiddenCharacterReason("pdi\xe2\x81\xa9"), kCharBidiControl);
  EXPECT_EQ(ForbiddenCharacterReason("bad\xff"), kCharInvalidUtf8);
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
  EXPECT_THAT(ParseToolArguments(R"({"sku":"x","filter":"a) or (b"})"),
              StatusIs(Outcome::kRefused, reasons::kUnbalancedFilter));
}

TEST(ArgumentsTest, TerminalSafeNeutralizesControlsAndCutsOnCharacters) {
  EXPECT_EQ(TerminalSafe("\x1b[31mRED\x1b]0;x\x07", 100), "?[31mRED?]0;x?");
  EXPECT_EQ(TerminalSafe("rl\xe2\x80\xaeo \xc2\x9b \xff", 100), "rl?o ? ?");
  EXPECT_EQ(TerminalSafe("\xc3\xa9\xc3\xa9\xc3\xa9", 2), "\xc3\xa9\xc3\xa9~");
  EXPECT_EQ(TerminalSafe("abc", 3), "abc");
  EXPECT_EQ(TerminalSafe("\xe2\x82", 5), "??");
}

TEST(ArgumentsTest, BlankValuesAreEmpty) {
  for (const char* blank : {" ", "   ", "\xc2\xa0", "\xe3\x80\x80 ", "\xe2\x80\x83"}) {
    for (const char* name : {"region", "filter", "service_family", "currency"}) {
      const std::string json = std::string(R"({"sku":"a",")") + name + "\":\"" + blank + "\"}";
      EXPECT_THAT(ParseToolArguments(json),
                  StatusIs(Outcome::kRefused, reasons::kEmptyValue, ::testing::HasSubstr(name)))
          << json;
    }
  }
  // A tab is a control character, refused by the character rule first.
  EXPECT_THAT(ParseToolArguments(R"({"sku":"\t"})"),
              StatusIs(Outcome::kRefused, reasons::kForbiddenCharacter));
  EXPECT_THAT(ParseToolArguments(R"({"sku":" a "})"), IsOk());
}

TEST(ArgumentsTest, LocationValuesAreExactAndCaseVariantsRefused) {
  for (const char* exact : {"Global", "Zone 1", "US Gov Zone 2", "DE Zone 1", "Zone 1 (China)"}) {
    EXPECT_THAT(ParseToolArguments(std::string(R"({"region":")") + exact + "\"}"), IsOk());
  }
  for (const char* variant : {"global", "GLOBAL", "zone 1", "us gov zone 2", "DE ZONE 1"}) {
    EXPECT_THAT(ParseToolArguments(std::string(R"({"region":")") + variant + "\"}"),
                StatusIs(Outcome::kRefused, reasons::kRegionCaseMismatch,
                         ::testing::AllOf(::testing::HasSubstr("case-sensitive"),
                                          ::testing::HasSubstr("'Global'"),
                                          ::testing::Not(::testing::HasSubstr(variant)))))
        << variant;
  }
  EXPECT_THAT(ParseToolArguments(R"({"region":"zone 9"})"),
              StatusIs(Outcome::kRefused, reasons::kRegionCaseMismatch,
                       ::testing::HasSubstr("location value 'Zone 9';")));
  // ARM region names keep matching ignoring case.
  EXPECT_THAT(ParseToolArguments(R"({"region":"EastUS"})"), IsOk());
}

TEST(ArgumentsTest, RegionsWithSpacesAtEitherEndOrChangedSpacingAreRefused) {
  for (const char* region : {" northeurope", "northeurope ", "northeurope\xc2\xa0",
                             "\xe3\x80\x80"
                             "northeurope"}) {
    EXPECT_THAT(ParseToolArguments(std::string(R"({"region":")") + region + "\"}"),
                StatusIs(Outcome::kRefused, reasons::kRegionWhitespace,
                         ::testing::Not(::testing::HasSubstr("northeurope"))))
        << region;
  }
  EXPECT_THAT(ParseToolArguments(R"({"region":"Zone  1"})"),
              StatusIs(Outcome::kRefused, reasons::kRegionWhitespace,
                       ::testing::HasSubstr("location value 'Zone 1'")));
  EXPECT_THAT(ParseToolArguments(R"({"region":" global "})"),
              StatusIs(Outcome::kRefused, reasons::kRegionWhitespace,
                       ::testing::HasSubstr("location value 'Global'")));
  // Other typed values keep their spaces: the price list has values such as 'Virtual Machines'.
  EXPECT_THAT(ParseToolArguments(R"({"sku":" a "})"), IsOk());
}

TEST(ArgumentsTest, StructuralRefusals) {
  EXPECT_THAT(ParseToolArguments(R"({"sku":"a","osType":"Windows"})"),
              StatusIs(Outcome::kRefused, reasons::kUnknownArgument));
  EXPECT_THAT(ParseToolArguments(R"({"sku":1})"), StatusIs(Outcome::kRefused, reasons::kWrongType));
  EXPECT_THAT(ParseToolArguments(R"({"sku":"a","include_savings_plan":1})"),
              StatusIs(Outcome::kRefused, reasons::kWrongType));
  EXPECT_THAT(ParseToolArguments(R"({"sku":"a","sku":"b"})"),
              StatusIs(Outcome::kRefused, reasons::kDuplicateArgument));
  EXPECT_THAT(ParseToolArguments(R"("sku")"),
              StatusIs(Outcome::kRefused, reasons::kMalformedArguments));
  EXPECT_THAT(ParseToolArguments(R"({"sku":"a"} trailing)"),
              StatusIs(Outcome::kRefused, reasons::kMalformedArguments));
  EXPECT_THAT(ParseToolArguments("{\"sku\":\"\xff\"}"),
              StatusIs(Outcome::kRefused, reasons::kInvalidUtf8));
  EXPECT_THAT(ParseToolArguments(R"({"sku":{"nested":{"deeper":{"deepest":{}}}}})"),
              StatusIs(Outcome::kRefused, reasons::kMalformedArguments));
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
  // A name repeated inside a value is not the argument given twice.
  EXPECT_EQ(message(R"({"filter":{"a":1,"a":2}})"), "The arguments name the same key twice.");
  EXPECT_EQ(message(R"({"filter":{"sku":1,"sku":2}})"), "The arguments name the same key twice.");
}

// Text that is not UTF-8 and repeated names are judged while the JSON is read, at their place
// in the text: before the unknown names, types and values judged after reading, and after any
// fault earlier in the text (docs/profile.md, the order of the argument checks).
TEST(ArgumentsTest, ReadingFaultsAreJudgedInTextOrderBeforeEverythingElse) {
  auto reason = [](std::string_view json) {
    return std::string(ParseToolArguments(json).status().reason());
  };
  EXPECT_EQ(reason(R"({"sku":5,"region":"a\ud800"})"), reasons::kInvalidUtf8);
  EXPECT_EQ(reason(R"({"read_only":true,"sku":"\udc00"})"), reasons::kInvalidUtf8);
  EXPECT_EQ(reason(R"({"filter":["a","\ud800"]})"), reasons::kInvalidUtf8);
  EXPECT_EQ(reason(R"({"sku":"x","filter":{"a":1,"a":2}})"), reasons::kDuplicateArgument);
  EXPECT_EQ(reason(R"({"read_only":[{"sku":1,"sku":2}]})"), reasons::kDuplicateArgument);
  EXPECT_EQ(reason(R"({"sku":"x" "region":"\ud800"})"), reasons::kMalformedArguments);
  EXPECT_EQ(reason(R"({"sku":"a","sku":"b","region":"\ud800"})"), reasons::kDuplicateArgument);
  EXPECT_EQ(reason(R"({"region":"\ud800","sku":"a","sku":"b"})"), reasons::kInvalidUtf8);
}

TEST(ArgumentsTest, OptionLikeValuesNeverReachTheCli) {
  EXPECT_THAT(ParseToolArguments(R"({"sku":"@/etc/passwd"})"),
              StatusIs(Outcome::kRefused, reasons::kOptionLikeValue));
  EXPECT_THAT(ParseToolArguments(R"({"sku":"a","region":"--"})"),
              StatusIs(Outcome::kRefused, reasons::kOptionLikeValue));
  EXPECT_THAT(ParseToolArguments(R"({"sku":"-h"})"),
              StatusIs(Outcome::kRefused, reasons::kOptionLikeValue));
  // A raw filter is wrapped in parentheses, so it may start with anything.
  EXPECT_THAT(ParseToolArguments(R"({"filter":"-x"})"), IsOk());
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
