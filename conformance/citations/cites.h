// How a test declares which requirements it covers:
//
//   namespace azure_pricing {
//   CITES("ARG-001", "HOST-004");
//
// at namespace scope, with string literals only. A malformed id fails to compile; the catalog
// check (conformance/catalog/catalog.h, ParseCitations) reads these declarations from the test sources,
// rejects an id the catalog does not have, and counts nothing else: an id in a comment is not a
// citation. Shell tests, which have no compiler, write the same form as a comment line:
//   # CITES("ZONE-001", "ZONE-003")
#ifndef CONFORMANCE_CITATIONS_CITES_H_
#define CONFORMANCE_CITATIONS_CITES_H_

#include <initializer_list>
#include <string_view>

#include "conformance/citations/id_form.h"

namespace azure_pricing::conformance::citations {

constexpr bool AllWellFormed(std::initializer_list<std::string_view> ids) {
  if (ids.size() == 0) return false;
  for (std::string_view id : ids) {
    if (!IsWellFormedId(id)) return false;
  }
  return true;
}

}  // namespace azure_pricing::conformance::citations

#define CITES(...)                                                          \
  static_assert(::azure_pricing::conformance::citations::AllWellFormed({__VA_ARGS__}), \
                "CITES: every requirement id must be PREFIX-NNN with a catalog prefix")

#endif  // CONFORMANCE_CITATIONS_CITES_H_
