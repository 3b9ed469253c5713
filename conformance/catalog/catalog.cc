#include "conformance/catalog/catalog.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "conformance/citations/id_form.h"
#include "ref/base/files.h"

namespace azure_pricing::conformance {

const Requirement* Catalog::Find(const std::string& id) const {
  for (const Requirement& r : requirements) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

namespace {

bool HasKnownKeysOnly(const nlohmann::json& r) {
  static const std::set<std::string> kKeys = {"id",          "level",  "section", "text",
                                              "observed_on", "source", "quote"};
  for (const auto& item : r.items()) {
    if (kKeys.count(item.key()) == 0) return false;
  }
  return true;
}

// A spec entry is only as good as the sentence it quotes, so it must have one; a profile entry's
// reason lives in docs/profile.md, and a quote there would pass it off as the spec's words.
bool SourceIsConsistent(const Requirement& req) {
  if (req.source == "spec") return req.quote.has_value() && !req.quote->empty();
  return req.source == "profile" && !req.quote.has_value();
}

std::optional<Requirement> ParseRequirement(const nlohmann::json& r) {
  static const std::regex kId("^[A-Z]+-[0-9]{3}$");
  static const std::regex kObservedOn("^azmcp [0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.]+)?$");
  if (!r.is_object() || !HasKnownKeysOnly(r)) return std::nullopt;
  auto is_text = [&r](const char* key) { return r.contains(key) && r[key].is_string(); };
  if (!is_text("id") || !is_text("level") || !is_text("section") || !is_text("text") ||
      !is_text("source") || (r.contains("observed_on") && !is_text("observed_on")) ||
      (r.contains("quote") && !is_text("quote"))) {
    return std::nullopt;
  }
  Requirement req;
  req.id = r["id"].get<std::string>();
  req.level = r["level"].get<std::string>();
  req.section = r["section"].get<std::string>();
  req.text = r["text"].get<std::string>();
  req.source = r["source"].get<std::string>();
  if (is_text("observed_on")) req.observed_on = r["observed_on"].get<std::string>();
  if (is_text("quote")) req.quote = r["quote"].get<std::string>();
  if (!std::regex_match(req.id, kId) || (req.level != "MUST" && req.level != "SHOULD") ||
      (req.observed_on && !std::regex_match(*req.observed_on, kObservedOn)) ||
      !SourceIsConsistent(req)) {
    return std::nullopt;
  }
  return req;
}

}  // namespace

std::optional<Catalog> LoadCatalog(const std::string& path) {
  const StatusOr<std::string> text = base::ReadFile(path);
  if (!text.ok()) return std::nullopt;
  const nlohmann::json doc = nlohmann::json::parse(*text, nullptr, false);
  if (doc.is_discarded() || !doc.contains("requirements") || !doc["requirements"].is_array()) {
    return std::nullopt;
  }
  Catalog catalog;
  std::set<std::string> ids;
  for (const auto& r : doc["requirements"]) {
    std::optional<Requirement> req = ParseRequirement(r);
    if (!req || !ids.insert(req->id).second) return std::nullopt;
    catalog.requirements.push_back(std::move(*req));
  }
  return catalog;
}

namespace {

bool IsIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

size_t LineAt(std::string_view text, size_t pos) {
  return 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + pos, '\n'));
}

// Parses `"ID", "ID", ...)` from `pos` (just past the opening parenthesis); returns the position
// after the closing one, or npos with a problem recorded.
size_t ParseCitationArguments(std::string_view text, size_t pos, SourceCitations& out) {
  const std::string where = "line " + std::to_string(LineAt(text, pos)) + ": ";
  auto skip_space = [&] {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  };
  std::set<std::string> ids;
  skip_space();
  while (pos < text.size() && text[pos] == '"') {
    const size_t close = text.find_first_of("\"\\\n", pos + 1);
    if (close == std::string_view::npos || text[close] != '"') break;
    const std::string id(text.substr(pos + 1, close - pos - 1));
    if (!citations::IsWellFormedId(id)) {
      out.problems.push_back(where + "CITES names \"" + id + "\", not PREFIX-NNN");
    } else {
      ids.insert(id);
    }
    pos = close + 1;
    skip_space();
    if (pos < text.size() && text[pos] == ')') {
      out.ids.insert(ids.begin(), ids.end());
      return pos + 1;
    }
    if (pos >= text.size() || text[pos] != ',') break;
    ++pos;
    skip_space();
  }
  out.problems.push_back(where + "CITES takes one or more string literals and a closing )");
  return std::string_view::npos;
}

// The end of the string, character or raw string literal, or comment, starting at `pos`;
// `pos` itself when none starts there.
size_t SkipNonCode(std::string_view text, size_t pos) {
  const std::string_view rest = text.substr(pos);
  const bool after_identifier = pos > 0 && IsIdentifierChar(text[pos - 1]);
  if (rest.starts_with("//")) {
    const size_t end = text.find('\n', pos);
    return end == std::string_view::npos ? text.size() : end;
  }
  if (rest.starts_with("/*")) {
    const size_t end = text.find("*/", pos + 2);
    return end == std::string_view::npos ? text.size() : end + 2;
  }
  if (rest.starts_with("R\"") && !after_identifier) {
    const size_t open = text.find('(', pos + 2);
    if (open == std::string_view::npos) return text.size();
    const std::string closing = ")" + std::string(text.substr(pos + 2, open - pos - 2)) + "\"";
    const size_t end = text.find(closing, open);
    return end == std::string_view::npos ? text.size() : end + closing.size();
  }
  // A quote after a digit or letter is a digit separator (601'000), not a character literal.
  const char quote = text[pos];
  if (quote == '"' || (quote == '\'' && !after_identifier)) {
    size_t i = pos + 1;
    while (i < text.size() && text[i] != quote && text[i] != '\n') i += text[i] == '\\' ? 2 : 1;
    return std::min(i + 1, text.size());
  }
  return pos;
}

void ParseCppCitations(std::string_view text, SourceCitations& out) {
  static constexpr std::string_view kMacro = "CITES";
  size_t pos = 0;
  while (pos < text.size()) {
    if (const size_t skipped = SkipNonCode(text, pos); skipped != pos) {
      pos = skipped;
      continue;
    }
    if (!text.substr(pos).starts_with(kMacro) || (pos > 0 && IsIdentifierChar(text[pos - 1]))) {
      ++pos;
      continue;
    }
    size_t after = pos + kMacro.size();
    while (after < text.size() && (text[after] == ' ' || text[after] == '\t')) ++after;
    if (after >= text.size() || text[after] != '(' || IsIdentifierChar(text[pos + kMacro.size()])) {
      pos = after;
      continue;
    }
    pos = ParseCitationArguments(text, after + 1, out);
  }
}

void ParseShellCitations(std::string_view text, SourceCitations& out) {
  static constexpr std::string_view kPrefix = "# CITES(";
  for (size_t line = 0; line < text.size();) {
    size_t end = text.find('\n', line);
    if (end == std::string_view::npos) end = text.size();
    const size_t start = text.find_first_not_of(" \t", line);
    if (start < end && text.substr(start).starts_with(kPrefix)) {
      ParseCitationArguments(text.substr(0, end), start + kPrefix.size(), out);
    }
    line = end + 1;
  }
}

}  // namespace

