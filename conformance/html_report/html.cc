#include "conformance/html_report/html.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

namespace azure_pricing::conformance::html_report {
namespace {

// The length of the well-formed UTF-8 sequence at `i`, or 0.
size_t Utf8Length(std::string_view s, size_t i) {
  const auto byte = [&s](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  // Overlong, surrogate and beyond-U+10FFFF forms.
  if ((c == 0xE0 && byte(i + 1) < 0xA0) || (c == 0xED && byte(i + 1) >= 0xA0) ||
      (c == 0xF0 && byte(i + 1) < 0x90) || (c == 0xF4 && byte(i + 1) >= 0x90)) {
    return 0;
  }
  return n;
}

}  // namespace

std::string Escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t n = Utf8Length(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    if (n > 1) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    switch (const char c = text[i++]) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string Value(std::string_view label, std::string_view text, size_t fold_over) {
  if (text.size() <= fold_over && text.find('\n') == std::string_view::npos) {
    return "<code class=\"value\">" + Escape(text) + "</code>";
  }
  return "<details class=\"value\"><summary>" + Escape(label) + " (" + Size(text.size()) +
         ")</summary><pre>" + Escape(text) + "</pre></details>";
}

std::string PrettyJson(std::string_view text) {
  const nlohmann::ordered_json value = nlohmann::ordered_json::parse(text, nullptr, false);
  if (value.is_discarded()) return std::string(text);
  return value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string CheckAnchor(std::string_view suite, std::string_view id) {
  return std::string(suite) + "/" + std::string(id);
}

std::string RequirementAnchor(std::string_view id) { return "req-" + std::string(id); }

std::string Size(size_t bytes) {
  if (bytes < 1000) return std::to_string(bytes) + " B";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f kB", static_cast<double>(bytes) / 1000.0);
  return text;
}

}  // namespace azure_pricing::conformance::html_report
