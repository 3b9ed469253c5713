#include "conformance/html_report/spec_text.h"

#include <optional>
#include <set>

#include "conformance/catalog/catalog.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/base/files.h"

namespace azure_pricing::conformance::html_report {
namespace {

using ::testing::ElementsAre;

std::vector<std::pair<std::string, std::vector<std::string>>> Runs(const Block& block) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (const Span& r : block.spans) out.emplace_back(r.text, r.ids);
  return out;
}

TEST(AnnotateSpecTest, BlocksAreSplitOnBlankLinesAndShortUnpunctuatedLinesAreHeadings) {
  const AnnotatedSpec s = AnnotateSpec("Title\n\nOne sentence.\nTwo.\n\n\nList:\n", {});
  ASSERT_EQ(s.blocks.size(), 3u);
  EXPECT_TRUE(s.blocks[0].heading);
  EXPECT_FALSE(s.blocks[1].heading);
  EXPECT_EQ(s.blocks[1].spans.front().text, "One sentence.\nTwo.");
  EXPECT_FALSE(s.blocks[2].heading);  // ends with a colon: it introduces what follows
}

TEST(AnnotateSpecTest, AQuoteMarksItsTextAndSharedQuotesCarryEveryId) {
  const AnnotatedSpec s =
      AnnotateSpec("A b. C d. E f.", {{"X-1", "C d."}, {"X-2", "C d."}, {"X-3", "E f."}});
  ASSERT_EQ(s.blocks.size(), 1u);
  EXPECT_THAT(Runs(s.blocks[0]),
              ElementsAre(std::pair{std::string("A b. "), std::vector<std::string>{}},
                          std::pair{std::string("C d."), std::vector<std::string>{"X-1", "X-2"}},
                          std::pair{std::string(" "), std::vector<std::string>{}},
                          std::pair{std::string("E f."), std::vector<std::string>{"X-3"}}));
}

TEST(AnnotateSpecTest, OverlappingQuotesSplitWhereTheCoveringSetChanges) {
  const AnnotatedSpec s = AnnotateSpec("abcdef", {{"X-1", "abcd"}, {"X-2", "cdef"}});
  EXPECT_THAT(Runs(s.blocks[0]),
              ElementsAre(std::pair{std::string("ab"), std::vector<std::string>{"X-1"}},
                          std::pair{std::string("cd"), std::vector<std::string>{"X-1", "X-2"}},
                          std::pair{std::string("ef"), std::vector<std::string>{"X-2"}}));
}

TEST(AnnotateSpecTest, AQuoteTheTextDoesNotHoldIsReportedNotDropped) {
  const AnnotatedSpec s = AnnotateSpec("abc", {{"X-1", "zzz"}, {"X-2", ""}});
  EXPECT_THAT(s.unplaced, ElementsAre("X-1", "X-2"));
}

// The page marks every sentence the catalog quotes: none is lost between the two files.
TEST(AnnotateSpecTest, EveryQuoteOfTheCatalogIsPlacedInTheSpecification) {
  const std::optional<Catalog> catalog = LoadCatalog("conformance/requirements.json");
  ASSERT_TRUE(catalog.has_value());
  const StatusOr<std::string> text = base::ReadFile("conformance/spec/maf-sandbox-azure-pricing.txt");
  ASSERT_TRUE(text.ok());
  std::vector<Quote> quotes;
  for (const Requirement& r : catalog->requirements) {
    if (r.quote) quotes.push_back({.id = r.id, .text = *r.quote});
  }
  ASSERT_GT(quotes.size(), 100u);
  const AnnotatedSpec s = AnnotateSpec(*text, quotes);
  EXPECT_THAT(s.unplaced, ElementsAre());
  std::set<std::string> marked;
  for (const Block& b : s.blocks) {
    for (const Span& r : b.spans) marked.insert(r.ids.begin(), r.ids.end());
  }
  EXPECT_EQ(marked.size(), quotes.size());
}

}  // namespace
}  // namespace azure_pricing::conformance::html_report
