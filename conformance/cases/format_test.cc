// The case format has one source of truth: case.schema.json says what a case may state, and the
// runner implements each of its expectations in exactly one check. A property no check reads
// would pass every implementation; a check whose property the schema lacks could never be asked
// for. Either fails here, by name.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "conformance/cases/case_runner.h"
#include "conformance/cases/expectations.h"
#include "conformance/cases/load.h"
#include "conformance/citations/cites.h"
#include "conformance/host/config_keys.h"
#include "ref/base/files.h"

namespace azure_pricing {
CITES("PROFILE-003");
namespace conformance {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;

json ReadSchema() {
  const StatusOr<std::string> text = base::ReadFile(kCaseSchema);
  EXPECT_TRUE(text.ok()) << kCaseSchema;
  return text.ok() ? json::parse(*text, nullptr, false) : json();
}

// The expect object's properties, and "parent.member" for each member of an object property.
std::vector<std::string> ExpectProperties(const json& expect) {
  std::vector<std::string> out;
  const json properties = expect.value("properties", json::object());
  for (const auto& item : properties.items()) {
    out.push_back(item.key());
    const json& property = item.value();
    if (!property.is_object() || !property.contains("properties")) continue;
    for (const auto& member : property["properties"].items()) {
      out.push_back(item.key() + "." + member.key());
    }
  }
  return out;
}

// What is wrong between the schema's properties and the checks' keys: a top-level property
// needs exactly one check, a member at most one (its parent's check covers it otherwise), and
// every key a check declares must be a property.
std::vector<std::string> CoverageProblems(const std::vector<std::string>& properties,
                                          const std::vector<ExpectationCheckInfo>& checks) {
  std::map<std::string, std::vector<std::string>> checks_of;
  for (const std::string& p : properties) checks_of[p];
  std::vector<std::string> problems;
  for (const ExpectationCheckInfo& check : checks) {
    for (const std::string& key : check.keys) {
      const auto it = checks_of.find(key);
      if (it == checks_of.end()) {
        problems.push_back("check \"" + check.name + "\" implements \"" + key +
                           "\", which expect does not have");
      } else {
        it->second.push_back(check.name);
      }
    }
  }
  for (const auto& [property, names] : checks_of) {
    const bool member = property.find('.') != std::string::npos;
    if (names.empty() && !member) problems.push_back("property \"" + property + "\" has no check");
    if (names.size() > 1) {
      problems.push_back("property \"" + property + "\" has " + std::to_string(names.size()) +
                         " checks: " + names[0] + ", " + names[1]);
    }
  }
  return problems;
}

TEST(CaseFormatTest, EveryExpectPropertyHasExactlyOneCheck) {
  const json schema = ReadSchema();
  ASSERT_TRUE(schema.contains("$defs") && schema["$defs"].contains("expect"));
  const std::vector<std::string> properties = ExpectProperties(schema["$defs"]["expect"]);
  ASSERT_GE(properties.size(), 20u);
  EXPECT_EQ(CoverageProblems(properties, ExpectationChecks()), std::vector<std::string>{});
}

TEST(CaseFormatTest, TheCoverageNamesThePropertyOrCheckAtFault) {
  const std::vector<std::string> properties = {"outcome", "reason", "tool", "tool.name",
                                               "tool.text_contains"};
  const std::vector<ExpectationCheckInfo> checks = {
      {.name = "outcome", .keys = {"outcome"}},
      {.name = "reason", .keys = {"reason"}},
      {.name = "tool", .keys = {"tool"}},
      {.name = "tool wording", .keys = {"tool.text_contains"}, .wording = true},
      {.name = "no echo", .keys = {}},
  };
  EXPECT_EQ(CoverageProblems(properties, checks), std::vector<std::string>{});

  std::vector<ExpectationCheckInfo> wrong = checks;
  wrong[1].keys = {"reasn"};
  wrong.push_back({.name = "tool again", .keys = {"tool"}});
  EXPECT_THAT(CoverageProblems(properties, wrong),
              ElementsAre("check \"reason\" implements \"reasn\", which expect does not have",
                          "property \"reason\" has no check",
                          "property \"tool\" has 2 checks: tool, tool again"));
}

TEST(CaseFormatTest, WordingChecksAreTheOnesTheProfileCallsRecommended) {
  // PROFILE-003: exact wording is RECOMMENDED; the schema says so of every wording property.
  const json expect = ReadSchema()["$defs"]["expect"]["properties"];
  for (const ExpectationCheckInfo& check : ExpectationChecks()) {
    for (const std::string& key : check.keys) {
      const size_t dot = key.find('.');
      const json& property = dot == std::string::npos
                                 ? expect[key]
                                 : expect[key.substr(0, dot)]["properties"][key.substr(dot + 1)];
      const bool recommended =
          property.value("description", "").find("RECOMMENDED only") != std::string::npos;
      EXPECT_EQ(recommended, check.wording) << check.name << " (" << key << ")";
    }
  }
}

// A case's properties in the schema: what sits beside "expect" in one of "cases".
json CaseProperties(const json& schema) {
  return schema["properties"]["cases"]["items"]["properties"];
}

// The schema of a configuration object at `path` ("a.b": member b of a; "a[]": an item of a).
json SchemaAt(const json& case_properties, std::string_view path) {
  json at = json::object({{"properties", case_properties}});
  while (!path.empty()) {
    const size_t dot = path.find('.');
    std::string name(path.substr(0, dot));
    path = dot == std::string_view::npos ? "" : path.substr(dot + 1);
    const bool item = name.ends_with("[]");
    if (item) name.resize(name.size() - 2);
    if (!at.contains("properties") || !at["properties"].contains(name)) return json();
    at = at["properties"][name];
    if (item) at = at.value("items", json());
  }
  return at;
}

std::vector<std::string> Sorted(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  return names;
}

TEST(CaseFormatTest, TheSchemasConfigurationKeysAreTheScriptedHostsTable) {
  const json cases = CaseProperties(ReadSchema());
  for (const host::ConfigObject& object : host::kConfigObjects) {
    const json at = SchemaAt(cases, object.path);
    ASSERT_TRUE(at.is_object() && at.contains("properties")) << object.path;
    std::vector<std::string> in_schema;
    for (const auto& item : at["properties"].items()) in_schema.push_back(item.key());
    EXPECT_EQ(Sorted(in_schema), Sorted({object.keys.begin(), object.keys.end()})) << object.path;
    // An unknown key is a configuration error in the host, so the schema must refuse it too.
    EXPECT_EQ(at.value("additionalProperties", true), false) << object.path;
  }
  for (std::string_view part : host::kConfigurationParts) {
    EXPECT_TRUE(cases.contains(std::string(part))) << part;
  }
}

}  // namespace
}  // namespace conformance
}  // namespace azure_pricing
