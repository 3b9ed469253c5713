#include "ref/json/json.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <system_error>
#include <unordered_set>
#include <utility>

namespace azure_pricing::json {

Value Value::Null() { return Value(); }

Value Value::Bool(bool b) {
  Value v;
  v.type_ = Type::kBool;
  v.bool_ = b;
  return v;
}

Value Value::Number(double d) {
  Value v;
  v.type_ = Type::kNumber;
  v.number_ = d;
  return v;
}

Value Value::String(std::string s) {
  Value v;
  v.type_ = Type::kString;
  v.string_ = std::move(s);
  return v;
}

Value Value::Array() { return Array(std::vector<Value>()); }

Value Value::Array(std::vector<Value> items) {
  Value v;
  v.type_ = Type::kArray;
  v.array_ = std::move(items);
  return v;
}

Value Value::Object() { return Object(std::vector<Member>()); }

Value Value::Object(std::vector<Member> members) {
  Value v;
  v.type_ = Type::kObject;
  v.object_ = std::move(members);
  return v;
}

const Value* Value::Find(std::string_view key) const {
  for (const Member& m : object_) {
    if (m.key == key) return &m.value;
  }
  return nullptr;
}

void Value::Add(std::string key, Value value) {
  object_.push_back(Member{std::move(key), std::move(value)});
}

namespace {

// Length of the UTF-8 sequence starting at p (0 when invalid), per RFC 3629 table 3-7.
size_t Utf8SequenceLength(const unsigned char* p, const unsigned char* end) {
  const unsigned char c = p[0];
  if (c < 0x80) return 1;
  auto cont = [&](size_t i) { return p + i < end && (p[i] & 0xC0) == 0x80; };
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c == 0xE0) return (p + 1 < end && p[1] >= 0xA0 && p[1] <= 0xBF && cont(2)) ? 3 : 0;
  if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) return (cont(1) && cont(2)) ? 3 : 0;
  if (c == 0xED) return (p + 1 < end && p[1] >= 0x80 && p[1] <= 0x9F && cont(2)) ? 3 : 0;
  if (c == 0xF0) return (p + 1 < end && p[1] >= 0x90 && p[1] <= 0xBF && cont(2) && cont(3)) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return (cont(1) && cont(2) && cont(3)) ? 4 : 0;
  if (c == 0xF4) return (p + 1 < end && p[1] >= 0x80 && p[1] <= 0x8F && cont(2) && cont(3)) ? 4 : 0;
  return 0;
}

void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Objects this small are checked for repeated keys by a scan; larger ones use a hash set so a
// hostile object with many keys stays linear.
constexpr size_t kLinearKeyScanLimit = 16;

class Parser {
 public:
  Parser(std::string_view text, int max_depth)
      : p_(text.data()), end_(text.data() + text.size()), max_depth_(max_depth) {}

  ParseResult Run() {
    ParseResult result;
    SkipWhitespace();
    if (p_ == end_) {
      result.error = ParseError::kEmpty;
      return result;
    }
    if (!ParseValue(result.value, 0)) {
      result.error = error_;
      result.value = Value();
      return result;
    }
    SkipWhitespace();
    if (p_ != end_) {
      result.error = ParseError::kTrailingBytes;
      result.value = Value();
    }
    return result;
  }

 private:
  bool Fail(ParseError e) {
    error_ = e;
    return false;
  }

  void SkipWhitespace() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  bool Literal(std::string_view word) {
    if (static_cast<size_t>(end_ - p_) < word.size() ||
        std::memcmp(p_, word.data(), word.size()) != 0) {
      return false;
    }
    p_ += word.size();
    return true;
  }

  bool ParseValue(Value& out, int depth) {
    if (p_ == end_) return Fail(ParseError::kSyntax);
    switch (*p_) {
      case '{':
        return ParseObject(out, depth + 1);
      case '[':
        return ParseArray(out, depth + 1);
      case '"': {
        std::string s;
        if (!ParseString(s)) return false;
        out = Value::String(std::move(s));
        return true;
      }
      case 't':
        if (Literal("true")) {
          out = Value::Bool(true);
          return true;
        }
        return Fail(ParseError::kSyntax);
      case 'f':
        if (Literal("false")) {
          out = Value::Bool(false);
          return true;
        }
        return Fail(ParseError::kSyntax);
      case 'n':
        if (Literal("null")) {
          out = Value::Null();
          return true;
        }
        return Fail(ParseError::kSyntax);
      case 'N':
      case 'I':
      case '+':
        // Not JSON, but what a writer that allows named floating-point literals emits for
        // non-finite values; told apart so the failure names the real problem.
        if (Literal("NaN") || Literal("Infinity") || Literal("+Infinity")) {
          return Fail(ParseError::kNonFiniteNumber);
        }
        return Fail(ParseError::kSyntax);
      default:
        return ParseNumber(out);
    }
  }

