#include "fakes/azmcp/stj_document.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace azure_pricing::fakes::azmcp::stj {
namespace {

constexpr char kZeroDepthAtEnd[] =
    "Expected depth to be zero at the end of the JSON payload. There is an open JSON object or "
    "array that should be closed.";
constexpr char kDigitAtEnd[] = "Expected a digit ('0'-'9'), but instead reached end of data.";
constexpr char kStringAtEnd[] = "Expected end of string, but instead reached end of data.";
constexpr char kEscapeHint[] = " within a JSON string. The string should be correctly escaped.";

bool IsDigit(unsigned char c) { return c >= '0' && c <= '9'; }
bool IsSpace(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool IsHex(unsigned char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// The reader's rendering of one byte in a message: printable ASCII as itself, else 0xHH.
std::string Printable(unsigned char c) {
  if (c >= 0x20 && c < 0x7f) return std::string(1, static_cast<char>(c));
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", c);
  return buf;
}

void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

// Strict UTF-8 (no overlongs, no surrogates, nothing past U+10FFFF), as .NET's transcoder.
bool ValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    size_t len = 0;
    uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) {
      len = 2;
      cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      len = 3;
      cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      len = 4;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + len > s.size()) return false;
    for (size_t k = 1; k < len; ++k) {
      const unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
        (len == 4 && (cp < 0x10000 || cp > 0x10ffff))) {
      return false;
    }
    i += len;
  }
  return true;
}

uint32_t Hex4(std::string_view s) {
  return static_cast<uint32_t>(std::strtoul(std::string(s.substr(0, 4)).c_str(), nullptr, 16));
}

char SimpleEscape(char e) {
  switch (e) {
    case 'b':
      return '\b';
    case 'f':
      return '\f';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    default:  // '"', '\\', '/'
      return e;
  }
}

std::string InvalidSurrogate(uint32_t value) {
  char buf[128];
  std::snprintf(buf, sizeof buf,
                "Cannot read invalid UTF-16 JSON text as string. Invalid surrogate "
                "value: '0x%04X'.",
                value);
  return buf;
}

// The code point of the \uXXXX escape whose 'u' is at raw[i] (with its low surrogate when they
// pair); `i` ends on the last digit read. A lone or mismatched surrogate is U+FFFD, or, when
// `error` is given, nullopt with the error JsonElement.GetString reports.
std::optional<uint32_t> UnicodeEscape(std::string_view raw, size_t& i, std::string* error) {
  uint32_t cp = Hex4(raw.substr(i + 1));
  i += 4;
  if (cp >= 0xd800 && cp <= 0xdbff) {
    // The reader guaranteed four hex digits after every \\u.
    const bool has_next = raw.substr(i + 1, 2) == "\\u";
    const uint32_t low = has_next ? Hex4(raw.substr(i + 3)) : 0;
    if (!has_next) {
      if (error) {
        *error = "Cannot read incomplete UTF-16 JSON text as string with missing low surrogate.";
        return std::nullopt;
      }
      return 0xfffd;
    }
    if (low < 0xdc00 || low > 0xdfff) {
      if (error) {
        *error = InvalidSurrogate(low);
        return std::nullopt;
      }
      return 0xfffd;
    }
    i += 6;
    return 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
  }
  if (cp >= 0xdc00 && cp <= 0xdfff) {
    if (error) {
      *error = InvalidSurrogate(cp);
      return std::nullopt;
    }
    return 0xfffd;
  }
  return cp;
}

// Processes the escapes of a reader-validated string body. `error` is set for the UTF-16
// surrogate failures JsonElement.GetString reports; property names pass nullptr and keep going.
std::string Unescape(std::string_view raw, std::string* error) {
  std::string out;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '\\') {
      out.push_back(raw[i]);
      continue;
    }
    const char e = raw[++i];
    if (e != 'u') {
      out.push_back(SimpleEscape(e));
      continue;
    }
    const std::optional<uint32_t> cp = UnicodeEscape(raw, i, error);
    if (!cp) return {};
    AppendUtf8(out, *cp);
  }
  return out;
}

