// The fake price API's handler before pre-serialisation, kept as a byte-for-byte oracle for
// price_api_identity_test (testonly). Same contract as price_api.h's Catalog and HandlePrices.
// It shares with the fast handler how a request and a catalog text are read (price_request.h:
// the parameters, the 400 answers, the NextPageLink, the currency rates, the catalog's items; held by
// price_api_test against the recorded answers), the lexical helpers of query_text.h and the
// filter language of odata.h (held by odata_test and odata_properties_test). What the identity
// test compares is its own: the index and candidates, matching, paging and the page's text.
#ifndef FAKES_PRICES_SERVER_PRICE_API_ORACLE_H_
#define FAKES_PRICES_SERVER_PRICE_API_ORACLE_H_

#include <memory>
#include <string>
#include <string_view>

#include "fakes/prices_server/price_api.h"

namespace azure_pricing::fakes::prices::oracle {

class Catalog {
 public:
  Catalog();
  ~Catalog();
  Catalog(Catalog&&) noexcept;
  Catalog& operator=(Catalog&&) noexcept;

  bool Add(std::string_view text, std::string* error);
  size_t size() const;

  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

HttpResponse HandlePrices(const Catalog& catalog, std::string_view target,
                          int page_size = kPageSize);

}  // namespace azure_pricing::fakes::prices::oracle

#endif  // FAKES_PRICES_SERVER_PRICE_API_ORACLE_H_
