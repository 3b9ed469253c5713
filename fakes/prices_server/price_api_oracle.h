// The fake price API's handler before pre-serialisation, kept as a byte-for-byte oracle for
// price_api_identity_test (testonly). Same contract as price_api.h's Catalog and HandlePrices.
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

std::string PercentDecode(std::string_view text);

}  // namespace azure_pricing::fakes::prices::oracle

#endif  // FAKES_PRICES_SERVER_PRICE_API_ORACLE_H_
