// Comparing two runs of a scenario: a short message naming the first difference, since a capped
// scenario's stdout is 2.6 MB and gtest would print all of it.
#ifndef FAKES_AZMCP_DIFFERENTIAL_COMPARE_H_
#define FAKES_AZMCP_DIFFERENTIAL_COMPARE_H_

#include <string>

#include "fakes/azmcp/differential_rig.h"

namespace azure_pricing::fakes::azmcp {

// Empty when equal; otherwise what differs (exit code, the first differing line of stdout or
// stderr, or the request sequences), with `want_label` and `got_label` naming the two sides.
std::string DescribeDifference(const Outcome& want, const Outcome& got, const std::string& want_label,
                               const std::string& got_label);

}  // namespace azure_pricing::fakes::azmcp

#endif  // FAKES_AZMCP_DIFFERENTIAL_COMPARE_H_