SourceCitations ParseCitations(std::string_view text, bool shell) {
  SourceCitations out;
  if (shell) {
    ParseShellCitations(text, out);
  } else {
    ParseCppCitations(text, out);
  }
  return out;
}

TestCitations ReadTestCitations(const std::vector<std::string>& files) {
  TestCitations out;
  for (const std::string& file : files) {
    const StatusOr<std::string> text = base::ReadFile(file);
    if (!text.ok()) {
      out.problems.push_back(file + ": " + text.status().message());
      continue;
    }
    SourceCitations parsed = ParseCitations(*text, file.ends_with(".sh"));
    for (const std::string& problem : parsed.problems) out.problems.push_back(file + ": " + problem);
    out.by_source["test " + file] = std::move(parsed.ids);
  }
  return out;
}

Coverage ComputeCoverage(const Catalog& catalog,
                         const std::map<std::string, std::set<std::string>>& citations_by_source) {
  Coverage coverage;
  std::set<std::string> unknown;
  for (const auto& [source, ids] : citations_by_source) {
    for (const std::string& id : ids) {
      const Requirement* r = catalog.Find(id);
      if (r == nullptr) {
        unknown.insert(id);
        continue;
      }
      coverage.cited_by[id].insert(source);
    }
  }
  for (const Requirement& r : catalog.requirements) {
    if (coverage.cited_by.count(r.id) == 0) {
      coverage.uncited.push_back(r.id);
    }
  }
  coverage.unknown.assign(unknown.begin(), unknown.end());
  return coverage;
}

std::vector<std::string> TestSourceFiles() {
  // Every test source in the runfiles (each package's test_sources filegroup is a data
  // dependency), so a new test file is picked up without touching a list.
  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(".", ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const bool test_source = name.ends_with("_test.cc") || name.ends_with("_test.sh");
    if (test_source && it->is_regular_file(ec)) {
      files.push_back(it->path().lexically_normal().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace azure_pricing::conformance
