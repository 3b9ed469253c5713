// One line per check in the gate's suites: "  ok   ID: DETAIL", "  FAIL ID: DETAIL", or without
// the colon when there is nothing to add, so that no line ends in a bare ": ".
#ifndef CONFORMANCE_GATE_CHECK_LINE_H_
#define CONFORMANCE_GATE_CHECK_LINE_H_

#include <string>
#include <string_view>

namespace azure_pricing::conformance {

inline std::string CheckLine(bool passed, std::string_view id, std::string_view detail) {
  std::string line = passed ? "  ok   " : "  FAIL ";
  line += id;
  if (!detail.empty()) {
    line += ": ";
    line += detail;
  }
  return line;
}

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_GATE_CHECK_LINE_H_
