#include "conformance/judge/profile_facts.h"

#include "ref/base/files.h"

namespace azure_pricing::conformance::judge {
namespace {

std::string Trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(" \t") - b + 1));
}

// The cell split at ';' outside backticks.
std::vector<std::string> FactTexts(std::string_view cell) {
  std::vector<std::string> parts;
  bool quoted = false;
  size_t start = 0;
  for (size_t i = 0; i <= cell.size(); ++i) {
    if (i < cell.size() && cell[i] == '`') quoted = !quoted;
    if (i == cell.size() || (!quoted && cell[i] == ';')) {
      parts.push_back(Trim(cell.substr(start, i - start)));
      start = i + 1;
    }
  }
  return parts;
}

// Every "text" inside a backtick span of `part`, in order: `"a" / "b"` and `"a"` / `"b"` alike.
std::vector<std::string> QuotedTexts(std::string_view part) {
  std::vector<std::string> out;
  for (size_t open = part.find('`'); open != std::string_view::npos;) {
    const size_t close = part.find('`', open + 1);
    if (close == std::string_view::npos) break;
    const std::string_view span = part.substr(open + 1, close - open - 1);
    for (size_t q = span.find('"'); q != std::string_view::npos;) {
      const size_t end = span.find('"', q + 1);
      if (end == std::string_view::npos) break;
      out.emplace_back(span.substr(q + 1, end - q - 1));
      q = span.find('"', end + 1);
    }
    open = part.find('`', close + 1);
  }
  return out;
}

// "`code`" -> "code".
std::string Unquoted(const std::string& cell) {
  if (cell.size() >= 2 && cell.front() == '`' && cell.back() == '`') {
    return cell.substr(1, cell.size() - 2);
  }
  return cell;
}

}  // namespace

std::vector<std::vector<std::string>> ProfileTableRows(std::string_view text,
                                                       std::string_view name) {
  std::vector<std::vector<std::string>> rows;
  const size_t open = text.find("<!-- " + std::string(name) + " -->");
  if (open == std::string_view::npos) return rows;
  const size_t close = text.find("<!-- /", open);
  size_t line = text.find('\n', open) + 1;
  bool header = true;
  while (line < close) {
    const size_t end = text.find('\n', line);
    if (end == std::string_view::npos) break;
    const std::string_view row = text.substr(line, end - line);
    line = end + 1;
    if (!row.starts_with("|") || row.starts_with("|---")) continue;
    std::vector<std::string> cells;
    for (size_t at = 1; at < row.size();) {
      const size_t bar = row.find('|', at);
      if (bar == std::string_view::npos) break;
      cells.push_back(Trim(row.substr(at, bar - at)));
      at = bar + 1;
    }
    if (!header) rows.push_back(std::move(cells));
    header = false;
  }
  return rows;
}

std::vector<Fact> FactsOfCell(std::string_view cell) {
  std::vector<Fact> facts;
  for (const std::string& part : FactTexts(cell)) {
    if (part.find("\xC2\xAB") != std::string::npos || part.starts_with("the ")) continue;
    const std::vector<std::string> texts = QuotedTexts(part);
    if (texts.empty()) continue;
    if (part.starts_with("each of")) {
      for (const std::string& t : texts) facts.push_back({.any = {t}});
    } else {
      facts.push_back({.any = texts});
    }
  }
  return facts;
}

std::optional<ProfileFacts> ParseProfileFacts(std::string_view text) {
  ProfileFacts out;
  for (const char* table : {"reason-table: tool", "reason-table: host"}) {
    for (const std::vector<std::string>& row : ProfileTableRows(text, table)) {
      if (row.size() != 4) continue;
      out.by_reason[{row[0], Unquoted(row[1])}] = FactsOfCell(row[3]);
    }
  }
  for (const std::vector<std::string>& row : ProfileTableRows(text, "facts-table: messages")) {
    if (row.size() == 3) out.by_message[Unquoted(row[0])] = FactsOfCell(row[2]);
  }
  if (out.by_reason.empty()) return std::nullopt;
  return out;
}

std::optional<ProfileFacts> LoadProfileFacts(const std::string& path) {
  const StatusOr<std::string> text = base::ReadFile(path);
  if (!text.ok()) return std::nullopt;
  return ParseProfileFacts(*text);
}

}  // namespace azure_pricing::conformance::judge
