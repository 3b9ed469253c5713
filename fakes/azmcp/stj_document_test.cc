// The reader's failure texts and the getters' exceptions, against what the real azmcp
// 3.0.0-beta.46 printed for the same page bodies (probed 2026-11-30 through the fake API's body
// fault; the same bodies are differential scenarios, so the real binary keeps checking them).
#include "fakes/azmcp/stj_document.h"

#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace azure_pricing::fakes::azmcp::stj {
namespace {

TEST(ParseTest, ReaderErrorsMatchTheRealCli) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"Items\":[{\"serviceFamily\":\"Compute\",\"type\":\"Consumption\",\"retailPrice\":NaN}],\"NextPageLink\":null}",
       "'N' is an invalid start of a value. LineNumber: 0 | BytePositionInLine: 72."},
      {"{\"Items\":[{\"serviceFamily\":\"Compute\",\"type\":\"Consumption\"}],",
       "Expected start of a property name or value, but instead reached end of data. LineNumber: 0 | BytePositionInLine: 59."},
      {"{\"Items\":[] \"x\":1}",
       "'\"' is invalid after a value. Expected either ',', '}', or ']'. LineNumber: 0 | BytePositionInLine: 12."},
      {"",
       "The input does not contain any JSON tokens. Expected the input to start with a valid JSON token, when isFinalBlock is true. LineNumber: 0 | BytePositionInLine: 0."},
      {" ",
       "The input does not contain any JSON tokens. Expected the input to start with a valid JSON token, when isFinalBlock is true. LineNumber: 0 | BytePositionInLine: 1."},
      {"{\"Items\":[{\"serviceFamily\":\"Compute\",\"type\":\"Consumption\"},]}",
       "The JSON array contains a trailing comma at the end which is not supported in this mode. Change the reader options. LineNumber: 0 | BytePositionInLine: 59."},
      {"{\"Items\":[{\"serviceFamily\":\"Compute\",\"type\":\"Consumption\",\"retailPrice\":01}]}",
       "Invalid leading zero before '1'. LineNumber: 0 | BytePositionInLine: 73."},
      {"{\"Items\":[{\"serviceFamily\":\"Compute\",\"type\":\"Consumption\",\"retailPrice\":1.}]}",
       "'}' is invalid within a number, immediately after a decimal point ('.'). Expected a digit ('0'-'9'). LineNumber: 0 | BytePositionInLine: 74."},
      {"{\"Items\":[{\"serviceFamily\":\"Compute\",\"type\":\"Consumption\",\"skuName\":\"a\tb\"}]}",
       "'0x09' is invalid within a JSON string. The string should be correctly escaped. LineNumber: 0 | BytePositionInLine: 70."},
      {"{\"Items\":[]} x",
       "'x' is invalid after a single JSON value. Expected end of data. LineNumber: 0 | BytePositionInLine: 13."},
      {"{\"Items\":[",
       "Expected depth to be zero at the end of the JSON payload. There is an open JSON object or array that should be closed. LineNumber: 0 | BytePositionInLine: 10."},
      {"{\"Items\":",
       "Expected depth to be zero at the end of the JSON payload. There is an open JSON object or array that should be closed. LineNumber: 0 | BytePositionInLine: 9."},
      {"{\"Items\"",
       "Expected a value, but instead reached end of data. LineNumber: 0 | BytePositionInLine: 8."},
      {"{\"Items\":[{\"a\":\"xy",
       "Expected end of string, but instead reached end of data. LineNumber: 0 | BytePositionInLine: 18."},
      {"{\"Items\":[1",
       "'1' is an invalid end of a number. Expected a delimiter. LineNumber: 0 | BytePositionInLine: 11."},
      {"{\"Items\":[]",
       "Expected depth to be zero at the end of the JSON payload. There is an open JSON object or array that should be closed. LineNumber: 0 | BytePositionInLine: 11."},
      {"{\"Items\":tru",
       "'tru' is an invalid JSON literal. Expected the literal 'true'. LineNumber: 0 | BytePositionInLine: 12."},
      {"{\"Items\":[-",
       "Expected a digit ('0'-'9'), but instead reached end of data. LineNumber: 0 | BytePositionInLine: 11."},
      {"{\"Items\":[1.",
       "Expected a digit ('0'-'9'), but instead reached end of data. LineNumber: 0 | BytePositionInLine: 12."},
      {"{\"Items\":[1e",
       "Expected a digit ('0'-'9'), but instead reached end of data. LineNumber: 0 | BytePositionInLine: 12."},
      {"{\n\"Items\":[\n] x",
       "'x' is invalid after a value. Expected either ',', '}', or ']'. LineNumber: 2 | BytePositionInLine: 2."},
      {"{\"Items\":tx}",
       "'tx}' is an invalid JSON literal. Expected the literal 'true'. LineNumber: 0 | BytePositionInLine: 10."},
      {"{\"Items\":nul}",
       "'nul}' is an invalid JSON literal. Expected the literal 'null'. LineNumber: 0 | BytePositionInLine: 12."},
      {"{5:1}",
       "'5' is an invalid start of a property name. Expected a '\"'. LineNumber: 0 | BytePositionInLine: 1."},
      {"{\"a\" 1}",
       "'1' is invalid after a property name. Expected a ':'. LineNumber: 0 | BytePositionInLine: 5."},
      {"{\"a\":\"\\x\"}",
       "'x' is an invalid escapable character within a JSON string. The string should be correctly escaped. LineNumber: 0 | BytePositionInLine: 7."},
      {"{\"a\":\"\\u12G4\"}",
       "'G' is not a hex digit following '\\u' within a JSON string. The string should be correctly escaped. LineNumber: 0 | BytePositionInLine: 10."},
      {"{\"Items\":[1 2]}",
       "'2' is invalid after a value. Expected either ',', '}', or ']'. LineNumber: 0 | BytePositionInLine: 12."},
      {"{\"Items\":[1e]}",
       "']' is invalid within a number, immediately after a sign character ('+' or '-'). Expected a digit ('0'-'9'). LineNumber: 0 | BytePositionInLine: 12."},
      {"{\"Items\":[-x]}",
       "'x' is invalid within a number, immediately after a sign character ('+' or '-'). Expected a digit ('0'-'9'). LineNumber: 0 | BytePositionInLine: 11."},
      {"{\"Items\":[1,]}",
       "The JSON array contains a trailing comma at the end which is not supported in this mode. Change the reader options. LineNumber: 0 | BytePositionInLine: 12."},
      {"{\"a\":1,}",
       "The JSON object contains a trailing comma at the end which is not supported in this mode. Change the reader options. LineNumber: 0 | BytePositionInLine: 7."},
      {"{\"Items\":[}",
       "'}' is an invalid start of a value. LineNumber: 0 | BytePositionInLine: 10."},
      {"{\"Items\":[]]",
       "']' is invalid without a matching open. LineNumber: 0 | BytePositionInLine: 11."},
      {"\xef""\xbb""\xbf""{\"Items\":[]}",
       "'0xEF' is an invalid start of a value. LineNumber: 0 | BytePositionInLine: 0."},
      {"{\"Items\":\xc3""]}",
       "'0xC3' is an invalid start of a value. LineNumber: 0 | BytePositionInLine: 9."},  };
  for (const auto& [body, message] : cases) {
    const ParseResult r = Parse(body);
    EXPECT_FALSE(r.root.has_value()) << body;
    EXPECT_EQ(r.error, message) << body;
  }
}

