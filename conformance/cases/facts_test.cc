// No case asks of a message less leeway than docs/profile.md gives: where a case's fact shares an
// alternative with a fact the profile requires for the same outcome and reason, the case lists
// every alternative the profile does. An implementation written from the profile alone ("omit" or
// "drop", as the profile allows) must not fail a case that happens to list only "omit".
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "conformance/cases/case_runner.h"
#include "conformance/citations/cites.h"
#include "conformance/judge/profile_facts.h"
#include "ref/base/files.h"

namespace azure_pricing::conformance {

CITES("PROFILE-001", "PROJECT-001", "PROJECT-004");

namespace {

using Json = nlohmann::json;

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// A case's fact as its lower-cased alternatives: "text", ["a", "b"] or {"any": [...]}.
std::vector<std::string> Alternatives(const Json& fact) {
  const Json& any = fact.is_object() ? fact.value("any", Json::array()) : fact;
  std::vector<std::string> out;
  for (const Json& a : any.is_array() ? any : Json::array({any})) {
    if (a.is_string()) out.push_back(Lower(a.get<std::string>()));
  }
  return out;
}

bool Contains(const std::vector<std::string>& set, const std::string& text) {
  return std::find(set.begin(), set.end(), text) != set.end();
}

// Reasons whose facts cell names one fact per kind of argument ("string" for a string argument,
// "true or false" / "boolean" for include_savings_plan): the judge reads the cell as one fact
// with every alternative, and a case states the one its argument calls for.
bool FactDependsOnTheArgument(const std::string& reason) { return reason == "wrong_type"; }

// The narrowings in one expectation object: "case fact [..] drops profile alternative X".
std::vector<std::string> Narrowings(const judge::ProfileFacts& profile, const Json& expect) {
  std::vector<std::string> found;
  if (!expect.contains("message_facts") || !expect["message_facts"].is_array()) return found;
  if (FactDependsOnTheArgument(expect.value("reason", std::string()))) return found;
  const auto it = profile.by_reason.find(
      {expect.value("outcome", std::string()), expect.value("reason", std::string())});
  if (it == profile.by_reason.end()) return found;
  for (const Json& fact : expect["message_facts"]) {
    const std::vector<std::string> ours = Alternatives(fact);
    for (const judge::Fact& theirs : it->second) {
      const bool shared = std::any_of(theirs.any.begin(), theirs.any.end(),
                                      [&](const std::string& a) { return Contains(ours, Lower(a)); });
      for (const std::string& a : theirs.any) {
        if (shared && !Contains(ours, Lower(a))) {
          found.push_back(fact.dump() + " lacks the profile's \"" + a + "\"");
        }
      }
    }
  }
  return found;
}

// Every object under `node` that states an outcome: a case's expect and each further call's.
void Expectations(const Json& node, std::vector<const Json*>& out) {
  if (node.is_object() && node.contains("outcome")) out.push_back(&node);
  if (node.is_structured()) {
    for (const Json& child : node) Expectations(child, out);
  }
}

TEST(CaseFactsTest, NoCaseNarrowsAFactOfTheProfile) {
  const std::optional<judge::ProfileFacts> profile = judge::LoadProfileFacts();
  ASSERT_TRUE(profile.has_value()) << "cannot read " << judge::kProfilePath;
  const std::vector<std::string> files = CaseFiles();
  ASSERT_GE(files.size(), 5u);
  int judged = 0;
  for (const std::string& file : files) {
    const StatusOr<std::string> text = base::ReadFile(file);
    ASSERT_TRUE(text.ok()) << file;
    const Json cases = Json::parse(*text, nullptr, false).value("cases", Json::array());
    for (const Json& c : cases) {
      std::vector<const Json*> expectations;
      Expectations(c, expectations);
      for (const Json* expect : expectations) {
        judged += expect->contains("message_facts") ? 1 : 0;
        for (const std::string& n : Narrowings(*profile, *expect)) {
          ADD_FAILURE() << file << ": " << c.value("id", "?") << ": " << n;
        }
      }
    }
  }
  EXPECT_GE(judged, 20) << "the cases' message_facts were not found";
}

// The check itself finds a narrowing: "omit" alone where the profile allows four words.
TEST(CaseFactsTest, ACaseListingFewerAlternativesIsANarrowing) {
  const std::optional<judge::ProfileFacts> profile = judge::LoadProfileFacts();
  ASSERT_TRUE(profile.has_value());
  const Json expect = {{"outcome", "refused"},
                       {"reason", "service_without_sku"},
                       {"message_facts", Json::array({"service", "omit"})}};
  EXPECT_THAT(Narrowings(*profile, expect), ::testing::Contains(::testing::HasSubstr("drop")));
  const Json wider = {{"outcome", "refused"},
                      {"reason", "service_without_sku"},
                      {"message_facts", Json::array({Json::array({"omit", "leave out", "remove", "drop", "delete"})})}};
  EXPECT_THAT(Narrowings(*profile, wider), ::testing::IsEmpty());
}

// A table cell's code text: `x` is x (a leading space kept); "none" and the like are empty.
std::string CodeOf(const std::string& cell) {
  if (cell.size() >= 2 && cell.front() == '`' && cell.back() == '`') {
    return cell.substr(1, cell.size() - 2);
  }
  return "";
}

// The case with `id` in any case file; null when there is none.
Json FindCase(const std::string& id) {
  for (const std::string& file : CaseFiles()) {
    const StatusOr<std::string> text = base::ReadFile(file);
    if (!text.ok()) continue;
    for (const Json& c : Json::parse(*text, nullptr, false).value("cases", Json::array())) {
      if (c.value("id", "") == id) return c;
    }
  }
  return nullptr;
}

// docs/profile.md's near-miss table (PROJECT-001, PROJECT-004): each row is the case it names,
// so the rule a port reads is the rule the gate applies.
TEST(CaseFactsTest, TheProfilesNearMissRegionsAreTheCasesOfTheGate) {
  const StatusOr<std::string> profile = base::ReadFile(judge::kProfilePath);
  ASSERT_TRUE(profile.ok());
  const std::vector<std::vector<std::string>> rows =
      judge::ProfileTableRows(*profile, "near-miss-table");
  ASSERT_GE(rows.size(), 4u) << "no near-miss table in " << judge::kProfilePath;
  for (const std::vector<std::string>& row : rows) {
    ASSERT_EQ(row.size(), 5u);
    const std::string id = CodeOf(row[4]);
    const Json c = FindCase(id);
    ASSERT_TRUE(c.is_object()) << "the table names case " << id << ", which no case file has";
    EXPECT_EQ(c["arguments"].value("region", ""), CodeOf(row[0])) << id;
    const Json expect = c.value("expect", Json::object());
    EXPECT_EQ(expect.value("outcome", ""), row[1]) << id;
    EXPECT_EQ(expect.value("reason", ""), CodeOf(row[2])) << id;
    const std::string named = CodeOf(row[3]);
    if (named.empty()) continue;
    bool stated = false;
    for (const Json& fact : expect.value("message_facts", Json::array())) {
      stated = stated || (fact.is_object() && fact.value("any", Json::array()).dump().find(
                                                  "\"" + named + "\"") != std::string::npos);
    }
    EXPECT_TRUE(stated) << id << ": its message_facts do not name " << named;
  }
}

}  // namespace
}  // namespace azure_pricing::conformance
