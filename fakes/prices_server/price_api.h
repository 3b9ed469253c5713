// The fake prices.azure.com request handler, without sockets: a catalog of price items and the
// answer to one `GET /api/retail/prices?...` as the real API gives it (as recorded in
// fixtures/azmcp-3.0.0-beta.46/upstream-synthetic): api-version handling, currencyCode,
// savingsPlan only on the 2023 preview,
// non-primary meter regions on every version unless meterRegion='primary', pages of 1,000 with an absolute
// NextPageLink (`:443`, the original query, `$skip`) and a per-page Count, the OData subset of
// odata.h, and the recorded 400/404 bodies. Each item is kept as the text a page shows, made
// once at load, and equality on the common fields is answered from indexes, so a
// 1,000,000-item catalog answers an indexed query's full page in under a millisecond
// (page_cache.h keeps whole answers for a server).
#ifndef FAKES_PRICES_SERVER_PRICE_API_H_
#define FAKES_PRICES_SERVER_PRICE_API_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fakes/prices_server/price_request.h"

namespace azure_pricing::fakes::prices {

class Catalog {
 public:
  Catalog();
  ~Catalog();
  Catalog(Catalog&&) noexcept;
  Catalog& operator=(Catalog&&) noexcept;

  // A JSON page ({"Items": [...]}, any other keys ignored) or JSON Lines of items. Appends;
  // false (with `error` set) when the text is neither.
  bool Add(std::string_view text, std::string* error);
  size_t size() const;

  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

inline constexpr int kPageSize = 1000;

// `target` is the request target as sent: "/api/retail/prices?currencyCode=USD&$filter=...".
// `page_size` other than the API's 1,000 lets a test serve oversized or undersized pages.
HttpResponse HandlePrices(const Catalog& catalog, std::string_view target,
                          int page_size = kPageSize);

}  // namespace azure_pricing::fakes::prices

#endif  // FAKES_PRICES_SERVER_PRICE_API_H_