  bool ParseNumber(Value& out) {
    const char* start = p_;
    const char* q = p_;
    if (q != end_ && *q == '-') {
      ++q;
      if (static_cast<size_t>(end_ - q) >= 8 && std::memcmp(q, "Infinity", 8) == 0) {
        return Fail(ParseError::kNonFiniteNumber);
      }
    }
    if (q == end_) return Fail(ParseError::kSyntax);
    if (*q == '0') {
      ++q;
    } else if (*q >= '1' && *q <= '9') {
      while (q != end_ && *q >= '0' && *q <= '9') ++q;
    } else {
      return Fail(ParseError::kSyntax);
    }
    if (q != end_ && *q == '.') {
      ++q;
      if (q == end_ || *q < '0' || *q > '9') return Fail(ParseError::kSyntax);
      while (q != end_ && *q >= '0' && *q <= '9') ++q;
    }
    if (q != end_ && (*q == 'e' || *q == 'E')) {
      ++q;
      if (q != end_ && (*q == '+' || *q == '-')) ++q;
      if (q == end_ || *q < '0' || *q > '9') return Fail(ParseError::kSyntax);
      while (q != end_ && *q >= '0' && *q <= '9') ++q;
    }
    double d = 0;
    const auto [ptr, ec] = std::from_chars(start, q, d);
    if (ec == std::errc::result_out_of_range) {
      // Out of range is either overflow (refused) or underflow to a subnormal or zero, which is
      // still a finite double; strtod tells them apart.
      d = std::strtod(std::string(start, q).c_str(), nullptr);
      if (!std::isfinite(d)) return Fail(ParseError::kNonFiniteNumber);
    } else if (ec != std::errc() || ptr != q) {
      return Fail(ParseError::kSyntax);
    }
    if (!std::isfinite(d)) return Fail(ParseError::kNonFiniteNumber);
    p_ = q;
    out = Value::Number(d);
    return true;
  }

  bool ParseHex4(uint32_t& cp) {
    if (end_ - p_ < 4) return Fail(ParseError::kSyntax);
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      const int h = HexDigit(p_[i]);
      if (h < 0) return Fail(ParseError::kSyntax);
      cp = (cp << 4) | static_cast<uint32_t>(h);
    }
    p_ += 4;
    return true;
  }

  bool ParseString(std::string& out) {
    ++p_;  // opening quote
    while (true) {
      const char* run = p_;
      while (p_ != end_ && *p_ != '"' && *p_ != '\\' && static_cast<unsigned char>(*p_) >= 0x20) {
        ++p_;
      }
      out.append(run, p_);
      if (p_ == end_) return Fail(ParseError::kSyntax);
      const char c = *p_;
      if (c == '"') {
        ++p_;
        return true;
      }
      if (c != '\\') return Fail(ParseError::kSyntax);  // raw control character
      ++p_;
      if (p_ == end_) return Fail(ParseError::kSyntax);
      const char e = *p_++;
      switch (e) {
        case '"':
          out.push_back('"');
          break;
        case '\\':
          out.push_back('\\');
          break;
        case '/':
          out.push_back('/');
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'u': {
          uint32_t cp = 0;
          if (!ParseHex4(cp)) return false;
          if (cp >= 0xDC00 && cp <= 0xDFFF) return Fail(ParseError::kInvalidUtf8);
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            uint32_t low = 0;
            if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') {
              return Fail(ParseError::kInvalidUtf8);
            }
            p_ += 2;
            if (!ParseHex4(low)) return false;
            if (low < 0xDC00 || low > 0xDFFF) return Fail(ParseError::kInvalidUtf8);
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(out, cp);
          break;
        }
        default:
          return Fail(ParseError::kSyntax);
      }
    }
  }

  bool ParseArray(Value& out, int depth) {
    if (depth > max_depth_) return Fail(ParseError::kTooDeep);
    ++p_;
    std::vector<Value> items;
    SkipWhitespace();
    if (p_ != end_ && *p_ == ']') {
      ++p_;
      out = Value::Array(std::move(items));
      return true;
    }
    while (true) {
      SkipWhitespace();
      items.emplace_back();
      if (!ParseValue(items.back(), depth)) return false;
      SkipWhitespace();
      if (p_ == end_) return Fail(ParseError::kSyntax);
      if (*p_ == ',') {
        ++p_;
        continue;
      }
      if (*p_ == ']') {
        ++p_;
        out = Value::Array(std::move(items));
        return true;
      }
      return Fail(ParseError::kSyntax);
    }
  }

  bool ParseObject(Value& out, int depth) {
    if (depth > max_depth_) return Fail(ParseError::kTooDeep);
    ++p_;
    std::vector<Member> members;
    std::unordered_set<std::string> seen;  // filled once the object outgrows a scan
    SkipWhitespace();
    if (p_ != end_ && *p_ == '}') {
      ++p_;
      out = Value::Object(std::move(members));
      return true;
    }
    while (true) {
      SkipWhitespace();
      if (p_ == end_ || *p_ != '"') return Fail(ParseError::kSyntax);
      std::string key;
      if (!ParseString(key)) return false;
      if (IsDuplicate(members, seen, key)) return Fail(ParseError::kDuplicateKey);
      SkipWhitespace();
      if (p_ == end_ || *p_ != ':') return Fail(ParseError::kSyntax);
      ++p_;
      SkipWhitespace();
      members.push_back(Member{std::move(key), Value()});
      if (!ParseValue(members.back().value, depth)) return false;
      SkipWhitespace();
      if (p_ == end_) return Fail(ParseError::kSyntax);
      if (*p_ == ',') {
        ++p_;
        continue;
      }
      if (*p_ == '}') {
        ++p_;
        out = Value::Object(std::move(members));
        return true;
      }
      return Fail(ParseError::kSyntax);
    }
  }

  static bool IsDuplicate(const std::vector<Member>& members,
                          std::unordered_set<std::string>& seen, const std::string& key) {
    if (members.size() < kLinearKeyScanLimit) {
      for (const Member& m : members) {
        if (m.key == key) return true;
      }
      return false;
    }
    if (seen.empty()) {
      for (const Member& m : members) seen.insert(m.key);
    }
    return !seen.insert(key).second;
  }

  const char* p_;
  const char* end_;
  int max_depth_;
  ParseError error_ = ParseError::kSyntax;
};

}  // namespace

