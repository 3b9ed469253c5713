#include "conformance/json_schema/json_schema.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <regex>
#include <set>
#include <string_view>
#include <utility>

namespace azure_pricing::conformance {
namespace {

using nlohmann::ordered_json;

constexpr std::string_view kDefsPrefix = "#/$defs/";

// A reference that reaches itself without descending into the value would never end.
constexpr int kMaxRefDepth = 32;

const std::set<std::string>& Keywords() {
  static const std::set<std::string> kKnown = {
      // Annotations.
      "$schema", "$id", "title", "description", "$defs",
      // Assertions and applicators.
      "type", "enum", "const", "properties", "required", "additionalProperties", "items",
      "minItems", "maxItems", "uniqueItems", "minimum", "maximum", "minLength", "maxLength",
      "pattern", "contentEncoding", "oneOf", "anyOf", "if", "then", "else", "$ref"};
  return kKnown;
}

// What a schema object uses that this validator would not enforce.
std::vector<std::string> UnsupportedKeywords(const ordered_json& schema) {
  std::vector<std::string> out;
  for (const auto& item : schema.items()) {
    if (Keywords().count(item.key()) == 0) {
      out.push_back("the schema uses \"" + item.key() +
                    "\", which this validator does not implement");
    }
  }
  const auto additional = schema.find("additionalProperties");
  if (additional != schema.end() && !additional->is_boolean()) {
    out.push_back("the schema's additionalProperties must be true or false");
  }
  const auto encoding = schema.find("contentEncoding");
  if (encoding != schema.end() && *encoding != "base64") {
    out.push_back("the schema's contentEncoding must be \"base64\", the one this validator checks");
  }
  return out;
}

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

bool TypeMatches(const ordered_json& type, const ordered_json& value) {
  if (type.is_string()) return HasType(value, type.get<std::string>());
  for (const auto& t : type) {
    if (t.is_string() && HasType(value, t.get<std::string>())) return true;
  }
  return false;
}

bool InEnum(const ordered_json& allowed, const ordered_json& value) {
  for (const auto& a : allowed) {
    if (a == value) return true;
  }
  return false;
}

template <typename T>
int Sign(T x, T y) {
  return x < y ? -1 : (x > y ? 1 : 0);
}

// -1, 0 or 1 for a double against an integer, exactly: 9223372036854775808.0 is greater than
// INT64_MAX, though INT64_MAX as a double is that same 2^63. Within the integer's range the
// double's integral part decides, then its fraction.
int CompareDoubleToInteger(double x, const ordered_json& n) {
  constexpr double kTwo63 = 9223372036854775808.0, kTwo64 = 18446744073709551616.0;
  const double whole = std::trunc(x);
  const int fraction = Sign(x, whole);
  if (n.is_number_unsigned()) {
    if (x < 0) return -1;
    if (x >= kTwo64) return 1;
    const int c = Sign(static_cast<uint64_t>(whole), n.get<uint64_t>());
    return c != 0 ? c : fraction;
  }
  if (x < -kTwo63) return -1;
  if (x >= kTwo63) return 1;
  const int c = Sign(static_cast<int64_t>(whole), n.get<int64_t>());
  return c != 0 ? c : fraction;
}

// -1, 0 or 1. Integers compare exactly whatever their sign and width (a bound of INT64_MAX must
// not round to 2^63), and so does a double against an integer; two doubles compare as doubles.
int CompareNumbers(const ordered_json& a, const ordered_json& b) {
  if (a.is_number_float() && b.is_number_float()) return Sign(a.get<double>(), b.get<double>());
  if (a.is_number_float()) return CompareDoubleToInteger(a.get<double>(), b);
  if (b.is_number_float()) return -CompareDoubleToInteger(b.get<double>(), a);
  const auto negative = [](const ordered_json& n) {
    return !n.is_number_unsigned() && n.get<int64_t>() < 0;
  };
  if (negative(a) != negative(b)) return negative(a) ? -1 : 1;
  if (negative(a)) {
    const int64_t x = a.get<int64_t>(), y = b.get<int64_t>();
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  const uint64_t x = a.get<uint64_t>(), y = b.get<uint64_t>();
  return x < y ? -1 : (x > y ? 1 : 0);
}

// JSON Schema measures a string in code points, not bytes; the parser has checked the UTF-8.
size_t CodePoints(const std::string& text) {
  size_t n = 0;
  for (const unsigned char c : text) n += (c & 0xC0) == 0x80 ? 0 : 1;
  return n;
}

// The code points of UTF-8 text (the parser has checked it), one wchar_t each, so that a
// pattern's "." and classes see characters, not bytes, as the draft's Unicode patterns do.
static_assert(sizeof(wchar_t) == 4, "a wchar_t holds any code point");
std::wstring Characters(const std::string& utf8) {
  std::wstring out;
  out.reserve(utf8.size());
  for (size_t i = 0; i < utf8.size();) {
    const unsigned char lead = utf8[i];
    const int extra = lead < 0x80 ? 0 : (lead < 0xE0 ? 1 : (lead < 0xF0 ? 2 : 3));
    uint32_t c = extra == 0 ? lead : lead & (0x3F >> extra);
    for (int k = 1; k <= extra && i + k < utf8.size(); ++k) c = (c << 6) | (utf8[i + k] & 0x3F);
    out.push_back(static_cast<wchar_t>(c));
    i += extra + 1;
  }
  return out;
}

// RFC 4648's standard alphabet with padding, as Python's b64encode and Go's StdEncoding write it.
// A scan rather than a pattern: std::regex recurses per character and an exec's output may be
// megabytes.
bool IsBase64(std::string_view text) {
  if (text.size() % 4 != 0) return false;
  size_t pad = 0;
  while (pad < 2 && pad < text.size() && text[text.size() - 1 - pad] == '=') ++pad;
  for (size_t i = 0; i < text.size() - pad; ++i) {
    const char c = text[i];
    const bool alphabet = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                          (c >= '0' && c <= '9') || c == '+' || c == '/';
    if (!alphabet) return false;
  }
  return true;
}

// `path` without its "." and ".." segments (RFC 3986, 5.2.4).
std::string RemoveDotSegments(const std::string& path) {
  std::vector<std::string> kept;
  size_t start = 0;
  while (start <= path.size()) {
    const size_t slash = std::min(path.find('/', start), path.size());
    const std::string segment = path.substr(start, slash - start);
    start = slash + 1;
    if (segment == "..") {
      if (kept.size() > 1) kept.pop_back();
    } else if (segment != ".") {
      kept.push_back(segment);
    }
  }
  std::string out;
  for (size_t i = 0; i < kept.size(); ++i) out += (i == 0 ? "" : "/") + kept[i];
  return out;
}

// A reference's URI made absolute against the $id of the document it is in, as draft 2020-12
// resolves it: "defs.schema.json" beside the document, "../x/y.json" above it.
std::string ResolveUri(const ordered_json& document, const std::string& uri) {
  const size_t scheme = uri.find(':');
  const bool absolute = scheme != std::string::npos && uri.find('/') > scheme;
  const auto id = document.is_object() ? document.find("$id") : document.end();
  if (absolute || id == document.end() || !id->is_string()) return uri;
  const std::string base = id->get<std::string>();
  const size_t authority = base.find("://");
  const size_t root = authority == std::string::npos ? 0 : base.find('/', authority + 3);
  if (root == std::string::npos) return uri;
  if (uri.starts_with("/")) return base.substr(0, root) + RemoveDotSegments(uri);
  const std::string directory = base.substr(0, base.rfind('/') + 1);
  return base.substr(0, root) + RemoveDotSegments(directory.substr(root) + uri);
}

// The schema a $ref names and the document it lies in (which its own "#/..." references mean):
// "#/$defs/NAME" in `current`; "URI" or "URI#/$defs/NAME" in the registry, the URI absolute or
// relative to `current`'s $id. Null when nothing is there.
const ordered_json* Resolve(const std::string& ref, const ordered_json& current,
                            const SchemaRegistry* registry, const ordered_json** document) {
  const size_t hash = ref.find('#');
  const std::string uri = ref.substr(0, hash);
  const std::string fragment = hash == std::string::npos ? "" : ref.substr(hash);
  const ordered_json* doc = &current;
  if (!uri.empty()) {
    if (registry == nullptr) return nullptr;
    const auto it = registry->find(ResolveUri(current, uri));
    if (it == registry->end()) return nullptr;
    doc = &it->second;
  }
  *document = doc;
  if (fragment.empty() || fragment == "#") return doc;
  if (!fragment.starts_with(kDefsPrefix) || !doc->is_object()) return nullptr;
  const auto defs = doc->find("$defs");
  const std::string name = fragment.substr(kDefsPrefix.size());
  if (defs == doc->end() || !defs->is_object() || !defs->contains(name)) return nullptr;
  return &(*defs)[name];
}

std::string UnresolvedRef(const std::string& ref) {
  return ref.starts_with(kDefsPrefix)
             ? "the schema's $ref " + ref + " names no entry of $defs"
             : "the schema's $ref " + ref + " names no schema this validator was given";
}

class Validator {
 public:
  Validator(const ordered_json& root, const SchemaRegistry* registry)
      : root_(&root), registry_(registry) {}

  std::vector<SchemaProblem> problems;

  void Check(const ordered_json& schema, const ordered_json& value) {
    if (schema.is_boolean()) {
      if (!schema.get<bool>()) Add("false", "is not allowed here");
      return;
    }
    if (!schema.is_object()) return Add("$schema", "the schema here is not an object");
    if (!KnownKeywords(schema)) return;
    if (schema.contains("$ref")) CheckRef(schema["$ref"].get<std::string>(), value);
    // A value of the wrong kind is that one problem; what else it breaks would only repeat it.
    if (!CheckKind(schema, value)) return;
    if (value.is_string()) CheckString(schema, value.get_ref<const std::string&>());
    if (value.is_number()) CheckNumber(schema, value);
    CheckCombinations(schema, value);
    if (value.is_object()) CheckObject(schema, value);
    if (value.is_array()) CheckArray(schema, value);
  }

 private:
  const ordered_json* root_;  // the document the schema being checked is in: what "#" means
  const SchemaRegistry* registry_;
  std::vector<std::string> path_;
  int ref_depth_ = 0;

  void Add(std::string keyword, std::string what, std::string member = "") {
    problems.push_back({path_, std::move(what), std::move(keyword), std::move(member)});
  }

  bool KnownKeywords(const ordered_json& schema) {
    const std::vector<std::string> unsupported = UnsupportedKeywords(schema);
    for (const std::string& u : unsupported) Add("$schema", u);
    return unsupported.empty();
  }

  void CheckRef(const std::string& ref, const ordered_json& value) {
    const ordered_json* document = nullptr;
    const ordered_json* target = Resolve(ref, *root_, registry_, &document);
    if (target == nullptr) return Add("$ref", UnresolvedRef(ref));
    if (ref_depth_ >= kMaxRefDepth)
      return Add("$ref", "the schema's $ref " + ref + " refers to itself");
    ++ref_depth_;
    const ordered_json* outer = std::exchange(root_, document);
    Check(*target, value);
    root_ = outer;
    --ref_depth_;
  }

  // type, enum and const; false when the value is not even of the kind the schema wants.
  bool CheckKind(const ordered_json& schema, const ordered_json& value) {
    if (schema.contains("type") && !TypeMatches(schema["type"], value)) {
      Add("type", "is not of type " + schema["type"].dump());
      return false;
    }
    if (schema.contains("enum") && !InEnum(schema["enum"], value)) {
      Add("enum", "is not one of " + schema["enum"].dump());
      return false;
    }
    if (schema.contains("const") && schema["const"] != value) {
      Add("const", "is not " + schema["const"].dump());
      return false;
    }
    return true;
  }

  void CheckString(const ordered_json& schema, const std::string& text) {
    if (schema.contains("minLength") && CodePoints(text) < schema["minLength"].get<size_t>()) {
      Add("minLength", "is shorter than " + schema["minLength"].dump() + " characters");
    }
    if (schema.contains("maxLength") && CodePoints(text) > schema["maxLength"].get<size_t>()) {
      Add("maxLength", "is longer than " + schema["maxLength"].dump() + " characters");
    }
    if (schema.contains("pattern")) {
      const std::string pattern = schema["pattern"].get<std::string>();
      if (!std::regex_search(Characters(text), std::wregex(Characters(pattern))))
        Add("pattern", "does not match " + pattern);
    }
    if (schema.contains("contentEncoding") && !IsBase64(text)) {
      Add("contentEncoding", "is not base64 (the standard alphabet, with padding)");
    }
  }

  void CheckNumber(const ordered_json& schema, const ordered_json& value) {
    if (schema.contains("minimum") && CompareNumbers(value, schema["minimum"]) < 0) {
      Add("minimum", "is less than the minimum " + schema["minimum"].dump());
    }
    if (schema.contains("maximum") && CompareNumbers(value, schema["maximum"]) > 0) {
      Add("maximum", "is greater than the maximum " + schema["maximum"].dump());
    }
  }

  // The problems `value` would have against `schema` here, without adding them.
  std::vector<SchemaProblem> Trial(const ordered_json& schema, const ordered_json& value) const {
    Validator inner(*root_, registry_);
    inner.path_ = path_;
    inner.ref_depth_ = ref_depth_;
    inner.Check(schema, value);
    return std::move(inner.problems);
  }

  void CheckCombinations(const ordered_json& schema, const ordered_json& value) {
    if (schema.contains("oneOf")) CheckOneOf(schema["oneOf"], value);
    if (schema.contains("anyOf")) {
      bool any = false;
      for (const auto& alternative : schema["anyOf"])
        any = any || Trial(alternative, value).empty();
      if (!any) Add("anyOf", "matches none of the anyOf alternatives");
    }
    // if/then/else: `if` only chooses; its own problems are never reported.
    if (schema.contains("if")) {
      const bool holds = Trial(schema["if"], value).empty();
      const char* branch = holds ? "then" : "else";
      if (schema.contains(branch)) Check(schema[branch], value);
    }
  }

  // With no alternative matching, the problems of the one whose type fits say the most.
  void CheckOneOf(const ordered_json& alternatives, const ordered_json& value) {
    int matching = 0;
    std::vector<SchemaProblem> closest;
    for (const auto& alternative : alternatives) {
      std::vector<SchemaProblem> found = Trial(alternative, value);
      if (found.empty()) {
        ++matching;
      } else if (!alternative.is_object() || !alternative.contains("type") ||
                 TypeMatches(alternative["type"], value)) {
        closest = std::move(found);
      }
    }
    if (matching == 1) return;
    if (matching == 0 && !closest.empty()) {
      problems.insert(problems.end(), closest.begin(), closest.end());
    } else {
      Add("oneOf",
          "matches " + std::to_string(matching) + " of the oneOf alternatives, not exactly one");
    }
  }

  void CheckObject(const ordered_json& schema, const ordered_json& value) {
    static const ordered_json kNone = ordered_json::object();
    const ordered_json& properties = schema.contains("properties") ? schema["properties"] : kNone;
    for (const auto& required : schema.value("required", ordered_json::array())) {
      if (!value.contains(required.get<std::string>())) {
        Add("required", "lacks the required key \"" + required.get<std::string>() + "\"");
      }
    }
    const bool closed = !schema.value("additionalProperties", true);
    for (const auto& item : value.items()) {
      if (properties.contains(item.key())) {
        path_.push_back(item.key());
        Check(properties[item.key()], item.value());
        path_.pop_back();
      } else if (closed) {
        Add("additionalProperties", "unknown key \"" + item.key() + "\"", item.key());
      }
    }
  }

  void CheckArray(const ordered_json& schema, const ordered_json& value) {
    if (schema.contains("minItems") && value.size() < schema["minItems"].get<size_t>()) {
      Add("minItems", "has fewer than " + schema["minItems"].dump() + " items");
    }
    if (schema.contains("maxItems") && value.size() > schema["maxItems"].get<size_t>()) {
      Add("maxItems", "has more than " + schema["maxItems"].dump() + " items");
    }
    if (schema.value("uniqueItems", false)) CheckUnique(value);
    if (!schema.contains("items")) return;
    for (size_t i = 0; i < value.size(); ++i) {
      path_.push_back(std::to_string(i));
      Check(schema["items"], value[i]);
      path_.pop_back();
    }
  }

  // Items compare as JSON values: 1 and 1.0 are the same item, and so are two objects with the
  // same members in another order.
  void CheckUnique(const ordered_json& value) {
    for (size_t i = 1; i < value.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (nlohmann::json(value[i]) == nlohmann::json(value[j])) {
          return Add("uniqueItems",
                     "repeats item " + std::to_string(j) + " at item " + std::to_string(i));
        }
      }
    }
  }
};

// Walks every subschema of a document for CheckSchema.
class SchemaWalker {
 public:
  SchemaWalker(const ordered_json& root, const SchemaRegistry& registry)
      : root_(root), registry_(registry) {}

