#include "conformance/judge/filter_tree.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace azure_pricing::conformance::judge {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view Trim(std::string_view t) {
  while (!t.empty() && IsSpace(t.front())) t.remove_prefix(1);
  while (!t.empty() && IsSpace(t.back())) t.remove_suffix(1);
  return t;
}

// Whitespace outside quoted strings collapsed, so "a  eq 'x  y'" reads as "a eq 'x  y'".
std::string NormalizedAtom(std::string_view t) {
  std::string out;
  bool quoted = false, space = false;
  for (const char c : Trim(t)) {
    if (!quoted && IsSpace(c)) {
      space = true;
      continue;
    }
    if (space) out += ' ';
    space = false;
    if (c == '\'') quoted = !quoted;  // '' inside a string closes and reopens: same effect
    out += c;
  }
  return out;
}

bool KeywordAt(std::string_view t, size_t i, std::string_view keyword) {
  if (i == 0 || i + keyword.size() >= t.size()) return false;
  for (size_t k = 0; k < keyword.size(); ++k) {
    if (std::tolower(static_cast<unsigned char>(t[i + k])) != keyword[k]) return false;
  }
  const char before = t[i - 1], after = t[i + keyword.size()];
  return (IsSpace(before) || before == ')') && (IsSpace(after) || after == '(');
}

// The operands of `t` at depth 0 around `keyword`, or nullopt when `t` does not balance (an
// unclosed quote or parenthesis).
std::optional<std::vector<std::string_view>> SplitTopLevel(std::string_view t,
                                                           std::string_view keyword) {
  std::vector<std::string_view> parts;
  int depth = 0;
  bool quoted = false;
  size_t start = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '\'') {
      quoted = !quoted;
    } else if (quoted) {
      continue;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (--depth < 0) return std::nullopt;
    } else if (depth == 0 && KeywordAt(t, i, keyword)) {
      parts.push_back(t.substr(start, i - start));
      start = i + keyword.size();
      i = start - 1;
    }
  }
  if (quoted || depth != 0) return std::nullopt;
  parts.push_back(t.substr(start));
  return parts;
}

// True when t[0] is '(' and its partner is the last character: "(a) or (b)" is not wrapped.
bool Wrapped(std::string_view t) {
  if (t.size() < 2 || t.front() != '(' || t.back() != ')') return false;
  int depth = 0;
  bool quoted = false;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '\'') quoted = !quoted;
    if (quoted) continue;
    if (t[i] == '(') ++depth;
    if (t[i] == ')' && --depth == 0) return i == t.size() - 1;
  }
  return false;
}

FilterTree Node(FilterTree::Kind kind, std::vector<FilterTree> parts) {
  FilterTree node{.kind = kind};
  for (FilterTree& part : parts) {
    if (part.kind == kind) {
      for (FilterTree& inner : part.operands) node.operands.push_back(std::move(inner));
    } else {
      node.operands.push_back(std::move(part));
    }
  }
  std::sort(node.operands.begin(), node.operands.end(),
            [](const FilterTree& a, const FilterTree& b) { return CanonicalText(a) < CanonicalText(b); });
  node.operands.erase(std::unique(node.operands.begin(), node.operands.end(),
                                  [](const FilterTree& a, const FilterTree& b) {
                                    return CanonicalText(a) == CanonicalText(b);
                                  }),
                      node.operands.end());
  if (node.operands.size() == 1) return std::move(node.operands.front());
  return node;
}

std::string Join(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i == 0 ? "" : separator) + parts[i];
  return out;
}

std::string Quoted(const std::string& value) {
  std::string out = "'";
  for (const char c : value) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

}  // namespace

FilterTree ParseFilter(std::string_view text) {
  const std::string_view t = Trim(text);
  for (const auto& [keyword, kind] : {std::pair{"or", FilterTree::Kind::kOr},
                                      std::pair{"and", FilterTree::Kind::kAnd}}) {
    const auto parts = SplitTopLevel(t, keyword);
    if (!parts) return {.atom = NormalizedAtom(t)};
    if (parts->size() < 2) continue;
    std::vector<FilterTree> operands;
    for (std::string_view part : *parts) operands.push_back(ParseFilter(part));
    return Node(kind, std::move(operands));
  }
  if (Wrapped(t)) return ParseFilter(t.substr(1, t.size() - 2));
  return {.atom = NormalizedAtom(t)};
}

std::string CanonicalText(const FilterTree& tree) {
  if (tree.kind == FilterTree::Kind::kAtom) return tree.atom;
  std::vector<std::string> parts;
  for (const FilterTree& operand : tree.operands) parts.push_back(CanonicalText(operand));
  return "(" + Join(parts, tree.kind == FilterTree::Kind::kAnd ? " and " : " or ") + ")";
}

std::string CliFilter(const CliClauses& c) {
  std::vector<std::string> clauses;
  const std::pair<const char*, const std::string*> typed[] = {
      {"armSkuName", &c.sku},           {"serviceName", &c.service},
      {"armRegionName", &c.region},     {"serviceFamily", &c.service_family},
      {"priceType", &c.price_type}};
  for (const auto& [field, value] : typed) {
    if (!value->empty()) clauses.push_back(std::string(field) + " eq " + Quoted(*value));
  }
  if (!c.filter.empty()) clauses.push_back(c.filter);
  return Join(clauses, " and ");
}

std::string DescribeFilterDifference(const FilterTree& got, const FilterTree& want) {
  const std::string got_text = CanonicalText(got), want_text = CanonicalText(want);
  if (got_text == want_text) return "";
  if (got.kind != want.kind || got.kind == FilterTree::Kind::kAtom) {
    return "is " + got_text + ", want " + want_text;
  }
  std::vector<const FilterTree*> lacks, has;
  auto missing_from = [](const FilterTree& in, const FilterTree& operand) {
    const std::string text = CanonicalText(operand);
    return std::none_of(in.operands.begin(), in.operands.end(),
                        [&text](const FilterTree& o) { return CanonicalText(o) == text; });
  };
  for (const FilterTree& o : want.operands) {
    if (missing_from(got, o)) lacks.push_back(&o);
  }
  for (const FilterTree& o : got.operands) {
    if (missing_from(want, o)) has.push_back(&o);
  }
  // One operand changed inside: say where, not the whole operand twice.
  if (lacks.size() == 1 && has.size() == 1 && lacks[0]->kind == has[0]->kind &&
      lacks[0]->kind != FilterTree::Kind::kAtom) {
    return DescribeFilterDifference(*has[0], *lacks[0]);
  }
  std::vector<std::string> lacking, having;
  for (const FilterTree* o : lacks) lacking.push_back(CanonicalText(*o));
  for (const FilterTree* o : has) having.push_back(CanonicalText(*o));
  std::string out;
  if (!lacking.empty()) out += "lacks " + Join(lacking, ", ");
  if (!having.empty()) out += (out.empty() ? "has " : "; has ") + Join(having, ", ");
  return out;
}

}  // namespace azure_pricing::conformance::judge
