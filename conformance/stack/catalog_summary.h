// What a price catalog holds, said in one line: the local stack's first progress line when it
// serves the offline catalog, so a person whose query comes back empty can see whether the
// catalog could have answered it. Computed from the catalog's items, never written by hand.
//
//   DescribeCatalog(jsonl, "fixtures/offline-catalog/PROVENANCE.md")
//   == "local stack: offline catalog of 3 rows; 2 services: Virtual Machines, Bandwidth; "
//      "2 regions: eastus, westeurope (fixtures/offline-catalog/PROVENANCE.md)"
#ifndef CONFORMANCE_STACK_CATALOG_SUMMARY_H_
#define CONFORMANCE_STACK_CATALOG_SUMMARY_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace azure_pricing::conformance::stack {

// How many names each list shows before "and N more": enough for the catalog's main services
// and regions, short enough for one terminal line of a few hundred characters.
inline constexpr size_t kCatalogNamesShown = 8;

// `jsonl` is one item per line (the fake price API's catalog format). Services (serviceName)
// and regions (armRegionName, empty ones left out) are listed by how many items they have,
// most first, ties by name. A line that is not a JSON object is not counted.
std::string DescribeCatalog(std::string_view jsonl, std::string_view source);

}  // namespace azure_pricing::conformance::stack

#endif  // CONFORMANCE_STACK_CATALOG_SUMMARY_H_
