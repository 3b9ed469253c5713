// A validator for the subset of JSON Schema (draft 2020-12) that the project's schemas use
// (case.schema.json, the protocol schemas in conformance/backend/protocol/schema and
// conformance/testee/schema):
//   type (a name or a list; "integer" is a JSON number written without fraction or exponent,
//   within 64 bits: nlohmann reads a longer one as a double), enum, const, properties, required,
//   additionalProperties (true or false), items, minItems, maxItems, uniqueItems, minimum,
//   maximum (a double against an integer bound compares exactly), minLength, maxLength (in code
//   points), pattern (std::regex's ECMAScript over code points: "$" is the end of the string),
//   contentEncoding ("base64" only, asserted: the standard alphabet with padding), oneOf, anyOf,
//   if/then/else, the boolean schemas true and false, and $ref: "#/$defs/NAME" in the document
//   the reference is in, or "URI" / "URI#/$defs/NAME" naming another schema by its $id (a
//   relative URI is resolved against the $id of the document it is in, as the draft says).
// $schema, $id, title, description and $defs are annotations. A schema that uses any other
// keyword is itself a problem, so an edit to the schema cannot silently stop being enforced.
// cross_check_test holds the verdicts to python-jsonschema's and names where they differ on
// purpose ("integer", contentEncoding, ECMA-262 patterns).
#ifndef CONFORMANCE_JSON_SCHEMA_JSON_SCHEMA_H_
#define CONFORMANCE_JSON_SCHEMA_JSON_SCHEMA_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace azure_pricing::conformance {

struct SchemaProblem {
  std::vector<std::string> path;  // object keys and array indices from the document's root
  std::string what;               // e.g. unknown key "expet"
  // The keyword whose rule the value breaks ("type", "required", "additionalProperties", ...),
  // or "$schema" for a problem of the schema itself.
  std::string keyword;
  // For additionalProperties: the unknown member's name, which is the document's text, not the
  // schema's (a caller that must not repeat the document can leave it out).
  std::string member;
};

// Schemas a $ref may name, by their $id.
using SchemaRegistry = std::map<std::string, nlohmann::ordered_json>;

// Every place where `value` does not follow `schema`; empty when it does. References to other
// documents resolve in `registry`.
std::vector<SchemaProblem> ValidateAgainstSchema(const nlohmann::ordered_json& schema,
                                                 const nlohmann::ordered_json& value);
std::vector<SchemaProblem> ValidateAgainstSchema(const nlohmann::ordered_json& schema,
                                                 const nlohmann::ordered_json& value,
                                                 const SchemaRegistry& registry);

// The problems of the schema itself wherever they are, whether or not a value reaches them: a
// keyword this validator does not implement, a $ref that resolves nowhere. `path` is the place in
// the schema.
std::vector<SchemaProblem> CheckSchema(const nlohmann::ordered_json& schema,
                                       const SchemaRegistry& registry = {});

// "/cases/3/expect" for a problem's path.
std::string PathText(const std::vector<std::string>& path);

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_JSON_SCHEMA_JSON_SCHEMA_H_