TEST(ParseTest, AcceptsWhatTheRealReaderAccepts) {
  // Depth 66 passed on the real CLI (JsonDocument with MaxDepth 256); unknown fields may hold
  // invalid UTF-8 and out-of-range numbers because the model never reads them.
  const std::string deep = "{\"Items\":[],\"x\":" + std::string(65, '[') + std::string(65, ']') + "}";
  for (const std::string& body :
       {deep, std::string("{\"Items\":[],\"x\":\"\xc3\x28\"}"), std::string("{\"q\":1e400}"),
        std::string("-0"), std::string(" [ true , false , null ] "), std::string("\"\\ud800\"")}) {
    const ParseResult r = Parse(body);
    EXPECT_TRUE(r.root.has_value()) << body << ": " << r.error;
  }
  const ParseResult too_deep = Parse(std::string(257, '[') + std::string(257, ']'));
  EXPECT_FALSE(too_deep.root.has_value());
}

TEST(ParseTest, KeepsEveryPropertyInOrderWithDuplicates) {
  const ParseResult r = Parse(R"({"Items":[1],"\u0049tems":[2,3],"x":null})");
  ASSERT_TRUE(r.root.has_value());
  ASSERT_EQ(r.root->properties.size(), 3u);
  EXPECT_EQ(r.root->properties[0].first, "Items");
  EXPECT_EQ(r.root->properties[1].first, "Items");  // NameEquals sees through escapes
  EXPECT_EQ(r.root->properties[1].second.items.size(), 2u);
  EXPECT_EQ(r.root->properties[2].second.kind, Kind::kNull);
}

