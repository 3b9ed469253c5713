#include "fakes/prices_server/query_text.h"

#include <cctype>

namespace azure_pricing::fakes::prices {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  return std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
}

}  // namespace

std::string PercentDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() &&
        std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out.push_back(static_cast<char>(HexValue(text[i + 1]) * 16 + HexValue(text[i + 2])));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::vector<QueryParam> SplitQuery(std::string_view query) {
  std::vector<QueryParam> out;
  size_t start = 0;
  while (start <= query.size()) {
    size_t end = query.find('&', start);
    if (end == std::string_view::npos) end = query.size();
    const std::string_view part = query.substr(start, end - start);
    if (!part.empty()) {
      const size_t eq = part.find('=');
      QueryParam p;
      p.raw_key = std::string(part.substr(0, eq));
      p.raw_value = eq == std::string_view::npos ? "" : std::string(part.substr(eq + 1));
      p.key = PercentDecode(p.raw_key);
      p.value = PercentDecode(p.raw_value);
      out.push_back(std::move(p));
    }
    start = end + 1;
  }
  return out;
}

std::string Unquote(std::string_view value) {
  if (value.size() >= 2 && value.front() == '\'' && value.back() == '\'') {
    return std::string(value.substr(1, value.size() - 2));
  }
  return std::string(value);
}

std::string AsciiLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace azure_pricing::fakes::prices