bool IsValidUtf8(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p != end) {
    // ASCII fast path, eight bytes at a time.
    while (end - p >= 8) {
      uint64_t chunk;
      std::memcpy(&chunk, p, 8);
      if (chunk & 0x8080808080808080ULL) break;
      p += 8;
    }
    if (p == end) break;
    const size_t n = Utf8SequenceLength(p, end);
    if (n == 0) return false;
    p += n;
  }
  return true;
}

ParseResult ParseStrict(std::string_view text, int max_depth) {
  if (!IsValidUtf8(text)) {
    ParseResult r;
    r.error = ParseError::kInvalidUtf8;
    return r;
  }
  return Parser(text, max_depth).Run();
}

void AppendQuoted(std::string& out, std::string_view utf8) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  for (size_t i = 0; i < utf8.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(utf8[i]);
    switch (c) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case '\t':
        out += "\\t";
        continue;
      default:
        break;
    }
    if (c < 0x20 || c == 0x7F) {
      out += "\\u00";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    } else if (c == 0xE2 && i + 2 < utf8.size() && static_cast<unsigned char>(utf8[i + 1]) == 0x80 &&
               (static_cast<unsigned char>(utf8[i + 2]) == 0xA8 ||
                static_cast<unsigned char>(utf8[i + 2]) == 0xA9)) {
      // U+2028 / U+2029 end lines in JavaScript; keep them escaped.
      out += static_cast<unsigned char>(utf8[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  out.push_back('"');
}

void AppendNumber(std::string& out, double value) {
  char buf[32];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  if (ec != std::errc()) {
    out += "null";  // unreachable for finite doubles; 32 bytes hold any shortest form
    return;
  }
  out.append(buf, ptr);
}

namespace {

void SerializeTo(std::string& out, const Value& v) {
  switch (v.type()) {
    case Type::kNull:
      out += "null";
      return;
    case Type::kBool:
      out += v.as_bool() ? "true" : "false";
      return;
    case Type::kNumber:
      AppendNumber(out, v.as_number());
      return;
    case Type::kString:
      AppendQuoted(out, v.as_string());
      return;
    case Type::kArray: {
      out.push_back('[');
      bool first = true;
      for (const Value& item : v.items()) {
        if (!first) out.push_back(',');
        first = false;
        SerializeTo(out, item);
      }
      out.push_back(']');
      return;
    }
    case Type::kObject: {
      out.push_back('{');
      bool first = true;
      for (const Member& m : v.members()) {
        if (!first) out.push_back(',');
        first = false;
        AppendQuoted(out, m.key);
        out.push_back(':');
        SerializeTo(out, m.value);
      }
      out.push_back('}');
      return;
    }
  }
}

}  // namespace

std::string Serialize(const Value& value) {
  std::string out;
  SerializeTo(out, value);
  return out;
}

}  // namespace azure_pricing::json