Element Value(const std::string& json) {
  ParseResult r = Parse(json);
  EXPECT_TRUE(r.root.has_value()) << json;
  return r.root.value_or(Element{});
}

// The error's message, or a marker that makes the comparison fail when there was no error.
std::string Message(const std::optional<DotnetError>& e) { return e ? e->message : "<no error>"; }
std::string Type(const std::optional<DotnetError>& e) { return e ? e->type : "<no error>"; }

TEST(GetterTest, WrongKindsNameBothKinds) {
  double d = 0;
  bool b = false;
  std::optional<std::string> s;
  EXPECT_EQ(Message(GetDouble(Value("\"1.0\""), d)),
            "The requested operation requires an element of type 'Number', but the target element "
            "has type 'String'.");
  EXPECT_EQ(Message(GetDouble(Value("true"), d)),
            "The requested operation requires an element of type 'Number', but the target element "
            "has type 'True'.");
  EXPECT_EQ(Message(GetBoolean(Value("null"), b)),
            "The requested operation requires an element of type 'Boolean', but the target element "
            "has type 'Null'.");
  EXPECT_EQ(Type(GetString(Value("5"), s)), "InvalidOperationException");
  EXPECT_EQ(Message(RequireKind(Value("{}"), Kind::kArray)),
            "The requested operation requires an element of type 'Array', but the target element "
            "has type 'Object'.");
}

TEST(GetterTest, StringsAreCheckedOnlyWhenRead) {
  std::optional<std::string> s;
  EXPECT_EQ(Message(GetString(Value("\"a\xff" "b\""), s)),
            "Cannot transcode invalid UTF-8 JSON text to UTF-16 string.");
  EXPECT_EQ(Message(GetString(Value("\"a\xc3\x28" "b\""), s)),
            "Cannot transcode invalid UTF-8 JSON text to UTF-16 string.");
  EXPECT_EQ(Message(GetString(Value(R"("\ud800")"), s)),
            "Cannot read incomplete UTF-16 JSON text as string with missing low surrogate.");
  EXPECT_EQ(Message(GetString(Value(R"("\udc00")"), s)),
            "Cannot read invalid UTF-16 JSON text as string. Invalid surrogate value: '0xDC00'.");
  EXPECT_EQ(GetString(Value(R"("\u0041\n\/\"\u00e9\ud83d\ude00")"), s), std::nullopt);
  EXPECT_EQ(s, "A\n/\"\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(GetString(Value("null"), s), std::nullopt);
  EXPECT_EQ(s, std::nullopt);
}

TEST(GetterTest, NumbersAsDotNetReadsThem) {
  double d = 0;
  int64_t n = 0;
  EXPECT_EQ(GetDouble(Value("1e400"), d), std::nullopt);
  EXPECT_TRUE(std::isinf(d));
  EXPECT_EQ(GetDouble(Value("-0"), d), std::nullopt);
  EXPECT_TRUE(std::signbit(d));
  EXPECT_EQ(GetInt64(Value("3000000000"), n), std::nullopt);
  EXPECT_EQ(n, 3000000000);
  EXPECT_EQ(Message(GetInt64(Value("1.5"), n)), "One of the identified items was in an invalid format.");
  EXPECT_EQ(Type(GetInt64(Value("1.5"), n)), "FormatException");
  EXPECT_EQ(Type(GetInt64(Value("null"), n)), "InvalidOperationException");
}

}  // namespace
}  // namespace azure_pricing::fakes::azmcp::stj
