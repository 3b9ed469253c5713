// The form of a requirement id, PREFIX-NNN with one of the catalog's section prefixes. Shared by
// the compile-time check in cites.h and the catalog check, so both accept exactly the same ids.
#ifndef CONFORMANCE_CITATIONS_ID_FORM_H_
#define CONFORMANCE_CITATIONS_ID_FORM_H_

#include <array>
#include <string_view>

namespace azure_pricing::conformance::citations {

// A new section of the catalog adds its prefix here; requirements_test checks the catalog uses
// no other. PROJECT marks the project's own rules, each derived from a spec sentence its
// section names, that the spec does not state in so many words. PROFILE marks the rules of
// the normative profile (docs/profile.md): what the gate requires beyond the spec's words.
inline constexpr std::array<std::string_view, 13> kIdPrefixes = {
    "INTRO", "HOST", "POLICY", "ARG",   "SCHEMA", "UPSTREAM", "REGION",
    "SELECT", "ZONE", "BOUND", "INTEG", "PROJECT", "PROFILE"};

constexpr bool IsWellFormedId(std::string_view id) {
  for (std::string_view prefix : kIdPrefixes) {
    if (id.size() != prefix.size() + 4 || !id.starts_with(prefix) || id[prefix.size()] != '-') {
      continue;
    }
    bool digits = true;
    for (char c : id.substr(prefix.size() + 1)) digits = digits && c >= '0' && c <= '9';
    if (digits) return true;
  }
  return false;
}

}  // namespace azure_pricing::conformance::citations

#endif  // CONFORMANCE_CITATIONS_ID_FORM_H_
