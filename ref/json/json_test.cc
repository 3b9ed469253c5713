#include "ref/json/json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "ref/json/reader.h"

namespace azure_pricing::json {
namespace {

ParseError ErrorOf(std::string_view text) { return ParseStrict(text).error; }

TEST(ParseStrictTest, ReadsEveryKindOfValueInOrder) {
  const ParseResult r =
      ParseStrict(R"( {"b": [1, -2.5e3, true, false, null], "a": "x\u00e9\ud83d\ude00"} )");
  ASSERT_EQ(r.error, ParseError::kNone);
  ASSERT_TRUE(r.value.is_object());
  ASSERT_EQ(r.value.members().size(), 2u);
  EXPECT_EQ(r.value.members()[0].key, "b");
  EXPECT_EQ(r.value.members()[1].key, "a");
  const Value& b = *r.value.Find("b");
  ASSERT_EQ(b.items().size(), 5u);
  EXPECT_EQ(b.items()[1].as_number(), -2500);
  EXPECT_TRUE(b.items()[2].as_bool());
  EXPECT_TRUE(b.items()[4].is_null());
  EXPECT_EQ(r.value.Find("a")->as_string(), "x\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(r.value.Find("missing"), nullptr);
}

TEST(ParseStrictTest, DuplicateKeysAreFoundAtAnyDepth) {
  EXPECT_EQ(ErrorOf(R"({"a":1,"a":2})"), ParseError::kDuplicateKey);
  EXPECT_EQ(ErrorOf(R"({"x":[{"k":{"a":1,"b":2,"a":3}}]})"), ParseError::kDuplicateKey);
  // Escapes are decoded before comparing: "\u0061" is "a".
  EXPECT_EQ(ErrorOf(R"({"a":1,"\u0061":2})"), ParseError::kDuplicateKey);
  // Same key in sibling objects is fine.
  EXPECT_EQ(ErrorOf(R"([{"a":1},{"a":2}])"), ParseError::kNone);
}

TEST(ParseStrictTest, DuplicateKeysInLargeObjectsAreFound) {
  std::string text = "{";
  for (int i = 0; i < 200; ++i) text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  std::string unique = text;
  unique.back() = '}';
  EXPECT_EQ(ErrorOf(unique), ParseError::kNone);
  text += "\"k17\":0}";
  EXPECT_EQ(ErrorOf(text), ParseError::kDuplicateKey);
}

// Past 16 keys the reader switches from a scan to a hash set seeded with the keys so far; a
// repeat of any earlier key must be found on either side of that switch, and a frame reused by
// a sibling object must start empty.
TEST(ParseStrictTest, RepeatsAreFoundOnBothSidesOfTheSwitchToAHashSet) {
  auto object = [](int keys, const std::string& extra) {
    std::string text = "{";
    for (int i = 0; i < keys; ++i) text += "\"k" + std::to_string(i) + "\":0,";
    return text + extra + "}";
  };
  for (int keys : {15, 16, 17, 40}) {
    for (int repeated : {0, 7, keys - 1}) {
      EXPECT_EQ(ErrorOf(object(keys, "\"k" + std::to_string(repeated) + "\":1")),
                ParseError::kDuplicateKey)
          << keys << " keys, then k" << repeated << " again";
    }
    EXPECT_EQ(ErrorOf(object(keys, "\"new\":1")), ParseError::kNone) << keys;
  }
  // A large object, then a sibling and a nested object that reuse its frame: none of its keys
  // counts against them.
  const std::string large = object(40, "\"last\":1");
  EXPECT_EQ(ErrorOf("[" + large + ",{\"k3\":0,\"last\":1}]"), ParseError::kNone);
  EXPECT_EQ(ErrorOf("[" + large + "," + large + "]"), ParseError::kNone);
  EXPECT_EQ(ErrorOf("[" + large + ",{\"a\":1,\"a\":2}]"), ParseError::kDuplicateKey);
}

TEST(ParseStrictTest, NonFiniteAndOutOfRangeNumbers) {
  EXPECT_EQ(ErrorOf("[NaN]"), ParseError::kNonFiniteNumber);
  EXPECT_EQ(ErrorOf("[Infinity]"), ParseError::kNonFiniteNumber);
  EXPECT_EQ(ErrorOf("[-Infinity]"), ParseError::kNonFiniteNumber);
  EXPECT_EQ(ErrorOf("[1e999]"), ParseError::kNonFiniteNumber);
  EXPECT_EQ(ErrorOf("[-1e309]"), ParseError::kNonFiniteNumber);
  EXPECT_EQ(ErrorOf("[1.7976931348623157e308]"), ParseError::kNone);
  EXPECT_EQ(ErrorOf("[1.2E-05]"), ParseError::kNone);
  // Underflow is finite: subnormals and values that round to zero are numbers.
  EXPECT_EQ(ParseStrict("4.9406564584124654e-324").value.as_number(), 5e-324);
  EXPECT_EQ(ParseStrict("1e-400").value.as_number(), 0.0);
}

TEST(ParseStrictTest, InvalidUtf8AnywhereIsRefused) {
  EXPECT_EQ(ErrorOf("{\"a\":\"\xff\"}"), ParseError::kInvalidUtf8);
  EXPECT_EQ(ErrorOf("{\"a\":\"\xc0\xaf\"}"), ParseError::kInvalidUtf8);      // overlong
  EXPECT_EQ(ErrorOf("{\"a\":\"\xed\xa0\x80\"}"), ParseError::kInvalidUtf8);  // surrogate
  EXPECT_EQ(ErrorOf("{\"a\":\"\xf4\x90\x80\x80\"}"), ParseError::kInvalidUtf8);
  EXPECT_EQ(ErrorOf("{\"a\":\"x\"} \x80"), ParseError::kInvalidUtf8);
  EXPECT_EQ(ErrorOf(R"({"a":"\ud800"})"), ParseError::kInvalidUtf8);
  EXPECT_EQ(ErrorOf(R"({"a":"\udc00x"})"), ParseError::kInvalidUtf8);
  EXPECT_TRUE(IsValidUtf8("plain ascii and \xe2\x82\xac"));
}

TEST(ParseStrictTest, SyntaxTrailingDepthAndEmpty) {
  EXPECT_EQ(ErrorOf(""), ParseError::kEmpty);
  EXPECT_EQ(ErrorOf("   "), ParseError::kEmpty);
  EXPECT_EQ(ErrorOf("{} {}"), ParseError::kTrailingBytes);
  EXPECT_EQ(ErrorOf("{}x"), ParseError::kTrailingBytes);
  EXPECT_EQ(ErrorOf("{\"a\":01}"), ParseError::kSyntax);
  EXPECT_EQ(ErrorOf("{\"a\":1.}"), ParseError::kSyntax);
  EXPECT_EQ(ErrorOf("{\"a\":\"tab\there\"}"), ParseError::kSyntax);
  EXPECT_EQ(ErrorOf("{'a':1}"), ParseError::kSyntax);
  EXPECT_EQ(ErrorOf("[1,]"), ParseError::kSyntax);
  EXPECT_EQ(ErrorOf("{\"a\" 1}"), ParseError::kSyntax);
  EXPECT_EQ(ErrorOf(std::string(100, '[') + std::string(100, ']')), ParseError::kTooDeep);
  EXPECT_EQ(ErrorOf(std::string(64, '[') + std::string(64, ']')), ParseError::kNone);
}

TEST(ReaderTest, PerStringUtf8CheckTellsWhichMemberFailed) {
  const std::string text = "{\"a\": \"ok\", \"b\": \"bad\xff\", \"c\": 1}";
  Reader whole(text);
  EXPECT_EQ(whole.error(), ParseError::kInvalidUtf8);  // found before reading anything
  Reader reader(text, kDefaultMaxDepth, Reader::Utf8Check::kPerString);
  ASSERT_TRUE(reader.BeginObject());
  std::string key;
  Value value;
  ASSERT_TRUE(reader.NextMember(key));
  ASSERT_TRUE(reader.ReadValue(value));
  ASSERT_TRUE(reader.NextMember(key));
  EXPECT_EQ(key, "b");
  EXPECT_FALSE(reader.ReadValue(value));
  EXPECT_EQ(reader.error(), ParseError::kInvalidUtf8);
  // Outside strings, a stray byte is a syntax error in this mode.
  Reader stray("[1, \xff]", kDefaultMaxDepth, Reader::Utf8Check::kPerString);
  Value v;
  EXPECT_FALSE(stray.ReadValue(v));
  EXPECT_EQ(stray.error(), ParseError::kSyntax);
}

TEST(ParseStrictTest, LongStringsAreScannedExactly) {
  // Quotes, escapes and raw control bytes at every offset of the eight-byte scan.
  for (size_t at = 0; at < 24; ++at) {
    const std::string head(at, 'a');
    EXPECT_EQ(ParseStrict("[\"" + head + "\\n" + head + "\"]").value.items()[0].as_string(),
              head + "\n" + head);
    EXPECT_EQ(ErrorOf("[\"" + head + "\x01" + head + "\"]"), ParseError::kSyntax) << at;
    EXPECT_EQ(ErrorOf("[\"" + head + "\x1f\"]"), ParseError::kSyntax) << at;
    EXPECT_EQ(ParseStrict("[\"" + head + "\xc3\xa9 \x7f~\"]").value.items()[0].as_string(),
              head + "\xc3\xa9 \x7f~");
  }
}

TEST(SerializeTest, NonFiniteNumbersStayValidJson) {
  EXPECT_EQ(Serialize(Value::Array({Value::Number(std::nan("")), Value::Number(HUGE_VAL)})),
            "[null,null]");
}

TEST(SerializeTest, RoundTripsAndEscapes) {
  Value v = Value::Object();
  v.Add("s", Value::String("q\"\\\n\x01\xe2\x80\xa8 \xc3\xa9"));
  v.Add("n", Value::Number(1.2e-05));
  v.Add("i", Value::Number(1000));
  v.Add("a", Value::Array({Value::Bool(false), Value::Null()}));
  const std::string text = Serialize(v);
  EXPECT_EQ(text,
            "{\"s\":\"q\\\"\\\\\\n\\u0001\\u2028 \xc3\xa9\",\"n\":1.2e-05,\"i\":1000,"
            "\"a\":[false,null]}");
  const ParseResult back = ParseStrict(text);
  ASSERT_EQ(back.error, ParseError::kNone);
  EXPECT_EQ(back.value.Find("s")->as_string(), v.Find("s")->as_string());
  EXPECT_EQ(back.value.Find("n")->as_number(), 1.2e-05);
}

}  // namespace
}  // namespace azure_pricing::json
