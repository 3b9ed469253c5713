// mutants.json is valid against mutants.schema.json, every mutant applies to exactly one place in
// its file, ids are unique, and every caught_by id is a case of conformance/cases.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "conformance/json_schema/json_schema.h"
#include "ref/base/files.h"

namespace azure_pricing::conformance {
namespace {

using nlohmann::ordered_json;

ordered_json ReadJson(const std::string& path) {
  const auto text = base::ReadFile(path);
  EXPECT_TRUE(text.ok()) << path;
  return text.ok() ? ordered_json::parse(*text) : ordered_json();
}

std::set<std::string> CaseIds() {
  std::set<std::string> ids;
  for (const auto& entry : std::filesystem::directory_iterator("conformance/cases")) {
    if (entry.path().filename() == "case.schema.json") continue;
    // The document is held: a range-for over a member of a temporary would dangle.
    const ordered_json file = ReadJson(entry.path().string());
    for (const auto& c : file["cases"]) ids.insert(c["id"]);
  }
  return ids;
}

size_t Occurrences(const std::string& text, const std::string& find) {
  size_t n = 0;
  for (size_t at = text.find(find); at != std::string::npos; at = text.find(find, at + 1)) ++n;
  return n;
}

TEST(MutantsJson, MatchesTheSchema) {
  const ordered_json schema = ReadJson("conformance/source_mutants/mutants.schema.json");
  const ordered_json mutants = ReadJson("conformance/source_mutants/mutants.json");
  for (const SchemaProblem& p : ValidateAgainstSchema(schema, mutants)) {
    ADD_FAILURE() << PathText(p.path) << ": " << p.what;
  }
}

TEST(MutantsJson, EveryMutantAppliesOnceAndNamesRealCases) {
  const std::set<std::string> cases = CaseIds();
  std::set<std::string> ids;
  const ordered_json doc = ReadJson("conformance/source_mutants/mutants.json");
  ASSERT_GE(doc["mutants"].size(), 50u);
  for (const auto& m : doc["mutants"]) {
    const std::string id = m["id"];
    EXPECT_TRUE(ids.insert(id).second) << "duplicate id " << id;
    const auto source = base::ReadFile(m["file"].get<std::string>());
    ASSERT_TRUE(source.ok()) << id << ": " << m["file"];
    EXPECT_EQ(Occurrences(*source, m["find"]), 1u) << id << ": find must occur exactly once";
    EXPECT_NE(m["find"], m["replace"]) << id;
    EXPECT_EQ(m["replace"].get<std::string>().find('\n'), std::string::npos) << id;
    for (const auto& c : m["caught_by"]) EXPECT_TRUE(cases.count(c)) << id << ": no case " << c;
  }
}

}  // namespace
}  // namespace azure_pricing::conformance
