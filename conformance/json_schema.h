// A validator for the subset of JSON Schema that case.schema.json uses: type (a name or a list),
// properties, required, additionalProperties (false, or absent to leave an object open), enum,
// items, minItems, oneOf, pattern and $ref into the root's $defs ("#/$defs/NAME"); $schema,
// $id, title and description are annotations. A
// schema that uses any other keyword is itself a problem, so an edit to the schema cannot
// silently stop being enforced.
#ifndef CONFORMANCE_JSON_SCHEMA_H_
#define CONFORMANCE_JSON_SCHEMA_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace azure_pricing::conformance {

struct SchemaProblem {
  std::vector<std::string> path;  // object keys and array indices from the document's root
  std::string what;               // e.g. unknown key "expet"
};

// Every place where `value` does not follow `schema`; empty when it does.
std::vector<SchemaProblem> ValidateAgainstSchema(const nlohmann::ordered_json& schema,
                                                 const nlohmann::ordered_json& value);

// "/cases/3/expect" for a problem's path.
std::string PathText(const std::vector<std::string>& path);

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_JSON_SCHEMA_H_
