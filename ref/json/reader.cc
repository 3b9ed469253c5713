#include "ref/json/reader.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <system_error>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace azure_pricing::json {
namespace {

// Objects this small are checked for repeated keys by a scan; larger ones use a hash set so a
// hostile object with many keys stays linear.
constexpr size_t kLinearKeyScanLimit = 16;

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
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

// The first byte at or after `p` that is not a space, or `end`. Pretty-printed text indents with
// runs of spaces, which a byte-at-a-time loop spends most of its structure time on.
const char* SkipSpaces(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(' ');
  while (end - p >= 16) {
    const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const unsigned other = ~static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, space)));
    if ((other & 0xFFFF) != 0) return p + std::countr_zero(other);
    p += 16;
  }
#endif
  while (p != end && *p == ' ') ++p;
  return p;
}

// The first quote, backslash or control byte at or after `p`, or `end`: where a string's plain
// run stops.
const char* ScanPlain(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  const __m128i top_control = _mm_set1_epi8(0x1F);
  while (end - p >= 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Unsigned x <= 0x1F exactly when max(x, 0x1F) is 0x1F.
    const __m128i special =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)),
                     _mm_cmpeq_epi8(_mm_max_epu8(x, top_control), top_control));
    const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(special));
    if (mask != 0) return p + std::countr_zero(mask);
    p += 16;
  }
#endif
  // Eight bytes at a time until a chunk holds a quote, a backslash or a control byte.
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kHighs = 0x8080808080808080ULL;
  while (end - p >= 8) {
    uint64_t x;
    std::memcpy(&x, p, 8);
    const uint64_t quote = x ^ (kOnes * '"'), backslash = x ^ (kOnes * '\\');
    const uint64_t special = ((quote - kOnes) & ~quote) | ((backslash - kOnes) & ~backslash) |
                             ((x - kOnes * 0x20) & ~x);
    if (special & kHighs) break;
    p += 8;
  }
  while (p != end && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20) ++p;
  return p;
}

}  // namespace

Reader::Reader(std::string_view text, int max_depth, Utf8Check utf8)
    : p_(text.data()),
      end_(text.data() + text.size()),
      max_depth_(max_depth),
      check_strings_utf8_(utf8 == Utf8Check::kPerString) {
  if (!check_strings_utf8_ && !IsValidUtf8(text)) error_ = ParseError::kInvalidUtf8;
}

bool Reader::Fail(ParseError e) {
  if (error_ == ParseError::kNone) error_ = e;
  return false;
}

void Reader::SkipWhitespaceRun() {
  while (p_ != end_) {
    if (*p_ == ' ') {
      // A lone space, as after each colon, is the commonest run.
      if (end_ - p_ >= 2 && static_cast<unsigned char>(p_[1]) > ' ') {
        ++p_;
        return;
      }
      p_ = SkipSpaces(p_, end_);
    } else if (*p_ == '\n' || *p_ == '\r' || *p_ == '\t') {
      ++p_;
    } else {
      return;
    }
  }
}

bool Reader::Expect(char c) {
  SkipWhitespace();
  if (p_ == end_ || *p_ != c) return Fail(ParseError::kSyntax);
  ++p_;
  return true;
}

Reader::Next Reader::Peek() {
  if (!ok()) return Next::kInvalid;
  SkipWhitespace();
  if (p_ == end_) return Next::kEnd;
  switch (*p_) {
    case '{':
      return Next::kObject;
    case '[':
      return Next::kArray;
    case '"':
      return Next::kString;
    case 't':
    case 'f':
      return Next::kBool;
    case 'n':
      return Next::kNull;
    case '-':
    case 'N':
    case 'I':
    case '+':
      return Next::kNumber;
    default:
      return (*p_ >= '0' && *p_ <= '9') ? Next::kNumber : Next::kInvalid;
  }
}

bool Reader::Begin(bool is_object, char open) {
  if (!ok() || !Expect(open)) return false;
  if (static_cast<int>(depth_) + 1 > max_depth_) return Fail(ParseError::kTooDeep);
  if (frames_.size() <= depth_) frames_.emplace_back();
  Frame& f = frames_[depth_++];
  f.is_object = is_object;
  f.first = true;
  f.key_count = 0;
  f.many.clear();
  return true;
}

bool Reader::BeginObject() { return Begin(true, '{'); }
bool Reader::BeginArray() { return Begin(false, '['); }

