#include "conformance/judge/message_facts.h"

#include <cctype>

namespace azure_pricing::conformance::judge {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsWordByte(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// The length of a quote character starting at text[i] (UTF-8), or 0.
size_t QuoteAt(std::string_view text, size_t i) {
  const char c = text[i];
  if (c == '\'' || c == '"' || c == '`') return 1;
  // U+2018 U+2019 U+201C U+201D: E2 80 98/99/9C/9D.
  if (i + 2 < text.size() && static_cast<unsigned char>(c) == 0xE2 &&
      static_cast<unsigned char>(text[i + 1]) == 0x80) {
    const unsigned char last = static_cast<unsigned char>(text[i + 2]);
    if (last == 0x98 || last == 0x99 || last == 0x9C || last == 0x9D) return 3;
  }
  return 0;
}

}  // namespace

std::string NormalizeForFacts(std::string_view text, bool keep_case) {
  std::string out;
  bool space = false;
  for (size_t i = 0; i < text.size(); ++i) {
    // A quote is a word boundary, not a letter: "reservation's" states "reservation".
    if (const size_t quote = QuoteAt(text, i); quote != 0) {
      i += quote - 1;
      space = !out.empty();
      continue;
    }
    char c = text[i];
    if (c == ',' && !out.empty() && IsDigit(out.back()) && i + 1 < text.size() &&
        IsDigit(text[i + 1])) {
      continue;
    }
    if (c == '-' || std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += keep_case ? c : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

bool States(std::string_view message, const Fact& fact) {
  const std::string text = NormalizeForFacts(message, fact.case_sensitive);
  for (const std::string& alternative : fact.any) {
    const std::string want = NormalizeForFacts(alternative, fact.case_sensitive);
    if (want.empty()) continue;
    for (size_t at = text.find(want); at != std::string::npos; at = text.find(want, at + 1)) {
      const size_t end = at + want.size();
      const bool starts_word = at == 0 || !IsWordByte(text[at - 1]) || !IsWordByte(want.front());
      const bool ends_word = end == text.size() || !IsWordByte(text[end]) || !IsWordByte(want.back());
      if (starts_word && ends_word) return true;
    }
  }
  return false;
}

std::vector<std::string> MissingFacts(std::string_view message, const std::vector<Fact>& facts) {
  std::vector<std::string> missing;
  for (const Fact& fact : facts) {
    if (States(message, fact)) continue;
    std::string shown;
    for (const std::string& a : fact.any) shown += (shown.empty() ? "" : " | ") + a;
    missing.push_back(shown);
  }
  return missing;
}

}  // namespace azure_pricing::conformance::judge
