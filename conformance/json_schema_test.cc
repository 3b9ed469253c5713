// The schema subset the case files rely on: each keyword rejects what it should and names where.
#include "conformance/json_schema.h"

#include <gtest/gtest.h>

namespace azure_pricing::conformance {
namespace {

using nlohmann::ordered_json;

std::vector<std::string> Problems(const char* schema, const char* value) {
  std::vector<std::string> out;
  for (const SchemaProblem& p : ValidateAgainstSchema(ordered_json::parse(schema),
                                                      ordered_json::parse(value))) {
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
  EXPECT_EQ(Problems(R"({"$ref":"#/$defs/missing","$defs":{}})", "{}"),
            std::vector<std::string>{"/ the schema's $ref #/$defs/missing names no entry of $defs"});
  EXPECT_EQ(Problems(R"({"$ref":"other.json#/x"})", "{}").size(), 1u);
  EXPECT_FALSE(Problems(R"({"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/a"}}})", "{}").empty());
}

}  // namespace
}  // namespace azure_pricing::conformance