bool Reader::RememberKey(const std::string& key) {
  Frame& f = frames_[depth_ - 1];
  if (f.key_count < kLinearKeyScanLimit) {
    for (size_t i = 0; i < f.key_count; ++i) {
      if (f.keys[i] == key) return Fail(ParseError::kDuplicateKey);
    }
    if (f.keys.size() <= f.key_count) f.keys.emplace_back();
    f.keys[f.key_count++] = key;  // assignment reuses the string's buffer
    return true;
  }
  if (f.many.empty())
    f.many.insert(f.keys.begin(), f.keys.begin() + static_cast<long>(f.key_count));
  if (!f.many.insert(key).second) return Fail(ParseError::kDuplicateKey);
  ++f.key_count;
  return true;
}

Reader::Step Reader::NextEntry(bool in_object, char close) {
  if (!ok() || depth_ == 0 || frames_[depth_ - 1].is_object != in_object) {
    Fail(ParseError::kSyntax);
    return Step::kError;
  }
  Frame& f = frames_[depth_ - 1];
  SkipWhitespace();
  if (p_ == end_) {
    Fail(ParseError::kSyntax);
    return Step::kError;
  }
  if (*p_ == close) {
    ++p_;
    --depth_;
    return Step::kClosed;
  }
  if (!f.first) {
    if (*p_ != ',') {
      Fail(ParseError::kSyntax);
      return Step::kError;
    }
    ++p_;
    SkipWhitespace();
  }
  f.first = false;
  return Step::kEntry;
}

bool Reader::NextMember(std::string& key) {
  if (NextEntry(/*in_object=*/true, '}') != Step::kEntry) return false;
  if (p_ == end_ || *p_ != '"') return Fail(ParseError::kSyntax);
  key.clear();
  if (!ParseStringBody(key) || !RememberKey(key)) return false;
  return Expect(':');
}

bool Reader::NextMemberUnchecked(std::string_view& key, std::string& scratch) {
  if (NextEntry(/*in_object=*/true, '}') != Step::kEntry) return false;
  if (p_ == end_ || *p_ != '"') return Fail(ParseError::kSyntax);
  const char* q = ScanPlain(p_ + 1, end_);
  const std::string_view plain(p_ + 1, static_cast<size_t>(q - p_ - 1));
  if (q != end_ && *q == '"' && (!check_strings_utf8_ || IsValidUtf8(plain))) {
    key = plain;
    p_ = q + 1;
  } else {
    scratch.clear();
    if (!ParseStringBody(scratch)) return false;
    key = scratch;
  }
  return Expect(':');
}

bool Reader::NextItem() { return NextEntry(/*in_object=*/false, ']') == Step::kEntry; }

bool Reader::ParseHex4(uint32_t& cp) {
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

bool Reader::ParseStringBody(std::string& out) {
  ++p_;  // opening quote
  while (true) {
    const char* run = p_;
    p_ = ScanPlain(p_, end_);
    // Runs end only at ASCII bytes, so a valid sequence is never split between two runs.
    if (check_strings_utf8_ && !IsValidUtf8(std::string_view(run, static_cast<size_t>(p_ - run)))) {
      return Fail(ParseError::kInvalidUtf8);
    }
    out.append(run, p_);
    if (p_ == end_) return Fail(ParseError::kSyntax);
    if (*p_ == '"') {
      ++p_;
      return true;
    }
    if (*p_ != '\\') return Fail(ParseError::kSyntax);  // raw control character
    ++p_;
    if (!ParseEscape(out)) return false;
  }
}

bool Reader::ParseEscape(std::string& out) {
  if (p_ == end_) return Fail(ParseError::kSyntax);
  const char e = *p_++;
  switch (e) {
    case '"':
    case '\\':
    case '/':
      out.push_back(e);
      return true;
    case 'b':
      out.push_back('\b');
      return true;
    case 'f':
      out.push_back('\f');
      return true;
    case 'n':
      out.push_back('\n');
      return true;
    case 'r':
      out.push_back('\r');
      return true;
    case 't':
      out.push_back('\t');
      return true;
    case 'u':
      break;
    default:
      return Fail(ParseError::kSyntax);
  }
  uint32_t cp = 0;
  if (!ParseHex4(cp)) return false;
  if (cp >= 0xDC00 && cp <= 0xDFFF) return Fail(ParseError::kInvalidUtf8);
  if (cp >= 0xD800 && cp <= 0xDBFF) {
    uint32_t low = 0;
    if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return Fail(ParseError::kInvalidUtf8);
    p_ += 2;
    if (!ParseHex4(low)) return false;
    if (low < 0xDC00 || low > 0xDFFF) return Fail(ParseError::kInvalidUtf8);
    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
  }
  AppendUtf8(out, cp);
  return true;
}

bool Reader::ReadString(std::string& out) {
  if (Peek() != Next::kString) return Fail(ParseError::kSyntax);
  out.clear();
  return ParseStringBody(out);
}

bool Reader::ReadNumber(double& out) {
  if (Peek() != Next::kNumber) return Fail(ParseError::kSyntax);
  auto word = [this](std::string_view w) {
    return static_cast<size_t>(end_ - p_) >= w.size() && std::memcmp(p_, w.data(), w.size()) == 0;
  };
  // Not JSON, but what writers that allow named floating-point literals emit for non-finite
  // values; told apart so the failure names the real problem.
  if (word("NaN") || word("Infinity") || word("+Infinity") || word("-Infinity")) {
    return Fail(ParseError::kNonFiniteNumber);
  }
  const char* start = p_;
  const char* q = p_;
  if (*q == '-') ++q;
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
    // Either overflow (refused) or underflow to a subnormal or zero, which is still a finite
    // double; strtod tells them apart.
    d = std::strtod(std::string(start, q).c_str(), nullptr);
  } else if (ec != std::errc() || ptr != q) {
    return Fail(ParseError::kSyntax);
  }
  if (!std::isfinite(d)) return Fail(ParseError::kNonFiniteNumber);
  p_ = q;
  out = d;
  return true;
}

