// The schema subset the case files and the protocol schemas rely on: each keyword rejects what it
// should and names where.
#include "conformance/json_schema/json_schema.h"

#include <gtest/gtest.h>

namespace azure_pricing::conformance {
namespace {

using nlohmann::ordered_json;

std::vector<std::string> Problems(const char* schema, const char* value) {
  std::vector<std::string> out;
  for (const SchemaProblem& p :
       ValidateAgainstSchema(ordered_json::parse(schema), ordered_json::parse(value))) {
    out.push_back(PathText(p.path) + " " + p.what);
  }
  return out;
}

constexpr char kSchema[] = R"({
  "type": "object", "required": ["id"], "additionalProperties": false,
  "properties": {
    "id": {"type": "string", "pattern": "^[a-z]+$"},
    "n": {"type": ["integer", "null"]},
    "tags": {"type": "array", "minItems": 1, "items": {"enum": ["a", "b", null]}},
    "free": {"type": "object"},
    "label": {"oneOf": [{"type": "null"},
                        {"type": "object", "additionalProperties": false,
                         "properties": {"x": {"type": "boolean"}}}]}
  }})";

TEST(JsonSchemaTest, AValidDocumentHasNoProblems) {
  EXPECT_EQ(Problems(kSchema, R"({"id":"abc","n":null,"tags":["a",null],"free":{"any":1},
                                  "label":{"x":true}})"),
            std::vector<std::string>{});
  EXPECT_EQ(Problems(kSchema, R"({"id":"abc","n":3,"label":null})"), std::vector<std::string>{});
}

TEST(JsonSchemaTest, EachKeywordRejectsAndSaysWhere) {
  const std::pair<const char*, const char*> table[] = {
      {R"({"id":"abc","extra":1})", "/ unknown key \"extra\""},
      {R"({"n":1})", "/ lacks the required key \"id\""},
      {R"({"id":"ABC"})", "/id does not match ^[a-z]+$"},
      {R"({"id":"abc","n":1.5})", "/n is not of type [\"integer\",\"null\"]"},
      {R"({"id":"abc","tags":[]})", "/tags has fewer than 1 items"},
      {R"({"id":"abc","tags":["a","c"]})", "/tags/1 is not one of [\"a\",\"b\",null]"},
      {R"({"id":"abc","label":{"y":1}})", "/label unknown key \"y\""},
      {R"({"id":"abc","label":5})", "/label matches 0 of the oneOf alternatives, not exactly one"},
      {R"([])", "/ is not of type \"object\""},
  };
  for (const auto& [value, want] : table) {
    EXPECT_EQ(Problems(kSchema, value), std::vector<std::string>{want}) << value;
  }
}

TEST(JsonSchemaTest, AKeywordOutsideTheSubsetIsAProblemNotIgnored) {
  EXPECT_EQ(Problems(R"({"type":"object","maxProperties":1})", "{}").size(), 1u);
  EXPECT_EQ(Problems(R"({"additionalProperties":{"type":"string"}})", "{}").size(), 1u);
  EXPECT_EQ(Problems(R"({"pattern":"("})", R"("x")"),
            std::vector<std::string>{"/ the schema is malformed"});
}

constexpr char kRefSchema[] = R"({
  "type": "object", "additionalProperties": false,
  "properties": {"first": {"$ref": "#/$defs/call"},
                 "then": {"type": "array", "items": {"$ref": "#/$defs/call"}}},
  "$defs": {"call": {"type": "object", "required": ["outcome"], "additionalProperties": false,
                     "properties": {"outcome": {"enum": ["completed", "refused"]}}}}})";

TEST(JsonSchemaTest, ARefIntoDefsIsCheckedWhereverItIsUsed) {
  EXPECT_EQ(Problems(kRefSchema, R"({"first":{"outcome":"refused"},
                                     "then":[{"outcome":"completed"}]})"),
            std::vector<std::string>{});
  EXPECT_EQ(Problems(kRefSchema, R"({"first":{"outcome":"done"}})"),
            (std::vector<std::string>{"/first/outcome is not one of [\"completed\",\"refused\"]"}));
  EXPECT_EQ(Problems(kRefSchema, R"({"then":[{"outcome":"completed"},{"result":1}]})"),
            (std::vector<std::string>{"/then/1 lacks the required key \"outcome\"",
                                      "/then/1 unknown key \"result\""}));
}