class Reader {
 public:
  explicit Reader(std::string_view data) : d_(data) {}

  ParseResult Run() {
    ParseResult result;
    SkipSpace();
    if (AtEnd()) {
      Fail(
          "The input does not contain any JSON tokens. Expected the input to start with a valid "
          "JSON token, when isFinalBlock is true.",
          i_);
    } else {
      Element root;
      if (Value(root, 0)) {
        SkipSpace();
        if (!AtEnd()) {
          Fail("'" + Printable(Byte()) + "' is invalid after a single JSON value. Expected end of data.",
               i_);
        } else {
          result.root = std::move(root);
        }
      }
    }
    result.error = error_;
    return result;
  }

 private:
  bool AtEnd() const { return i_ >= d_.size(); }
  unsigned char Byte() const { return static_cast<unsigned char>(d_[i_]); }
  void SkipSpace() {
    while (!AtEnd() && IsSpace(Byte())) ++i_;
  }

  // The reader counts lines at '\n' and bytes since the last one.
  bool Fail(const std::string& message, size_t pos) {
    size_t line = 0, line_start = 0;
    for (size_t k = 0; k < pos && k < d_.size(); ++k) {
      if (d_[k] == '\n') {
        ++line;
        line_start = k + 1;
      }
    }
    error_ = message + " LineNumber: " + std::to_string(line) +
             " | BytePositionInLine: " + std::to_string(pos - line_start) + ".";
    return false;
  }

  bool Value(Element& out, int depth) {
    const unsigned char c = Byte();
    if (c == '{') return Container(out, depth, true);
    if (c == '[') return Container(out, depth, false);
    if (c == '"') {
      out.kind = Kind::kString;
      return String(out.raw);
    }
    if (c == '-' || IsDigit(c)) return Number(out, depth);
    if (c == 't') return Literal(out, "true", Kind::kTrue);
    if (c == 'f') return Literal(out, "false", Kind::kFalse);
    if (c == 'n') return Literal(out, "null", Kind::kNull);
    return Fail("'" + Printable(c) + "' is an invalid start of a value.", i_);
  }

  // One `"name": value` of an object, appended to its properties.
  bool Member(Element& out, int depth) {
    if (Byte() != '"') {
      return Fail("'" + Printable(Byte()) +
                      "' is an invalid start of a property name. Expected a '\"'.",
                  i_);
    }
    std::string name;
    if (!String(name)) return false;
    SkipSpace();
    if (AtEnd()) return Fail("Expected a value, but instead reached end of data.", i_);
    if (Byte() != ':') {
      return Fail("'" + Printable(Byte()) + "' is invalid after a property name. Expected a ':'.",
                  i_);
    }
    ++i_;
    SkipSpace();
    if (AtEnd()) return Fail(kZeroDepthAtEnd, i_);
    Element child;
    if (!Value(child, depth + 1)) return false;
    out.properties.push_back(Property{Unescape(name, nullptr), std::move(child)});
    return true;
  }

