// The non-blank lines of a text, numbered from 1: the shape of the fake API's line-oriented
// files (a catalog's JSON Lines, a replay's recorded exchanges).
#ifndef FAKES_PRICES_SERVER_TEXT_LINES_H_
#define FAKES_PRICES_SERVER_TEXT_LINES_H_

#include <cstddef>
#include <string_view>

namespace azure_pricing::fakes::prices {

// Calls `visit(line_number, line)` for each line of `text` that is not only blanks (spaces, tabs,
// a CR), in order, until it returns false; whether every call returned true.
template <class Visit>
bool ForEachTextLine(std::string_view text, const Visit& visit) {
  size_t start = 0, line = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    ++line;
    const std::string_view row = text.substr(start, end - start);
    start = end + 1;
    if (row.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    if (!visit(line, row)) return false;
  }
  return true;
}

}  // namespace azure_pricing::fakes::prices

#endif  // FAKES_PRICES_SERVER_TEXT_LINES_H_
