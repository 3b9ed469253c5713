// The catalog is complete and honest: every requirement is cited by a case, probe, property or
// test, and every cited id exists.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <cstdio>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "conformance/cases/case_runner.h"
#include "conformance/catalog/catalog.h"
#include "conformance/citations/id_form.h"
#include "ref/base/files.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance {
namespace {

TEST(CatalogTest, LoadsWithUniqueWellFormedIds) {
  const std::optional<Catalog> catalog = LoadCatalog("conformance/requirements.json");
  ASSERT_TRUE(catalog.has_value());
  EXPECT_GE(catalog->requirements.size(), 60u);
  for (const Requirement& r : catalog->requirements) {
    EXPECT_FALSE(r.text.empty()) << r.id;
    EXPECT_FALSE(r.section.empty()) << r.id;
  }
}

TEST(CatalogTest, ObservedOnNamesTheRealCliItWasSeenOn) {
  const std::optional<Catalog> catalog = LoadCatalog("conformance/requirements.json");
  ASSERT_TRUE(catalog.has_value());
  ASSERT_NE(catalog->Find("HOST-004"), nullptr);
  // The CLI version it was observed on, whatever it is (the data names it, not this test).
  EXPECT_EQ(catalog->Find("HOST-004")->observed_on.value_or("").rfind("azmcp 3.0.0-", 0), 0u);
  ASSERT_NE(catalog->Find("INTRO-001"), nullptr);
  EXPECT_EQ(catalog->Find("INTRO-001")->observed_on, std::nullopt);
}

TEST(CatalogTest, MalformedCatalogsAreRejectedNotMisread) {
  const std::string path = testing::TempDir() + "/catalog.json";
  // Each body has exactly one fault; the first is the well-formed control the others vary.
  const std::string ok = R"({"id":"ARG-001","level":"MUST","section":"s","text":"t","source":"profile"})";
  ASSERT_THAT(base::WriteFileAtomically(path, R"({"requirements":[)" + ok + "]}"), IsOk());
  ASSERT_TRUE(LoadCatalog(path).has_value());
  for (
      const char* body :
      {R"({"requirements":[{"id":"ARG-001","level":"MUST","section":"s","text":5,"source":"profile"}]})",
       // A key the catalog no longer has: the issue that was to implement an entry.
       R"({"requirements":[{"id":"ARG-001","level":"MUST","section":"s","text":"t","source":"profile","pending":3}]})",
       R"({"requirements":[{"id":"ARG-001","level":"MAY","section":"s","text":"t","source":"profile"}]})",
       R"({"requirements":[{"id":"arg-1","level":"MUST","section":"s","text":"t","source":"profile"}]})",
       R"({"requirements":[{"id":"ARG-001","level":"MUST","section":"s","text":"t","source":"profile","observed_on":"3.0.0"}]})",
       R"({"requirements":[{"id":"ARG-001","level":"MUST","section":"s","text":"t","source":"profile","observed_on":3}]})",
       R"({"requirements":[{"id":"ARG-001","level":"MUST","section":"s","text":"t","source":"profile","observd_on":"azmcp 3.0.0"}]})",
       R"({"requirements":[{"id":"ARG-001","level":"MUST","section":"s","text":"t","source":"profile"},
                            {"id":"ARG-001","level":"MUST","section":"s","text":"t","source":"profile"}]})",
       // The source: missing, unknown, a spec entry without its quote, a profile entry with one.
       R"({"requirements":[{"id":"ARG-001","level":"MUST","section":"s","text":"t"}]})",
       R"({"requirements":[{"id":"ARG-001","level":"MUST","section":"s","text":"t","source":"lead"}]})",
       R"({"requirements":[{"id":"ARG-001","level":"MUST","section":"s","text":"t","source":"spec"}]})",
       R"({"requirements":[{"id":"ARG-001","level":"MUST","section":"s","text":"t","source":"spec","quote":""}]})",
       R"({"requirements":[{"id":"ARG-001","level":"MUST","section":"s","text":"t","source":"spec","quote":7}]})",
       R"({"requirements":[{"id":"ARG-001","level":"MUST","section":"s","text":"t","source":"profile","quote":"q"}]})"}) {
    ASSERT_THAT(base::WriteFileAtomically(path, body), IsOk());
    EXPECT_FALSE(LoadCatalog(path).has_value()) << body;
  }
}