  std::vector<SchemaProblem> problems;

  void Walk(const ordered_json& schema) {
    if (schema.is_boolean()) return;
    if (!schema.is_object()) return Add("the schema here is not an object");
    for (const std::string& u : UnsupportedKeywords(schema)) Add(u);
    if (schema.contains("$ref")) {
      const ordered_json* document = nullptr;
      const ordered_json& ref = schema["$ref"];
      if (!ref.is_string()) {
        Add("the schema's $ref is not a string");
      } else if (Resolve(ref.get<std::string>(), root_, &registry_, &document) == nullptr) {
        Add(UnresolvedRef(ref.get<std::string>()));
      }
    }
    for (const char* single : {"items", "if", "then", "else"}) {
      if (schema.contains(single)) Descend({single}, schema[single]);
    }
    for (const char* map : {"properties", "$defs"}) {
      if (!schema.contains(map) || !schema[map].is_object()) continue;
      for (const auto& item : schema[map].items()) Descend({map, item.key()}, item.value());
    }
    for (const char* list : {"oneOf", "anyOf"}) {
      if (!schema.contains(list) || !schema[list].is_array()) continue;
      for (size_t i = 0; i < schema[list].size(); ++i) {
        Descend({list, std::to_string(i)}, schema[list][i]);
      }
    }
  }

