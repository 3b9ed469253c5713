#include "fakes/azmcp/dotnet_json.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace fakes::azmcp {

std::string FormatDouble(double value) {
  if (value == 0) return "0";
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

std::string FormatDate(std::string_view iso) {
  if (!iso.empty() && (iso.back() == 'Z' || iso.back() == 'z')) {
    return std::string(iso.substr(0, iso.size() - 1)) + "+00:00";
  }
  return std::string(iso);
}

namespace {

void Quote(std::string& out, const std::string& s) {
  out.push_back('"');
  for (unsigned char c : s) {
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
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04X", c);
          out += buf;
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

}  // namespace fakes::azmcp