TEST(JsonSchemaTest, ARefThatResolvesNowhereOrToItselfIsAProblem) {
  EXPECT_EQ(
      Problems(R"({"$ref":"#/$defs/missing","$defs":{}})", "{}"),
      std::vector<std::string>{"/ the schema's $ref #/$defs/missing names no entry of $defs"});
  EXPECT_EQ(Problems(R"({"$ref":"other.json#/x"})", "{}").size(), 1u);
  EXPECT_FALSE(
      Problems(R"({"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/a"}}})", "{}").empty());
}

// Each keyword the protocol schemas added: the value it accepts and the one it rejects, and
// where it says so.
TEST(JsonSchemaTest, ConstAcceptsOnlyItsValue) {
  EXPECT_EQ(Problems(R"({"const":"hello"})", R"("hello")"), std::vector<std::string>{});
  EXPECT_EQ(Problems(R"({"const":"hello"})", R"("hell")"),
            std::vector<std::string>{"/ is not \"hello\""});
  EXPECT_EQ(Problems(R"({"const":false})", "0"), std::vector<std::string>{"/ is not false"});
}

TEST(JsonSchemaTest, AnIntegerIsWrittenWithoutFractionOrExponent) {
  const char* schema = R"({"type":"integer"})";
  EXPECT_EQ(Problems(schema, "5"), std::vector<std::string>{});
  EXPECT_EQ(Problems(schema, "-5"), std::vector<std::string>{});
  for (const char* value : {"5.0", "5e0", "18446744073709551616", "\"5\"", "true"}) {
    EXPECT_EQ(Problems(schema, value), std::vector<std::string>{"/ is not of type \"integer\""})
        << value;
  }
}

TEST(JsonSchemaTest, MinimumAndMaximumHoldExactlyAtTheSigned64BitBounds) {
  const char* int64 = R"({"minimum":-9223372036854775808,"maximum":9223372036854775807})";
  EXPECT_EQ(Problems(int64, "9223372036854775807"), std::vector<std::string>{});
  EXPECT_EQ(Problems(int64, "-9223372036854775808"), std::vector<std::string>{});
  EXPECT_EQ(Problems(int64, "9223372036854775808"),
            std::vector<std::string>{"/ is greater than the maximum 9223372036854775807"});
  EXPECT_EQ(Problems(R"({"minimum":0})", "-1"),
            std::vector<std::string>{"/ is less than the minimum 0"});
  EXPECT_EQ(Problems(R"({"minimum":1})", "0.5"),
            std::vector<std::string>{"/ is less than the minimum 1"});
  EXPECT_EQ(Problems(R"({"maximum":65535})", "65535"), std::vector<std::string>{});
  // Bounds say nothing of what is not a number.
  EXPECT_EQ(Problems(R"({"minimum":1})", R"("0")"), std::vector<std::string>{});
}

// Found by cross_check_test: 9223372036854775808.0 was compared with INT64_MAX as two doubles,
// and INT64_MAX as a double is that same 2^63.
TEST(JsonSchemaTest, ADoubleComparesExactlyWithAnIntegerBound) {
  const char* int64 = R"({"minimum":-9223372036854775808,"maximum":9223372036854775807})";
  EXPECT_EQ(Problems(int64, "9223372036854775808.0"),
            std::vector<std::string>{"/ is greater than the maximum 9223372036854775807"});
  EXPECT_EQ(Problems(int64, "-9223372036854775809.0"), std::vector<std::string>{});  // -2^63
  EXPECT_EQ(Problems(int64, "-9223372036854777856.0"),  // the double below -2^63
            std::vector<std::string>{"/ is less than the minimum -9223372036854775808"});
  EXPECT_EQ(Problems(int64, "9223372036854774784.0"), std::vector<std::string>{});
  const char* uint64 = R"({"maximum":18446744073709551615})";
  EXPECT_EQ(Problems(uint64, "18446744073709551616.0"),
            std::vector<std::string>{"/ is greater than the maximum 18446744073709551615"});
  EXPECT_EQ(Problems(R"({"maximum":3})", "3.0"), std::vector<std::string>{});
  EXPECT_EQ(Problems(R"({"maximum":3})", "3.5"),
            std::vector<std::string>{"/ is greater than the maximum 3"});
  EXPECT_EQ(Problems(R"({"minimum":-3})", "-3.5"),
            std::vector<std::string>{"/ is less than the minimum -3"});
  EXPECT_EQ(Problems(R"({"minimum":1.5})", "1"),
            std::vector<std::string>{"/ is less than the minimum 1.5"});
}

// Found by cross_check_test: std::regex read UTF-8 bytes, so "." could not match "é".
TEST(JsonSchemaTest, APatternSeesCharactersNotBytes) {
  EXPECT_EQ(Problems(R"({"pattern":"^.$"})", "\"\u00e9\""), std::vector<std::string>{});
  EXPECT_EQ(Problems(R"({"pattern":"^.$"})", R"("\ud83d\ude00")"), std::vector<std::string>{});
  EXPECT_EQ(Problems(R"({"pattern":"^[\u00e0-\u00ff]{2}$"})", "\"\u00e9\u00e8\""),
            std::vector<std::string>{});
  EXPECT_EQ(Problems(R"({"pattern":"^.$"})", R"("ab")"),
            std::vector<std::string>{"/ does not match ^.$"});
  // ECMAScript: "$" is the end of the string, not before a final newline.
  EXPECT_EQ(Problems(R"({"pattern":"^a$"})", R"("a\n")"),
            std::vector<std::string>{"/ does not match ^a$"});
}

TEST(JsonSchemaTest, LengthsCountCodePointsNotBytes) {
  EXPECT_EQ(Problems(R"({"maxLength":1})", "\"\u00e9\""), std::vector<std::string>{});
  EXPECT_EQ(Problems(R"({"maxLength":1})", R"("ab")"),
            std::vector<std::string>{"/ is longer than 1 characters"});
  EXPECT_EQ(Problems(R"({"minLength":1})", R"("")"),
            std::vector<std::string>{"/ is shorter than 1 characters"});
  EXPECT_EQ(Problems(R"({"minLength":1})", "[]"), std::vector<std::string>{});
}

TEST(JsonSchemaTest, MaxItemsAndUniqueItems) {
  EXPECT_EQ(Problems(R"({"maxItems":2})", "[1,2]"), std::vector<std::string>{});
  EXPECT_EQ(Problems(R"({"maxItems":2})", "[1,2,3]"),
            std::vector<std::string>{"/ has more than 2 items"});
  EXPECT_EQ(Problems(R"({"uniqueItems":true})", R"(["a","b",1])"), std::vector<std::string>{});
  EXPECT_EQ(Problems(R"({"uniqueItems":true})", R"(["a",1,1.0])"),
            std::vector<std::string>{"/ repeats item 1 at item 2"});
  EXPECT_EQ(Problems(R"({"uniqueItems":true})", R"([{"a":1,"b":2},{"b":2,"a":1}])"),
            std::vector<std::string>{"/ repeats item 0 at item 1"});
  EXPECT_EQ(Problems(R"({"uniqueItems":false})", "[1,1]"), std::vector<std::string>{});
}

TEST(JsonSchemaTest, AnyOfNeedsOneAlternativeOrMore) {
  const char* schema = R"({"anyOf":[{"type":"integer"},{"minimum":0}]})";
  EXPECT_EQ(Problems(schema, "3"), std::vector<std::string>{});  // both match: fine for anyOf
  EXPECT_EQ(Problems(schema, "-1.5"),
            std::vector<std::string>{"/ matches none of the anyOf alternatives"});
}

TEST(JsonSchemaTest, IfChoosesThenOrElseAndIsNeverReportedItself) {
  const char* schema = R"({
    "if": {"required": ["ok"], "properties": {"ok": {"const": false}}},
    "then": {"required": ["error"]},
    "else": {"required": ["result"]}})";
  EXPECT_EQ(Problems(schema, R"({"ok":false,"error":1})"), std::vector<std::string>{});
  EXPECT_EQ(Problems(schema, R"({"ok":true,"result":1})"), std::vector<std::string>{});
  EXPECT_EQ(Problems(schema, R"({"ok":false})"),
            std::vector<std::string>{"/ lacks the required key \"error\""});
  EXPECT_EQ(Problems(schema, R"({})"),
            std::vector<std::string>{"/ lacks the required key \"result\""});
  EXPECT_EQ(Problems(R"({"if":{"type":"string"},"then":{"minLength":2}})", "5"),
            std::vector<std::string>{});
}

TEST(JsonSchemaTest, Base64ContentIsTheStandardAlphabetWithPadding) {
  const char* schema = R"({"type":"string","contentEncoding":"base64"})";
  for (const char* good : {R"("")", R"("eyJ9")", R"("QQ==")", R"("QUI=")", R"("+/8A")"}) {
    EXPECT_EQ(Problems(schema, good), std::vector<std::string>{}) << good;
  }
  for (const char* bad : {R"("abc")", R"("Q===")", R"("ab=c")", R"("-_8A")", R"("QQ")"}) {
    EXPECT_EQ(Problems(schema, bad),
              std::vector<std::string>{"/ is not base64 (the standard alphabet, with padding)"})
        << bad;
  }
  EXPECT_EQ(Problems(R"({"contentEncoding":"base32"})", R"("x")").size(), 1u);
}

TEST(JsonSchemaTest, FalseForbidsAMemberAndTrueAllowsAnything) {
  const char* schema = R"({"properties":{"upstream":false,"any":true}})";
  EXPECT_EQ(Problems(schema, R"({"any":[1,{"x":null}]})"), std::vector<std::string>{});
  EXPECT_EQ(Problems(schema, R"({"upstream":null})"),
            std::vector<std::string>{"/upstream is not allowed here"});
}

std::vector<std::string> ProblemsWith(const SchemaRegistry& registry, const char* schema,
                                      const char* value) {
  std::vector<std::string> out;
  for (const SchemaProblem& p :
       ValidateAgainstSchema(ordered_json::parse(schema), ordered_json::parse(value), registry)) {
    out.push_back(PathText(p.path) + " " + p.what);
  }
  return out;
}

TEST(JsonSchemaTest, ARefNamesAnotherSchemaByItsIdAndItsRefsMeanThatDocument) {
  const SchemaRegistry registry = {
      {"https://example.invalid/defs.json", ordered_json::parse(R"({
         "$id": "https://example.invalid/defs.json",
         "$defs": {"seq": {"$ref": "#/$defs/int"}, "int": {"type": "integer", "minimum": 1}}})")},
      {"https://example.invalid/whole.json", ordered_json::parse(R"({"type":"object"})")}};
  const char* schema = R"({
    "properties": {"seq": {"$ref": "https://example.invalid/defs.json#/$defs/seq"},
                   "body": {"$ref": "https://example.invalid/whole.json"}},
    "$defs": {"int": {"type": "string"}}})";
  EXPECT_EQ(ProblemsWith(registry, schema, R"({"seq":1,"body":{}})"), std::vector<std::string>{});
  EXPECT_EQ(ProblemsWith(registry, schema, R"({"seq":0,"body":[]})"),
            (std::vector<std::string>{"/seq is less than the minimum 1",
                                      "/body is not of type \"object\""}));
  EXPECT_EQ(ProblemsWith(registry, R"({"$ref":"https://example.invalid/none.json"})", "{}"),
            std::vector<std::string>{
                "/ the schema's $ref https://example.invalid/none.json names no schema this "
                "validator was given"});
}