TEST(CatalogTest, SourceAndQuoteAreRead) {
  const std::optional<Catalog> catalog = LoadCatalog("conformance/requirements.json");
  ASSERT_TRUE(catalog.has_value());
  const Requirement* arg = catalog->Find("ARG-008");
  ASSERT_NE(arg, nullptr);
  EXPECT_EQ(arg->source, "spec");
  EXPECT_EQ(arg->quote,
            "Empty, oversized and control-bearing arguments are refused before sandbox acquisition.");
  const Requirement* project = catalog->Find("PROJECT-002");
  ASSERT_NE(project, nullptr);
  EXPECT_EQ(project->source, "profile");
  EXPECT_EQ(project->quote, std::nullopt);
}

TEST(CitationsTest, OnlyDeclarationsCount) {
  // Inside string literals, as here, the macro's name is not a declaration of this file.
  const std::string cites = "CITES(";
  const SourceCitations parsed = ParseCitations(
      "// ARG-004 in a comment, and " + cites + "\"ARG-005\") in one\n"
      "/* " + cites + "\"ARG-006\") */ const char* s = \"" + cites + "\\\"ARG-007\\\")\";\n"
      "const char* r = R\"x(" + cites + "\"ARG-008\"))x\"; int n = 601'000;\n" +
      cites + "\"ARG-001\",\n      \"BOUND-021\");\nint MY" + cites + "\"ARG-009\");\n",
      /*shell=*/false);
  EXPECT_EQ(parsed.ids, (std::set<std::string>{"ARG-001", "BOUND-021"}));
  EXPECT_EQ(parsed.problems, std::vector<std::string>{});
}

TEST(CitationsTest, MalformedDeclarationsAreProblems) {
  const std::string cites = "CITES(";
  for (const std::string& body :
       {cites + "\"ARG-01\");", cites + "\"FOO-001\");", cites + "kArg001);", cites + ");",
        cites + "\"ARG-001\" \"ARG-002\");", cites + "\"ARG-001\",);", cites + "\"ARG-001\""}) {
    const SourceCitations parsed = ParseCitations(body, /*shell=*/false);
    EXPECT_EQ(parsed.problems.size(), 1u) << body;
    EXPECT_TRUE(parsed.ids.empty()) << body;
  }
}

TEST(CitationsTest, ShellTestsDeclareInACommentLine) {
  const std::string cites = "CITES(";
  const SourceCitations parsed = ParseCitations(
      "#!/bin/bash\n# Covers ZONE-002.\n  # " + cites + "\"ZONE-001\", \"ZONE-003\")\n"
      "echo '# " + cites + "\"ZONE-004\")'\n# " + cites + "\"zone-5\")\n",
      /*shell=*/true);
  EXPECT_EQ(parsed.ids, (std::set<std::string>{"ZONE-001", "ZONE-003"}));
  EXPECT_EQ(parsed.problems.size(), 1u);
}

TEST(CatalogTest, EveryCatalogIdHasACitablePrefix) {
  const std::optional<Catalog> catalog = LoadCatalog("conformance/requirements.json");
  ASSERT_TRUE(catalog.has_value());
  for (const Requirement& r : catalog->requirements) {
    EXPECT_TRUE(citations::IsWellFormedId(r.id)) << r.id << ": add its prefix to id_form.h";
  }
}

TEST(CatalogTest, CoverageFlagsUncitedAndUnknownIds) {
  Catalog catalog;
  const std::string a1 = "ARG-001", a2 = "ARG-002", z1 = "ZONE-001", a9 = "ARG-999";
  catalog.requirements = {{a1, "MUST", "s", "t"}, {a2, "MUST", "s", "t"}, {z1, "MUST", "s", "t"}};
  const Coverage c = ComputeCoverage(catalog, {{"a", {a1, z1, a9}}});
  EXPECT_EQ(c.uncited, std::vector<std::string>{a2});
  EXPECT_EQ(c.unknown, std::vector<std::string>{a9});
  EXPECT_EQ(c.cited_by.at(z1), std::set<std::string>{"a"});
}

TEST(CatalogTest, EveryRequirementIsCitedAndEveryCitationExists) {
  const std::optional<Catalog> catalog = LoadCatalog("conformance/requirements.json");
  ASSERT_TRUE(catalog.has_value());
  std::map<std::string, std::set<std::string>> citations;
  // Each case's requirements, read from the loaded case without running it (the catalog suite's
  // way): running them is //conformance/cases:cases_test's job.
  for (const std::string& file : CaseFiles()) {
    const std::vector<CaseResult> results = DescribeCaseFile(file);
    EXPECT_FALSE(results.empty()) << file << " yields no case";
    for (const CaseResult& r : results) {
      for (const std::string& id : r.requirements) citations["case " + r.id].insert(id);
    }
  }
  const std::vector<std::string> sources = TestSourceFiles();
  ASSERT_GE(sources.size(), 5u) << "test sources are missing from the runfiles";
  const TestCitations tests = ReadTestCitations(sources);
  citations.insert(tests.by_source.begin(), tests.by_source.end());
  for (const std::string& problem : tests.problems) ADD_FAILURE() << problem;
  const Coverage coverage = ComputeCoverage(*catalog, citations);
  for (const std::string& id : coverage.uncited) ADD_FAILURE() << id << " is cited by nothing";
  for (const std::string& id : coverage.unknown) ADD_FAILURE() << id << " is not in the catalog";
}

