#include "fakes/azmcp/dotnet_json.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace azure_pricing::fakes::azmcp {

std::string FormatDouble(double value) {
  if (value == 0) return std::signbit(value) ? "-0" : "0";
  char buf[64];
  // Shortest round-trip digits, in scientific form so digits and exponent can be read off.
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  (void)ec;
  std::string sci(buf, end);  // e.g. "1.2e-05", "-1.5e+03"
  const size_t e = sci.find('e');
  std::string mantissa = sci.substr(0, e);
  const int exponent = std::atoi(sci.c_str() + e + 1);
  const bool negative = mantissa[0] == '-';
  if (negative) mantissa.erase(0, 1);
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') digits.push_back(c);
  }
  std::string out = negative ? "-" : "";
  if (exponent >= 15 || exponent < -4) {
    // .NET: d[.ddd]E+XX / E-XX with at least two exponent digits.
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char exp[16];
    std::snprintf(exp, sizeof exp, "E%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    return out + exp;
  }
  if (exponent < 0) {
    return out + "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
  }
  const size_t int_len = static_cast<size_t>(exponent) + 1;
  if (digits.size() <= int_len) return out + digits + std::string(int_len - digits.size(), '0');
  return out + digits.substr(0, int_len) + "." + digits.substr(int_len);
}

namespace {

bool Digits(std::string_view s, size_t pos, size_t n, int& out) {
  if (pos + n > s.size()) return false;
  out = 0;
  for (size_t k = pos; k < pos + n; ++k) {
    if (s[k] < '0' || s[k] > '9') return false;
    out = out * 10 + (s[k] - '0');
  }
  return true;
}

int DaysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

}  // namespace

std::optional<std::string> FormatDateTimeOffset(std::string_view s) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!Digits(s, 0, 4, year) || s.size() < 10 || s[4] != '-' || !Digits(s, 5, 2, month) ||
      s[7] != '-' || !Digits(s, 8, 2, day)) {
    return std::nullopt;
  }
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month)) {
    return std::nullopt;
  }
  size_t i = 10;
  std::string fraction;
  if (i < s.size() && (s[i] == 'T' || s[i] == ' ')) {
    if (!Digits(s, i + 1, 2, hour) || i + 3 >= s.size() || s[i + 3] != ':' ||
        !Digits(s, i + 4, 2, minute)) {
      return std::nullopt;
    }
    i += 6;
    if (i < s.size() && s[i] == ':') {
      if (!Digits(s, i + 1, 2, second)) return std::nullopt;
      i += 3;
      if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') fraction.push_back(s[i++]);
        if (fraction.empty() || fraction.size() > 7) return std::nullopt;
      }
    }
    if (hour > 23 || minute > 59 || second > 59) return std::nullopt;
  }
  // No offset means local time; the sandbox's zone is UTC.
  std::string offset = "+00:00";
  if (i < s.size()) {
    int oh = 0, om = 0;
    if ((s[i] == 'Z' || s[i] == 'z') && i + 1 == s.size()) {
      // UTC
    } else if ((s[i] == '+' || s[i] == '-') && i + 6 == s.size() && Digits(s, i + 1, 2, oh) &&
               s[i + 3] == ':' && Digits(s, i + 4, 2, om) && oh <= 14 && om <= 59) {
      offset = std::string(s.substr(i, 6));
    } else {
      return std::nullopt;
    }
  }
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute,
                second);
  return std::string(buf) + (fraction.empty() ? "" : "." + fraction) + offset;
}

namespace {

void AppendEscaped(std::string& out, uint32_t unit) {
  char buf[16];  // room for any uint32_t, which -O2 format checks require
  std::snprintf(buf, sizeof buf, "\\u%04X", unit);
  out += buf;
}

// UnsafeRelaxedJsonEscaping keeps most of Unicode as UTF-8 but escapes C1 controls, the line and
// paragraph separators and everything outside the Basic Multilingual Plane (as a surrogate
// pair). `s` is valid UTF-8; returns the index of the sequence's last byte.
size_t QuoteNonAscii(std::string& out, const std::string& s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  const size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
  uint32_t cp = c & (len == 2 ? 0x1f : len == 3 ? 0x0f : 0x07);
  for (size_t k = 1; k < len && i + k < s.size(); ++k) cp = (cp << 6) | (s[i + k] & 0x3f);
  if (cp >= 0x10000) {
    cp -= 0x10000;
    AppendEscaped(out, 0xd800 + (cp >> 10));
    AppendEscaped(out, 0xdc00 + (cp & 0x3ff));
  } else if ((cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029) {
    AppendEscaped(out, cp);
  } else {
    out.append(s, i, len);
  }
  return i + len - 1;
}

void Quote(std::string& out, const std::string& s) {
  out.push_back('"');
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          AppendEscaped(out, c);
        } else if (c >= 0x80) {
          i = QuoteNonAscii(out, s, i);
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  out.push_back('"');
}

void Write(std::string& out, const nlohmann::ordered_json& v, int indent) {
  const std::string pad(static_cast<size_t>(indent) * 2, ' ');
  const std::string inner(static_cast<size_t>(indent + 1) * 2, ' ');
  switch (v.type()) {
    case nlohmann::ordered_json::value_t::object: {
      if (v.empty()) {
        out += "{}";
        return;
      }
      out += "{\n";
      bool first = true;
      for (const auto& [k, item] : v.items()) {
        if (!first) out += ",\n";
        first = false;
        out += inner;
        Quote(out, k);
        out += ": ";
        Write(out, item, indent + 1);
      }
      out += "\n" + pad + "}";
      return;
    }
    case nlohmann::ordered_json::value_t::array: {
      if (v.empty()) {
        out += "[]";
        return;
      }
      out += "[\n";
      bool first = true;
      for (const auto& item : v) {
        if (!first) out += ",\n";
        first = false;
        out += inner;
        Write(out, item, indent + 1);
      }
      out += "\n" + pad + "]";
      return;
    }
    case nlohmann::ordered_json::value_t::string:
      Quote(out, v.get<std::string>());
      return;
    case nlohmann::ordered_json::value_t::number_float:
      out += FormatDouble(v.get<double>());
      return;
    default:
      out += v.dump();
  }
}

}  // namespace

std::string WriteIndented(const nlohmann::ordered_json& value) {
  std::string out;
  Write(out, value, 0);
  return out;
}

}  // namespace azure_pricing::fakes::azmcp