 private:
  const ordered_json& root_;
  const SchemaRegistry& registry_;
  std::vector<std::string> path_;

  void Add(std::string what) { problems.push_back({path_, std::move(what), "$schema", ""}); }

  void Descend(const std::vector<std::string>& steps, const ordered_json& schema) {
    path_.insert(path_.end(), steps.begin(), steps.end());
    Walk(schema);
    path_.resize(path_.size() - steps.size());
  }
};

std::vector<SchemaProblem> Validate(const ordered_json& schema, const ordered_json& value,
                                    const SchemaRegistry* registry) {
  Validator validator(schema, registry);
  // A keyword of the wrong JSON type or a pattern std::regex cannot compile is a broken schema,
  // reported like any other problem rather than thrown past this function.
  try {
    validator.Check(schema, value);
  } catch (const std::exception&) {
    return {{{}, "the schema is malformed", "$schema", ""}};
  }
  return std::move(validator.problems);
}

}  // namespace

std::vector<SchemaProblem> ValidateAgainstSchema(const ordered_json& schema,
                                                 const ordered_json& value) {
  return Validate(schema, value, nullptr);
}

std::vector<SchemaProblem> ValidateAgainstSchema(const ordered_json& schema,
                                                 const ordered_json& value,
                                                 const SchemaRegistry& registry) {
  return Validate(schema, value, &registry);
}

std::vector<SchemaProblem> CheckSchema(const ordered_json& schema, const SchemaRegistry& registry) {
  SchemaWalker walker(schema, registry);
  try {
    walker.Walk(schema);
  } catch (const std::exception&) {
    return {{{}, "the schema is malformed", "$schema", ""}};
  }
  return std::move(walker.problems);
}

std::string PathText(const std::vector<std::string>& path) {
  if (path.empty()) return "/";
  std::string text;
  for (const std::string& segment : path) text += "/" + segment;
  return text;
}

}  // namespace azure_pricing::conformance
