// The version of the normative profile (docs/profile.md) and its change lists, read from the
// document itself, as the gate reads the profile's facts: the version the gate prints and
// records is the version of the very text whose demands it applied, so the two cannot drift.
//
// In the document: one line near the top, `Profile version **2026-12-05.1**.`, and a
// `## Changes` section with one `### VERSION ...` heading per version, newest first, whose
// entries name the checks they change as `suite/id` in backticks.
#ifndef CONFORMANCE_GATE_PROFILE_VERSION_H_
#define CONFORMANCE_GATE_PROFILE_VERSION_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/judge/profile_facts.h"
#include "ref/status/status.h"

namespace azure_pricing::conformance {

// A program error: the profile cannot be read, has no version line, or its version is not
// YYYY-MM-DD.N (the day the version was opened, and N, counting from 1, its number that day).
inline constexpr Reason kProfileVersionUnreadable = "profile_version_unreadable";

// True for YYYY-MM-DD.N with N a positive number without leading zeros: "2026-12-05.1".
bool WellFormedProfileVersion(std::string_view version);

// The version the line `Profile version **V**` states (the first such line).
StatusOr<std::string> ParseProfileVersion(std::string_view profile_text);
StatusOr<std::string> LoadProfileVersion(const std::string& path = judge::kProfilePath);

// One version's change list: the `### VERSION ...` heading under `## Changes` and every
// `suite/id` its entries name in backticks (`kind/refuse-empty-sku`).
struct ProfileChangeList {
  std::string version;
  std::set<std::string> named_checks;
};

// Every version's list, in the document's order (newest first); empty without `## Changes`.
std::vector<ProfileChangeList> ParseProfileChanges(std::string_view profile_text);

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_GATE_PROFILE_VERSION_H_
