// A small strict JSON reader and writer. Strict means: the whole input is valid UTF-8, holds
// exactly one value, no object at any depth repeats a key, no number is NaN, infinite or out of
// double range, and nothing follows the value. Each violation is told apart, because the caller
// maps them to distinct, stable failure reasons. Object members keep their input order.
#ifndef REF_JSON_JSON_H_
#define REF_JSON_JSON_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace azure_pricing::json {

enum class Type { kNull, kBool, kNumber, kString, kArray, kObject };

struct Member;

class Value {
 public:
  Value() = default;
  static Value Null();
  static Value Bool(bool b);
  static Value Number(double d);
  static Value String(std::string s);
  static Value Array();
  static Value Array(std::vector<Value> items);
  static Value Object();
  static Value Object(std::vector<Member> members);

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::kNull; }
  bool is_bool() const { return type_ == Type::kBool; }
  bool is_number() const { return type_ == Type::kNumber; }
  bool is_string() const { return type_ == Type::kString; }
  bool is_array() const { return type_ == Type::kArray; }
  bool is_object() const { return type_ == Type::kObject; }

  bool as_bool() const { return bool_; }
  double as_number() const { return number_; }
  const std::string& as_string() const { return string_; }
  const std::vector<Value>& items() const { return array_; }
  std::vector<Value>& items() { return array_; }
  const std::vector<Member>& members() const { return object_; }
  std::vector<Member>& members() { return object_; }

  // The member named `key`, or nullptr. Objects from ParseStrict never repeat a key.
  const Value* Find(std::string_view key) const;
  // Appends a member (objects only); the caller keeps keys unique.
  void Add(std::string key, Value value);

 private:
  Type type_ = Type::kNull;
  bool bool_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<Value> array_;
  std::vector<Member> object_;
};

struct Member {
  std::string key;
  Value value;
};

enum class ParseError {
  kNone,
  kInvalidUtf8,      // a byte sequence that is not UTF-8, or an escaped lone surrogate
  kDuplicateKey,     // an object repeats a key, at any depth
  kNonFiniteNumber,  // NaN, Infinity, or a number outside double range
  kSyntax,           // not JSON
  kTrailingBytes,    // something other than white space after the value
  kTooDeep,          // nesting deeper than the caller allows
  kEmpty,            // no value at all
};

struct ParseResult {
  ParseError error = ParseError::kNone;
  Value value;
};

inline constexpr int kDefaultMaxDepth = 64;

ParseResult ParseStrict(std::string_view text, int max_depth = kDefaultMaxDepth);

// True when `text` is well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
bool IsValidUtf8(std::string_view text);

// Writing. Strings are escaped so the output is ASCII-safe for line separators as well.
void AppendQuoted(std::string& out, std::string_view utf8);
// Shortest text that reads back as the same double.
void AppendNumber(std::string& out, double value);
std::string Serialize(const Value& value);

}  // namespace azure_pricing::json

#endif  // REF_JSON_JSON_H_
