// The catalog is complete and honest: every implemented requirement is cited by a case or a
// test, every cited id exists, and no pending requirement is claimed before its issue lands.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "conformance/case_runner.h"
#include "conformance/catalog.h"

namespace azure_pricing::conformance {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(CatalogTest, LoadsWithUniqueWellFormedIds) {
  const std::optional<Catalog> catalog = LoadCatalog("conformance/requirements.json");
  ASSERT_TRUE(catalog.has_value());
  EXPECT_GE(catalog->requirements.size(), 60u);
  for (const Requirement& r : catalog->requirements) {
    EXPECT_FALSE(r.text.empty()) << r.id;
    EXPECT_FALSE(r.section.empty()) << r.id;
  }
}

TEST(CatalogTest, MalformedCatalogsAreRejectedNotMisread) {
  const std::string path = testing::TempDir() + "/catalog.json";
  for (
      const char* body :
      {R"({"requirements":[{"id":"ARG" "-001","level":"MUST","section":"s","text":5,"pending":null}]})",
       R"({"requirements":[{"id":"ARG" "-001","level":"MUST","section":"s","text":"t","pending":"3"}]})",
       R"({"requirements":[{"id":"ARG" "-001","level":"MAY","section":"s","text":"t","pending":null}]})",
       R"({"requirements":[{"id":"arg-1","level":"MUST","section":"s","text":"t","pending":null}]})",
       R"({"requirements":[{"id":"ARG" "-001","level":"MUST","section":"s","text":"t","pending":null},
                            {"id":"ARG" "-001","level":"MUST","section":"s","text":"t","pending":null}]})"}) {
    std::ofstream(path) << body;
    EXPECT_FALSE(LoadCatalog(path).has_value()) << body;
  }
}

TEST(CatalogTest, CitedIdsFindsOnlyCatalogPrefixes) {
  // Ids in this file are split across literals so the coverage scan does not count them.
  EXPECT_EQ(CitedIds("covers ARG"
                     "-004 and BOUND"
                     "-021, not FOO"
                     "-001 or ARG"
                     "-04"),
            (std::set<std::string>{"ARG"
                                   "-004",
                                   "BOUND"
                                   "-021"}));
}

TEST(CatalogTest, CoverageFlagsUncitedUnknownAndPrematureCitations) {
  Catalog catalog;
  const std::string a1 = "ARG"
                         "-001",
                    a2 = "ARG"
                         "-002",
                    z1 = "ZONE"
                         "-001",
                    a9 = "ARG"
                         "-999";
  catalog.requirements = {{a1, "MUST", "s", "t", std::nullopt},
                          {a2, "MUST", "s", "t", std::nullopt},
                          {z1, "MUST", "s", "t", 3}};
  const Coverage c = ComputeCoverage(catalog, {{"a", {a1, z1, a9}}});
  EXPECT_EQ(c.uncited, std::vector<std::string>{a2});
  EXPECT_EQ(c.unknown, std::vector<std::string>{a9});
  EXPECT_EQ(c.pending_but_cited, std::vector<std::string>{z1});
}

TEST(CatalogTest, EveryImplementedRequirementIsCitedAndEveryCitationExists) {
  const std::optional<Catalog> catalog = LoadCatalog("conformance/requirements.json");
  ASSERT_TRUE(catalog.has_value());
  std::map<std::string, std::set<std::string>> citations;
  for (const std::string& file : DefaultCaseFiles()) {
    for (const CaseResult& r : RunCaseFile(file)) {
      for (const std::string& id : r.requirements) citations["case " + r.id].insert(id);
    }
  }
  const std::vector<std::string> sources = TestSourceFiles();
  ASSERT_GE(sources.size(), 5u) << "test sources are missing from the runfiles";
  for (const std::string& file : sources) citations["test " + file] = CitedIds(Slurp(file));
  const Coverage coverage = ComputeCoverage(*catalog, citations);
  for (const std::string& id : coverage.uncited) ADD_FAILURE() << id << " is cited by nothing";
  for (const std::string& id : coverage.unknown) ADD_FAILURE() << id << " is not in the catalog";
  for (const std::string& id : coverage.pending_but_cited) {
    ADD_FAILURE() << id << " is cited but still marked pending";
  }
}

}  // namespace
}  // namespace azure_pricing::conformance