std::string Sha256Hex(const std::string& bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_sha256(), nullptr) != 1) return "";
  std::string hex;
  for (unsigned int i = 0; i < size; ++i) {
    char two[3];
    std::snprintf(two, sizeof two, "%02x", digest[i]);
    hex += two;
  }
  return hex;
}

// The repository holds the text its catalog numbers, unchanged since it was imported.
TEST(CatalogTest, TheSpecificationCopyIsTheOneImported) {
  const StatusOr<std::string> spec = base::ReadFile("conformance/spec/maf-sandbox-azure-pricing.txt");
  const StatusOr<std::string> provenance = base::ReadFile("conformance/spec/PROVENANCE.md");
  ASSERT_THAT(spec, IsOk());
  ASSERT_THAT(provenance, IsOk());
  EXPECT_THAT(*provenance, testing::HasSubstr("SHA-256 `" + Sha256Hex(*spec) + "`"));
}

// Every section the catalog's spec entries name is a heading of the specification (the
// introduction is its untitled opening); profile entries are the profile's, not the spec's.
TEST(CatalogTest, SectionsAreTheSpecificationsHeadings) {
  const std::optional<Catalog> catalog = LoadCatalog("conformance/requirements.json");
  const StatusOr<std::string> spec = base::ReadFile("conformance/spec/maf-sandbox-azure-pricing.txt");
  ASSERT_TRUE(catalog.has_value());
  ASSERT_THAT(spec, IsOk());
  std::set<std::string> sections;
  for (const Requirement& r : catalog->requirements) {
    if (r.source == "spec" && r.section != "Introduction") sections.insert(r.section);
  }
  EXPECT_GE(sections.size(), 5u);
  for (const std::string& section : sections) {
    EXPECT_THAT(*spec, testing::HasSubstr("\n\n" + section + "\n\n")) << section;
  }
}

// A spec entry is the spec's own words: its quote is a piece of the imported text, byte for byte.
TEST(CatalogTest, EverySpecQuoteIsInTheSpecification) {
  const std::optional<Catalog> catalog = LoadCatalog("conformance/requirements.json");
  const StatusOr<std::string> spec = base::ReadFile("conformance/spec/maf-sandbox-azure-pricing.txt");
  ASSERT_TRUE(catalog.has_value());
  ASSERT_THAT(spec, IsOk());
  size_t quoted = 0;
  for (const Requirement& r : catalog->requirements) {
    if (r.source != "spec") continue;
    ASSERT_TRUE(r.quote.has_value()) << r.id;
    EXPECT_NE(spec->find(*r.quote), std::string::npos) << r.id << " quotes what the spec lacks";
    ++quoted;
  }
  EXPECT_GE(quoted, 100u);
}

// The PROFILE-NNN and PROJECT-NNN ids docs/profile.md names.
std::set<std::string> ProfileIdsIn(const std::string& text) {
  static const std::regex kProfileId("\\b(PROFILE|PROJECT)-[0-9]{3}\\b");
  std::set<std::string> ids;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kProfileId);
       it != std::sregex_iterator(); ++it) {
    ids.insert(it->str());
  }
  return ids;
}

// The profile document and the catalog's profile entries are one list: a rule the gate checks
// has its reason written down, and a rule written down is one the gate can cite.
TEST(CatalogTest, ProfileEntriesAndTheProfileDocumentAgree) {
  const std::optional<Catalog> catalog = LoadCatalog("conformance/requirements.json");
  const StatusOr<std::string> profile = base::ReadFile("docs/profile.md");
  ASSERT_TRUE(catalog.has_value());
  ASSERT_THAT(profile, IsOk());
  const std::set<std::string> documented = ProfileIdsIn(*profile);
  std::set<std::string> catalogued;
  for (const Requirement& r : catalog->requirements) {
    if (r.source != "profile") continue;
    catalogued.insert(r.id);
    EXPECT_EQ(documented.count(r.id), 1u) << r.id << " is a profile entry docs/profile.md lacks";
  }
  for (const std::string& id : documented) {
    if (id.rfind("PROFILE-", 0) != 0) continue;
    EXPECT_EQ(catalogued.count(id), 1u) << id << " is in docs/profile.md but not the catalog";
  }
  EXPECT_GE(catalogued.size(), 17u);
}

}  // namespace
}  // namespace azure_pricing::conformance
