// docs/backend-suite.md's two mutant tables are exactly Mutants() and SecondaryCatches(), and its
// probe count is the suite's: an implementer reads that page to learn what the suite rejects, so
// a mutant added, renamed or re-aimed in the code fails here until the page says it.
#include <regex>
#include <string>
#include <vector>

#include "conformance/backend/broken_backends/broken_backends.h"
#include "conformance/backend/suite.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/base/files.h"
#include "ref/base/runfiles.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::backend {
namespace {

using ::testing::ElementsAreArray;

std::string Page() {
  StatusOr<std::string> page = base::ReadFile(base::Runfile("docs/backend-suite.md"));
  EXPECT_THAT(page.status(), IsOk());
  return page.ok() ? *page : "";
}

// "name -> probe" for each row of the table under `header`, in the page's order; `row` captures
// the mutant's name and the probe's id.
std::vector<std::string> TableRows(const std::string& page, const std::string& header,
                                   const std::regex& row) {
  std::vector<std::string> rows;
  const size_t start = page.find(header + "\n");
  if (start == std::string::npos) return rows;
  const std::string table = page.substr(start, page.find("\n\n", start) - start);
  for (std::sregex_iterator it(table.begin(), table.end(), row), end; it != end; ++it) {
    rows.push_back((*it)[1].str() + " -> " + (*it)[2].str());
  }
  return rows;
}

std::vector<std::string> Rows(const std::vector<MutantInfo>& mutants) {
  std::vector<std::string> rows;
  for (const MutantInfo& m : mutants) rows.push_back(m.name + " -> " + m.caught_by);
  return rows;
}

TEST(DocsTablesTest, TheMutantTableIsMutants) {
  const std::regex row(R"(\n\| `([a-z0-9_]+)` \| [^|\n]+ \| `([a-z_.]+)` \|)");
  EXPECT_THAT(TableRows(Page(), "| mutant | what is broken | rejected by |", row),
              ElementsAreArray(Rows(Mutants())));
}

TEST(DocsTablesTest, TheSecondaryTableIsSecondaryCatches) {
  const std::regex row(R"(\n\| `([a-z0-9_]+)` \| `([a-z_.]+)` \| [^|\n]+ \|)");
  EXPECT_THAT(TableRows(Page(), "| mutant | also rejected by | because |", row),
              ElementsAreArray(Rows(SecondaryCatches())));
}

TEST(DocsTablesTest, TheStatedProbeCountIsTheSuites) {
  const std::string page = Page();
  const std::string count = std::to_string(BackendProbes().size()) + " probes";
  EXPECT_THAT(page, ::testing::StartsWith("# The backend suite\n\nThe " + count));
  EXPECT_NE(page.find("\n" + count + ", each with an id"), std::string::npos) << count;
}

}  // namespace
}  // namespace azure_pricing::conformance::backend