  bool Container(Element& out, int depth, bool object) {
    if (depth + 1 > kMaxDepth) {
      return Fail("The maximum configured depth of " + std::to_string(kMaxDepth) +
                      " has been exceeded. Cannot read next JSON " +
                      (object ? "object." : "array."),
                  i_);
    }
    out.kind = object ? Kind::kObject : Kind::kArray;
    const char close = object ? '}' : ']';
    const char other = object ? ']' : '}';
    ++i_;
    SkipSpace();
    if (AtEnd()) return Fail(kZeroDepthAtEnd, i_);
    if (Byte() == close) {
      ++i_;
      return true;
    }
    while (true) {
      if (object) {
        if (!Member(out, depth)) return false;
      } else {
        Element child;
        if (!Value(child, depth + 1)) return false;
        out.items.push_back(std::move(child));
      }
      SkipSpace();
      if (AtEnd()) return Fail(kZeroDepthAtEnd, i_);
      const unsigned char c = Byte();
      if (c == ',') {
        // At the end of data the reader rolls back to the comma before it reports.
        const size_t comma = i_++;
        SkipSpace();
        if (AtEnd()) {
          return Fail("Expected start of a property name or value, but instead reached end of data.",
                      comma);
        }
        if (Byte() == close) {
          return Fail(std::string("The JSON ") + (object ? "object" : "array") +
                          " contains a trailing comma at the end which is not supported in this "
                          "mode. Change the reader options.",
                      i_);
        }
        continue;
      }
      if (c == close) {
        ++i_;
        return true;
      }
      if (c == other) return Fail("'" + Printable(c) + "' is invalid without a matching open.", i_);
      return Fail("'" + Printable(c) + "' is invalid after a value. Expected either ',', '}', or ']'.",
                  i_);
    }
  }

  bool String(std::string& raw) {
    const size_t start = ++i_;
    while (true) {
      if (AtEnd()) return Fail(kStringAtEnd, i_);
      const unsigned char c = Byte();
      if (c == '"') {
        raw.assign(d_.substr(start, i_ - start));
        ++i_;
        return true;
      }
      if (c < 0x20) return Fail("'" + Printable(c) + "' is invalid" + kEscapeHint, i_);
      if (c != '\\') {
        ++i_;
        continue;
      }
      ++i_;
      if (AtEnd()) return Fail(kStringAtEnd, i_);
      const unsigned char e = Byte();
      if (e == 'u') {
        ++i_;
        for (int k = 0; k < 4; ++k, ++i_) {
          if (AtEnd()) return Fail(kStringAtEnd, i_);
          if (!IsHex(Byte())) {
            return Fail("'" + Printable(Byte()) + "' is not a hex digit following '\\u'" +
                            kEscapeHint,
                        i_);
          }
        }
        continue;
      }
      if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r' &&
          e != 't') {
        return Fail("'" + Printable(e) + "' is an invalid escapable character" + kEscapeHint, i_);
      }
      ++i_;
    }
  }

  bool Number(Element& out, int depth) {
    const size_t start = i_;
    auto digit_required = [&](const char* after) {
      if (AtEnd()) return Fail(kDigitAtEnd, i_);
      if (!IsDigit(Byte())) {
        return Fail("'" + Printable(Byte()) + "' is invalid within a number, immediately after " +
                        after + ". Expected a digit ('0'-'9').",
                    i_);
      }
      return true;
    };
    constexpr char kSign[] = "a sign character ('+' or '-')";
    if (Byte() == '-') {
      ++i_;
      if (!digit_required(kSign)) return false;
    }
    if (Byte() == '0') {
      ++i_;
      if (!AtEnd() && IsDigit(Byte())) {
        return Fail("Invalid leading zero before '" + Printable(Byte()) + "'.", i_);
      }
    } else {
      while (!AtEnd() && IsDigit(Byte())) ++i_;
    }
    if (!AtEnd() && Byte() == '.') {
      ++i_;
      if (!digit_required("a decimal point ('.')")) return false;
      while (!AtEnd() && IsDigit(Byte())) ++i_;
    }
    if (!AtEnd() && (Byte() == 'e' || Byte() == 'E')) {
      ++i_;
      if (!AtEnd() && (Byte() == '+' || Byte() == '-')) ++i_;
      if (!digit_required(kSign)) return false;
      while (!AtEnd() && IsDigit(Byte())) ++i_;
    }
    if (AtEnd()) {
      // Inside a container the number cannot be complete; the reader names its last byte.
      if (depth > 0) {
        return Fail("'" + Printable(static_cast<unsigned char>(d_[i_ - 1])) +
                        "' is an invalid end of a number. Expected a delimiter.",
                    i_);
      }
    } else {
      const unsigned char c = Byte();
      if (!IsSpace(c) && c != ',' && c != '}' && c != ']' && c != '/') {
        return Fail("'" + Printable(c) + "' is an invalid end of a number. Expected a delimiter.",
                    i_);
      }
    }
    out.kind = Kind::kNumber;
    out.raw.assign(d_.substr(start, i_ - start));
    return true;
  }

  bool Literal(Element& out, std::string_view literal, Kind kind) {
    for (size_t k = 0; k < literal.size(); ++k) {
      if (i_ + k >= d_.size() || d_[i_ + k] != literal[k]) {
        const std::string seen(d_.substr(i_, std::min(literal.size(), d_.size() - i_)));
        return Fail("'" + seen + "' is an invalid JSON literal. Expected the literal '" +
                        std::string(literal) + "'.",
                    i_ + k);
      }
    }
    i_ += literal.size();
    out.kind = kind;
    return true;
  }

  std::string_view d_;
  size_t i_ = 0;
  std::string error_;
};

