// Synthetic catalogs with the shapes of the real price list, from a seed: regional rows for many
// services and regions, Global rows, billing-zone rows for every zone family (network, edge,
// DNS, ExpressRoute), meters with an empty armSkuName, usage tiers, one- and three-year
// reservations, savings plans, DevTest prices and non-primary meters. The same seed gives the same
// catalog, item for item.
#ifndef FAKES_PRICES_SERVER_CATALOG_GENERATOR_H_
#define FAKES_PRICES_SERVER_CATALOG_GENERATOR_H_

#include <cstdint>
#include <functional>
#include <string>

namespace azure_pricing::fakes::prices {

// Calls `emit` with `count` items, each one line of JSON in the API's item shape.
void GenerateCatalog(uint64_t seed, int64_t count,
                     const std::function<void(const std::string&)>& emit);

}  // namespace azure_pricing::fakes::prices

#endif  // FAKES_PRICES_SERVER_CATALOG_GENERATOR_H_
