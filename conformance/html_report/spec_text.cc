#include "conformance/html_report/spec_text.h"

#include <cstddef>
#include <string>
#include <vector>

namespace azure_pricing::conformance::html_report {
namespace {

// The blocks' [begin, end) offsets: text between blank lines, without its surrounding newlines.
std::vector<std::pair<size_t, size_t>> BlockBounds(std::string_view text) {
  std::vector<std::pair<size_t, size_t>> bounds;
  size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && text[pos] == '\n') ++pos;
    if (pos >= text.size()) break;
    size_t end = text.find("\n\n", pos);
    if (end == std::string_view::npos) end = text.size();
    size_t trimmed = end;
    while (trimmed > pos && text[trimmed - 1] == '\n') --trimmed;
    bounds.emplace_back(pos, trimmed);
    pos = end;
  }
  return bounds;
}

bool IsHeading(std::string_view block) {
  return block.find('\n') == std::string_view::npos && block.size() < 80 && !block.empty() &&
         block.back() != '.' && block.back() != ':';
}

// The runs of one block: maximal stretches covered by the same set of quotes.
std::vector<Span> SpansOf(std::string_view text, size_t begin, size_t end,
                        const std::vector<std::vector<size_t>>& covering,
                        const std::vector<Quote>& quotes) {
  std::vector<Span> spans;
  size_t start = begin;
  for (size_t i = begin + 1; i <= end; ++i) {
    if (i < end && covering[i] == covering[start]) continue;
    Span span{.text = std::string(text.substr(start, i - start)), .ids = {}};
    for (const size_t q : covering[start]) span.ids.push_back(quotes[q].id);
    spans.push_back(std::move(span));
    start = i;
  }
  return spans;
}

}  // namespace

AnnotatedSpec AnnotateSpec(std::string_view text, const std::vector<Quote>& quotes) {
  AnnotatedSpec out;
  // For each byte, the quotes covering it, in the catalog's order.
  std::vector<std::vector<size_t>> covering(text.size());
  for (size_t q = 0; q < quotes.size(); ++q) {
    const std::string& quote = quotes[q].text;
    bool placed = false;
    for (size_t at = quote.empty() ? std::string_view::npos : text.find(quote);
         at != std::string_view::npos; at = text.find(quote, at + 1)) {
      placed = true;
      for (size_t i = at; i < at + quote.size(); ++i) {
        if (covering[i].empty() || covering[i].back() != q) covering[i].push_back(q);
      }
    }
    if (!placed) out.unplaced.push_back(quotes[q].id);
  }
  for (const auto& [begin, end] : BlockBounds(text)) {
    out.blocks.push_back({.heading = IsHeading(text.substr(begin, end - begin)),
                          .spans = SpansOf(text, begin, end, covering, quotes)});
  }
  return out;
}

}  // namespace azure_pricing::conformance::html_report