TEST(JsonSchemaTest, ARelativeRefIsResolvedAgainstTheIdOfTheDocumentItIsIn) {
  const SchemaRegistry registry = {
      {"https://example.invalid/one/defs.json",
       ordered_json::parse(R"({"$id": "https://example.invalid/one/defs.json",
                               "$defs": {"n": {"$ref": "../two/n.json"}}})")},
      {"https://example.invalid/two/n.json",
       ordered_json::parse(R"({"$id": "https://example.invalid/two/n.json", "type": "integer"})")}};
  const char* schema = R"({"$id": "https://example.invalid/one/main.json",
                           "items": {"$ref": "defs.json#/$defs/n"}})";
  EXPECT_EQ(ProblemsWith(registry, schema, "[1,2]"), std::vector<std::string>{});
  EXPECT_EQ(ProblemsWith(registry, schema, R"([1,"2"])"),
            std::vector<std::string>{"/1 is not of type \"integer\""});
  EXPECT_EQ(ProblemsWith(registry, R"({"$id": "https://example.invalid/one/main.json",
                                       "$ref": "/two/n.json"})",
                         "true"),
            std::vector<std::string>{"/ is not of type \"integer\""});
}

TEST(JsonSchemaTest, AProblemNamesItsKeywordAndAnUnknownMemberApart) {
  const std::vector<SchemaProblem> problems = ValidateAgainstSchema(
      ordered_json::parse(kSchema), ordered_json::parse(R"({"id":"abc","n":"x","extra":1})"));
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].keyword, "type");
  EXPECT_EQ(problems[0].member, "");
  EXPECT_EQ(problems[1].keyword, "additionalProperties");
  EXPECT_EQ(problems[1].member, "extra");
}