DotnetError WrongKind(const char* want, Kind have) {
  return {"InvalidOperationException",
          std::string("The requested operation requires an element of type '") + want +
              "', but the target element has type '" + KindName(have) + "'."};
}

}  // namespace

const char* KindName(Kind kind) {
  switch (kind) {
    case Kind::kObject:
      return "Object";
    case Kind::kArray:
      return "Array";
    case Kind::kString:
      return "String";
    case Kind::kNumber:
      return "Number";
    case Kind::kTrue:
      return "True";
    case Kind::kFalse:
      return "False";
    case Kind::kNull:
      return "Null";
  }
  return "Undefined";
}

ParseResult Parse(std::string_view utf8) { return Reader(utf8).Run(); }

std::optional<DotnetError> RequireKind(const Element& e, Kind kind) {
  if (e.kind != kind) return WrongKind(KindName(kind), e.kind);
  return std::nullopt;
}

std::optional<DotnetError> GetString(const Element& e, std::optional<std::string>& out) {
  out.reset();
  if (e.kind == Kind::kNull) return std::nullopt;
  if (e.kind != Kind::kString) return WrongKind("String", e.kind);
  std::string error;
  std::string text = Unescape(e.raw, &error);
  if (!error.empty()) return DotnetError{"InvalidOperationException", error};
  if (!ValidUtf8(text)) {
    return DotnetError{"InvalidOperationException",
                       "Cannot transcode invalid UTF-8 JSON text to UTF-16 string."};
  }
  out = std::move(text);
  return std::nullopt;
}

std::optional<DotnetError> GetDouble(const Element& e, double& out) {
  if (e.kind != Kind::kNumber) return WrongKind("Number", e.kind);
  // Since .NET Core 3.0 parsing is IEEE-correct and overflow gives an infinity, as strtod does.
  out = std::strtod(e.raw.c_str(), nullptr);
  return std::nullopt;
}

std::optional<DotnetError> GetInt64(const Element& e, int64_t& out) {
  if (e.kind != Kind::kNumber) return WrongKind("Number", e.kind);
  const DotnetError format{"FormatException", "One of the identified items was in an invalid format."};
  if (e.raw.find_first_of(".eE") != std::string::npos) return format;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(e.raw.c_str(), &end, 10);
  if (errno == ERANGE || end != e.raw.c_str() + e.raw.size()) return format;
  out = v;
  return std::nullopt;
}

std::optional<DotnetError> GetBoolean(const Element& e, bool& out) {
  if (e.kind == Kind::kTrue || e.kind == Kind::kFalse) {
    out = e.kind == Kind::kTrue;
    return std::nullopt;
  }
  return WrongKind("Boolean", e.kind);
}

}  // namespace azure_pricing::fakes::azmcp::stj
