#include "ref/json/json.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <system_error>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "ref/json/reader.h"

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

}  // namespace

bool IsValidUtf8(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p != end) {
    // ASCII fast path, sixteen then eight bytes at a time.
#if defined(__SSE2__)
    while (end - p >= 16 &&
           _mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))) == 0) {
      p += 16;
    }
#endif
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
  ParseResult result;
  Reader reader(text, max_depth);
  if (reader.Peek() == Reader::Next::kEnd) {
    result.error = ParseError::kEmpty;
  } else if (!reader.ReadValue(result.value) || !reader.Finish()) {
    result.error = reader.error();
    result.value = Value();
  }
  return result;
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
    } else if (c == 0xE2 && i + 2 < utf8.size() &&
               static_cast<unsigned char>(utf8[i + 1]) == 0x80 &&
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
  if (!std::isfinite(value)) {
    out += "null";  // JSON has no NaN or infinity; validated data never holds them
    return;
  }
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
