// The page cache gives the handler's answer, keeps within its bound and evicts the least recently
// used answer first.
#include "fakes/prices_server/page_cache.h"

#include <string>

#include "gtest/gtest.h"

namespace azure_pricing::fakes::prices {
namespace {

Catalog Make(int n) {
  std::string lines;
  for (int i = 0; i < n; ++i) {
    lines += R"({"currencyCode":"USD","retailPrice":1.5,"serviceName":"S)" + std::to_string(i % 3) +
             R"(","meterId":"m-)" + std::to_string(i) + "\"}\n";
  }
  Catalog c;
  EXPECT_TRUE(c.Add(lines, nullptr));
  return c;
}

std::string Target(int service, int skip = 0) {
  return "/api/retail/prices?$filter=serviceName%20eq%20%27S" + std::to_string(service) +
         "%27&$skip=" + std::to_string(skip);
}

TEST(PageCacheTest, AnswersAsTheHandlerDoes) {
  const Catalog c = Make(3000);
  PageCache cache(64 << 20);
  for (const std::string& target :
       {Target(0), Target(1, 5), Target(2, 5000), std::string("/api/other"), Target(0)}) {
    for (int page_size : {kPageSize, 3}) {
      const HttpResponse want = HandlePrices(c, target, page_size);
      const std::shared_ptr<const HttpResponse> got = cache.Answer(c, target, page_size);
      EXPECT_EQ(got->status, want.status) << target;
      EXPECT_EQ(got->content_type, want.content_type) << target;
      EXPECT_EQ(got->body, want.body) << target;
    }
  }
  EXPECT_EQ(cache.hits(), 2u);  // the repeated Target(0), at each page size
  EXPECT_EQ(cache.Answer(c, Target(1, 5), 3), cache.Answer(c, Target(1, 5), 3));
}

TEST(PageCacheTest, StaysWithinItsBoundAndEvictsTheLeastRecentlyUsed) {
  const Catalog c = Make(3000);
  const size_t page = HandlePrices(c, Target(0)).body.size();
  PageCache cache(page * 9 / 2);  // four pages fit
  cache.Answer(c, Target(0), kPageSize);
  cache.Answer(c, Target(1), kPageSize);
  cache.Answer(c, Target(2), kPageSize);
  cache.Answer(c, Target(0, 1), kPageSize);
  cache.Answer(c, Target(0), kPageSize);     // now the most recent
  cache.Answer(c, Target(0, 2), kPageSize);  // evicts Target(1)
  EXPECT_LE(cache.bytes(), page * 9 / 2);
  const size_t hits = cache.hits();
  cache.Answer(c, Target(0), kPageSize);
  EXPECT_EQ(cache.hits(), hits + 1);
  cache.Answer(c, Target(1), kPageSize);
  EXPECT_EQ(cache.hits(), hits + 1);
}

TEST(PageCacheTest, KeepsNothingWhenOffOrTooLarge) {
  const Catalog c = Make(3000);
  PageCache off(0);
  off.Answer(c, Target(0), kPageSize);
  off.Answer(c, Target(0), kPageSize);
  EXPECT_EQ(off.hits(), 0u);
  EXPECT_EQ(off.bytes(), 0u);
  PageCache small(1000);
  small.Answer(c, Target(0), kPageSize);
  EXPECT_EQ(small.bytes(), 0u);
}

}  // namespace
}  // namespace azure_pricing::fakes::prices
