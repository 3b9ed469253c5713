#include "conformance/json_schema.h"

#include <regex>
#include <set>
#include <string_view>

namespace azure_pricing::conformance {
namespace {

using nlohmann::ordered_json;

bool HasType(const ordered_json& value, std::string_view type) {
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  if (type == "boolean") return value.is_boolean();
  if (type == "null") return value.is_null();
  return false;
}

class Validator {
 public:
  explicit Validator(const ordered_json& root) : root_(root) {}

  std::vector<SchemaProblem> problems;

  void Check(const ordered_json& schema, const ordered_json& value) {
    if (!schema.is_object()) return Add("the schema here is not an object");
    if (!KnownKeywords(schema)) return;
    if (schema.contains("$ref")) CheckRef(schema["$ref"].get<std::string>(), value);
    if (schema.contains("type") && !TypeMatches(schema["type"], value)) {
      return Add("is not of type " + schema["type"].dump());
    }
    if (schema.contains("enum") && !InEnum(schema["enum"], value)) {
      return Add("is not one of " + schema["enum"].dump());
    }
    if (schema.contains("pattern") && value.is_string()) {
      const std::string pattern = schema["pattern"].get<std::string>();
      if (!std::regex_search(value.get<std::string>(), std::regex(pattern))) {
        Add("does not match " + pattern);
      }
    }
    if (schema.contains("oneOf")) CheckOneOf(schema["oneOf"], value);
    if (value.is_object()) CheckObject(schema, value);
    if (value.is_array()) CheckArray(schema, value);
  }

 private:
  const ordered_json& root_;
  std::vector<std::string> path_;
  int ref_depth_ = 0;

  // Only references into the root's $defs ("#/$defs/NAME"), so a schema stays one file.
  void CheckRef(const std::string& ref, const ordered_json& value) {
    constexpr std::string_view kPrefix = "#/$defs/";
    const auto defs = root_.find("$defs");
    if (!ref.starts_with(kPrefix) || defs == root_.end() ||
        !defs->contains(ref.substr(kPrefix.size()))) {
      return Add("the schema's $ref " + ref + " names no entry of $defs");
    }
    // A reference that reaches itself without descending into the value would never end.
    if (++ref_depth_ > 32) {
      --ref_depth_;
      return Add("the schema's $ref " + ref + " refers to itself");
    }
    Check((*defs)[ref.substr(kPrefix.size())], value);
    --ref_depth_;
  }

  void Add(std::string what) { problems.push_back({path_, std::move(what)}); }

  bool KnownKeywords(const ordered_json& schema) {
    static const std::set<std::string> kKnown = {
        "type",  "properties", "required", "additionalProperties", "enum",        "items",
        "minItems", "oneOf",   "pattern",  "$schema",              "$id",         "title",
        "description", "$defs", "$ref"};
    bool known = true;
    for (const auto& item : schema.items()) {
      if (kKnown.count(item.key()) == 0) {
        Add("the schema uses \"" + item.key() + "\", which this validator does not implement");
        known = false;
      }
    }
    const auto additional = schema.find("additionalProperties");
    if (additional != schema.end() && !additional->is_boolean()) {
      Add("the schema's additionalProperties must be true or false");
      known = false;
    }
    return known;
  }

  static bool TypeMatches(const ordered_json& type, const ordered_json& value) {
    if (type.is_string()) return HasType(value, type.get<std::string>());
    for (const auto& t : type) {
      if (t.is_string() && HasType(value, t.get<std::string>())) return true;
    }
    return false;
  }

  static bool InEnum(const ordered_json& allowed, const ordered_json& value) {
    for (const auto& a : allowed) {
      if (a == value) return true;
    }
    return false;
  }

  // With no alternative matching, the problems of the one whose type fits say the most.
  void CheckOneOf(const ordered_json& alternatives, const ordered_json& value) {
    int matching = 0;
    std::vector<SchemaProblem> closest;
    for (const auto& alternative : alternatives) {
      Validator inner(root_);
      inner.path_ = path_;
      inner.ref_depth_ = ref_depth_;
      inner.Check(alternative, value);
      if (inner.problems.empty()) {
        ++matching;
      } else if (!alternative.contains("type") || TypeMatches(alternative["type"], value)) {
        closest = std::move(inner.problems);
      }
    }
    if (matching == 1) return;
    if (matching == 0 && !closest.empty()) {
      problems.insert(problems.end(), closest.begin(), closest.end());
    } else {
      Add("matches " + std::to_string(matching) + " of the oneOf alternatives, not exactly one");
    }
  }

  void CheckObject(const ordered_json& schema, const ordered_json& value) {
    static const ordered_json kNone = ordered_json::object();
    const ordered_json& properties = schema.contains("properties") ? schema["properties"] : kNone;
    for (const auto& required : schema.value("required", ordered_json::array())) {
      if (!value.contains(required.get<std::string>())) {
        Add("lacks the required key \"" + required.get<std::string>() + "\"");
      }
    }
    const bool closed = !schema.value("additionalProperties", true);
    for (const auto& item : value.items()) {
      if (properties.contains(item.key())) {
        path_.push_back(item.key());
        Check(properties[item.key()], item.value());
        path_.pop_back();
      } else if (closed) {
        Add("unknown key \"" + item.key() + "\"");
      }
    }
  }

  void CheckArray(const ordered_json& schema, const ordered_json& value) {
    if (schema.contains("minItems") && value.size() < schema["minItems"].get<size_t>()) {
      Add("has fewer than " + schema["minItems"].dump() + " items");
    }
    if (!schema.contains("items")) return;
    for (size_t i = 0; i < value.size(); ++i) {
      path_.push_back(std::to_string(i));
      Check(schema["items"], value[i]);
      path_.pop_back();
    }
  }
};

}  // namespace

std::vector<SchemaProblem> ValidateAgainstSchema(const ordered_json& schema,
                                                 const ordered_json& value) {
  Validator validator(schema);
  // A keyword of the wrong JSON type or a pattern std::regex cannot compile is a broken schema,
  // reported like any other problem rather than thrown past this function.
  try {
    validator.Check(schema, value);
  } catch (const std::exception&) {
    return {{{}, "the schema is malformed"}};
  }
  return std::move(validator.problems);
}

std::string PathText(const std::vector<std::string>& path) {
  if (path.empty()) return "/";
  std::string text;
  for (const std::string& segment : path) text += "/" + segment;
  return text;
}

}  // namespace azure_pricing::conformance
