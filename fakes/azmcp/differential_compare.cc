#include "fakes/azmcp/differential_compare.h"

#include <algorithm>

namespace azure_pricing::fakes::azmcp {
namespace {

std::string FirstLineDifference(const std::string& a, const std::string& b) {
  size_t line = 1, start = 0;
  const size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  for (; i < n && a[i] == b[i]; ++i) {
    if (a[i] == '\n') {
      ++line;
      start = i + 1;
    }
  }
  auto line_of = [&](const std::string& s) {
    const size_t end = s.find('\n', start);
    std::string l = s.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (l.size() > 300) l = l.substr(0, 300) + "...";
    return start >= s.size() ? std::string("<end of output>") : l;
  };
  return "line " + std::to_string(line) + ":\n    " + line_of(a) + "\n    " + line_of(b);
}

}  // namespace

std::string DescribeDifference(const Outcome& want, const Outcome& got, const std::string& want_label,
                               const std::string& got_label) {
  std::string d;
  const std::string sides = " (" + want_label + " first, then " + got_label + ")";
  if (want.exit_code != got.exit_code) {
    d += "exit code: " + want_label + " " + std::to_string(want.exit_code) + ", " + got_label + " " +
         std::to_string(got.exit_code) + "\n";
  }
  if (want.out != got.out) d += "stdout differs at " + FirstLineDifference(want.out, got.out) + sides + "\n";
  if (want.err != got.err) d += "stderr differs at " + FirstLineDifference(want.err, got.err) + sides + "\n";
  if (want.requests != got.requests) {
    d += "upstream requests: " + want_label + " made " + std::to_string(want.requests.size()) +
         ", " + got_label + " made " + std::to_string(got.requests.size());
    for (size_t i = 0; i < std::max(want.requests.size(), got.requests.size()); ++i) {
      const std::string w = i < want.requests.size() ? want.requests[i] : "<none>";
      const std::string g = i < got.requests.size() ? got.requests[i] : "<none>";
      if (w != g) {
        d += "; first difference at #" + std::to_string(i + 1) + ":\n    " + w + "\n    " + g;
        break;
      }
    }
    d += "\n";
  }
  return d;
}

}  // namespace azure_pricing::fakes::azmcp