TEST(JsonSchemaTest, CheckSchemaFindsProblemsNoValueReaches) {
  const SchemaRegistry registry = {
      {"https://example.invalid/defs.json", ordered_json::parse(R"({"$defs":{"a":{}}})")}};
  const ordered_json good = ordered_json::parse(R"({
    "type": "object", "properties": {"a": {"$ref": "https://example.invalid/defs.json#/$defs/a"},
                                     "b": {"anyOf": [true, {"$ref": "#/$defs/x"}]}},
    "$defs": {"x": {"if": {"const": 1}, "then": {"maximum": 2}, "else": {"items": false}}}})");
  EXPECT_TRUE(CheckSchema(good, registry).empty());
  const ordered_json bad = ordered_json::parse(R"({
    "properties": {"a": {"$ref": "#/$defs/missing"}},
    "$defs": {"unused": {"oneOf": [{"format": "email"}]}}})");
  std::vector<std::string> found;
  for (const SchemaProblem& p : CheckSchema(bad, registry)) {
    found.push_back(PathText(p.path) + " " + p.what);
  }
  EXPECT_EQ(found, (std::vector<std::string>{
                       "/properties/a the schema's $ref #/$defs/missing names no entry of $defs",
                       "/$defs/unused/oneOf/0 the schema uses \"format\", which this validator "
                       "does not implement"}));
}

}  // namespace
}  // namespace azure_pricing::conformance
