// The compile-time half of the citation check: which ids CITES accepts. (A CITES with a
// malformed id does not compile, so the rejections are checked on the function it uses.)
#include "conformance/citations/cites.h"

#include <gtest/gtest.h>

namespace azure_pricing::conformance::citations {
namespace {

static_assert(AllWellFormed({"ARG" "-001", "INTEG" "-011"}));
static_assert(!AllWellFormed({}));

TEST(CitesTest, AcceptsOnlyCatalogPrefixesWithThreeDigits) {
  for (const char* id : {"ARG-001", "BOUND-031", "INTRO-010", "UPSTREAM-003"}) {
    EXPECT_TRUE(IsWellFormedId(id)) << id;
  }
  for (const char* id : {"FOO-001", "ARG-01", "ARG-0001", "arg-001", "ARG001", "ARG-00a", "",
                         "-001", "ARG-"}) {
    EXPECT_FALSE(IsWellFormedId(id)) << id;
  }
}

}  // namespace
}  // namespace azure_pricing::conformance::citations
