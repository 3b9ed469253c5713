// Whole answers of the fake price API, kept in a bounded least-recently-used cache by request
// target and page size. A catalog is fixed once loaded, so an answer is a function of the target
// and the page size alone (the target holds the filter, $skip, currencyCode, api-version and
// meterRegion, in the order and encoding the NextPageLink repeats): a cached answer is the
// answer, byte for byte. A client paging through a lookup, or many clients asking the same
// question, then costs one page build per distinct page.
//
//   PageCache cache(64 << 20);
//   std::shared_ptr<const HttpResponse> answer = cache.Answer(catalog, target, kPageSize);
#ifndef FAKES_PRICES_SERVER_PAGE_CACHE_H_
#define FAKES_PRICES_SERVER_PAGE_CACHE_H_

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "fakes/prices_server/price_api.h"

namespace azure_pricing::fakes::prices {

class PageCache {
 public:
  // Holds answers (bodies and keys) up to `max_bytes`; 0 keeps nothing. An answer larger than a
  // quarter of it is never kept, so one huge page cannot empty the cache.
  explicit PageCache(size_t max_bytes) : max_bytes_(max_bytes) {}
  PageCache(const PageCache&) = delete;
  PageCache& operator=(const PageCache&) = delete;

  // HandlePrices(catalog, target, page_size), from the cache when it holds it. Thread-safe; two
  // threads missing the same key at once both compute it.
  std::shared_ptr<const HttpResponse> Answer(const Catalog& catalog, std::string_view target,
                                             int page_size);

  size_t bytes() const;
  size_t hits() const;

 private:
  struct Entry {
    std::string key;
    std::shared_ptr<const HttpResponse> answer;
  };

  std::shared_ptr<const HttpResponse> Find(const std::string& key);
  void Keep(std::string key, std::shared_ptr<const HttpResponse> answer);

  const size_t max_bytes_;
  mutable std::mutex mu_;
  std::list<Entry> recent_;  // most recently used first
  std::unordered_map<std::string_view, std::list<Entry>::iterator> by_key_;
  size_t bytes_ = 0, hits_ = 0;
};

}  // namespace azure_pricing::fakes::prices

#endif  // FAKES_PRICES_SERVER_PAGE_CACHE_H_
