#include "conformance/gate/profile_version.h"

#include <cctype>

#include "ref/base/files.h"

namespace azure_pricing::conformance {
namespace {

constexpr std::string_view kVersionLead = "Profile version **";
constexpr std::string_view kChangesHeading = "## Changes";
constexpr std::string_view kVersionHeading = "### ";

bool Digits(std::string_view s) {
  if (s.empty()) return false;
  for (const char c : s) {
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) return false;
  }
  return true;
}

// The text's lines, without their line ends.
std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    out.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return out;
}

// `suite/id` with a lower-case suite name and no blank: what a change entry names a check by.
bool CheckName(std::string_view span) {
  const size_t slash = span.find('/');
  if (slash == 0 || slash == std::string_view::npos || slash + 1 == span.size()) return false;
  for (const char c : span.substr(0, slash)) {
    if (c < 'a' || c > 'z') return false;
  }
  return span.find_first_of(" \t") == std::string_view::npos;
}

void AddNamedChecks(std::string_view line, std::set<std::string>& out) {
  for (size_t open = line.find('`'); open != std::string_view::npos;) {
    const size_t close = line.find('`', open + 1);
    if (close == std::string_view::npos) return;
    const std::string_view span = line.substr(open + 1, close - open - 1);
    if (CheckName(span)) out.emplace(span);
    open = line.find('`', close + 1);
  }
}

}  // namespace

bool WellFormedProfileVersion(std::string_view v) {
  // YYYY-MM-DD.N: the date's three fields are all digits; N has no leading zero.
  if (v.size() < 12 || v[4] != '-' || v[7] != '-' || v[10] != '.') return false;
  const std::string_view n = v.substr(11);
  return Digits(v.substr(0, 4)) && Digits(v.substr(5, 2)) && Digits(v.substr(8, 2)) &&
         Digits(n) && n[0] != '0';
}

StatusOr<std::string> ParseProfileVersion(std::string_view text) {
  for (const std::string_view line : Lines(text)) {
    if (!line.starts_with(kVersionLead)) continue;
    const std::string_view rest = line.substr(kVersionLead.size());
    const size_t end = rest.find("**");
    const std::string_view version = rest.substr(0, end);
    if (end == std::string_view::npos || !WellFormedProfileVersion(version)) {
      return ProgramError(kProfileVersionUnreadable,
                          "the profile's version line does not state a version YYYY-MM-DD.N");
    }
    return std::string(version);
  }
  return ProgramError(kProfileVersionUnreadable,
                      "the profile has no line 'Profile version **YYYY-MM-DD.N**'");
}

StatusOr<std::string> LoadProfileVersion(const std::string& path) {
  const StatusOr<std::string> text = base::ReadFile(path);
  if (!text.ok()) {
    return ProgramError(kProfileVersionUnreadable, "the profile " + path + " cannot be read");
  }
  return ParseProfileVersion(*text);
}

std::vector<ProfileChangeList> ParseProfileChanges(std::string_view text) {
  std::vector<ProfileChangeList> out;
  bool in_changes = false;
  for (const std::string_view line : Lines(text)) {
    if (line.starts_with("## ")) {  // a level-2 heading opens or closes the section
      in_changes = line == kChangesHeading;
      continue;
    }
    if (!in_changes) continue;
    if (line.starts_with(kVersionHeading)) {
      const std::string_view rest = line.substr(kVersionHeading.size());
      out.push_back({.version = std::string(rest.substr(0, rest.find(' ')))});
      continue;
    }
    if (!out.empty()) AddNamedChecks(line, out.back().named_checks);
  }
  return out;
}

}  // namespace azure_pricing::conformance