bool Reader::ReadBool(bool& out) {
  if (Peek() != Next::kBool) return Fail(ParseError::kSyntax);
  if (end_ - p_ >= 4 && std::memcmp(p_, "true", 4) == 0) {
    p_ += 4;
    out = true;
    return true;
  }
  if (end_ - p_ >= 5 && std::memcmp(p_, "false", 5) == 0) {
    p_ += 5;
    out = false;
    return true;
  }
  return Fail(ParseError::kSyntax);
}

bool Reader::ReadNull() {
  if (Peek() != Next::kNull || end_ - p_ < 4 || std::memcmp(p_, "null", 4) != 0) {
    return Fail(ParseError::kSyntax);
  }
  p_ += 4;
  return true;
}

bool Reader::SkipValue() {
  std::string scratch;
  switch (Peek()) {
    case Next::kObject:
      if (!BeginObject()) return false;
      while (NextMember(scratch)) {
        if (!SkipValue()) return false;
      }
      return ok();
    case Next::kArray:
      if (!BeginArray()) return false;
      while (NextItem()) {
        if (!SkipValue()) return false;
      }
      return ok();
    case Next::kString:
      return ReadString(scratch);
    case Next::kNumber: {
      double d;
      return ReadNumber(d);
    }
    case Next::kBool: {
      bool b;
      return ReadBool(b);
    }
    case Next::kNull:
      return ReadNull();
    default:
      return Fail(ParseError::kSyntax);
  }
}

bool Reader::ReadValue(Value& out) {
  switch (Peek()) {
    case Next::kObject: {
      if (!BeginObject()) return false;
      std::vector<Member> members;
      std::string key;
      while (NextMember(key)) {
        members.push_back(Member{key, Value()});
        if (!ReadValue(members.back().value)) return false;
      }
      if (!ok()) return false;
      out = Value::Object(std::move(members));
      return true;
    }
    case Next::kArray: {
      if (!BeginArray()) return false;
      std::vector<Value> items;
      while (NextItem()) {
        items.emplace_back();
        if (!ReadValue(items.back())) return false;
      }
      if (!ok()) return false;
      out = Value::Array(std::move(items));
      return true;
    }
    case Next::kString: {
      std::string s;
      if (!ReadString(s)) return false;
      out = Value::String(std::move(s));
      return true;
    }
    case Next::kNumber: {
      double d = 0;
      if (!ReadNumber(d)) return false;
      out = Value::Number(d);
      return true;
    }
    case Next::kBool: {
      bool b = false;
      if (!ReadBool(b)) return false;
      out = Value::Bool(b);
      return true;
    }
    case Next::kNull:
      if (!ReadNull()) return false;
      out = Value::Null();
      return true;
    default:
      return Fail(ParseError::kSyntax);
  }
}

bool Reader::Finish() {
  if (!ok()) return false;
  SkipWhitespace();
  if (p_ != end_) return Fail(ParseError::kTrailingBytes);
  return true;
}

}  // namespace azure_pricing::json
