// PROTOCOL.md's tables of the call's configuration, member by member, name exactly the keys the
// scripted host accepts (conformance/host/config_keys.h): a key added to the host and not to the
// page a testee author reads, or the reverse, fails here. Its list of the names the CLI's
// environment must lack is the one the case holds, for the same reason.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/host/config_keys.h"
#include "ref/json/json.h"
#include "ref/base/files.h"
#include "ref/base/runfiles.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::testee {
namespace {

namespace host = ::azure_pricing::conformance::host;

// The first column's member names of the table under the heading that starts with `heading`,
// up to the next heading.
std::set<std::string> TableMembers(const std::string& page, std::string_view heading) {
  std::set<std::string> out;
  std::istringstream lines(page);
  std::string line;
  bool inside = false;
  while (std::getline(lines, line)) {
    if (line.starts_with("#")) {
      inside = line.starts_with(heading);
      continue;
    }
    if (!inside || !line.starts_with("| ")) continue;
    // "| `router.present` | ..." or "| label `.integrity` | ...": the first backticked name.
    const size_t open = line.find('`');
    const size_t cell_end = line.find(" |", 1);
    if (open == std::string::npos || open > cell_end) continue;
    const size_t close = line.find('`', open + 1);
    std::string name = line.substr(open + 1, close - open - 1);
    if (line.compare(2, 6, "label ") == 0) name = "label" + name;
    out.insert(name);
  }
  return out;
}

std::set<std::string> Keys(std::span<const std::string_view> keys, std::string_view prefix = "") {
  std::set<std::string> out;
  for (std::string_view key : keys) out.insert(std::string(prefix) + std::string(key));
  return out;
}

std::string Page() {
  StatusOr<std::string> page = base::ReadFile(base::Runfile("conformance/testee/PROTOCOL.md"));
  EXPECT_THAT(page.status(), IsOk());
  return page.ok() ? *page : "";
}

TEST(ProtocolDocTest, TheHostTableNamesEveryHostAndRouterKey) {
  std::set<std::string> want = Keys(host::kHostKeys);
  want.merge(Keys(host::kRouterKeys, "router."));
  EXPECT_EQ(TableMembers(Page(), "### `host`"), want);
}

TEST(ProtocolDocTest, TheBackendTableNamesEveryBackendKey) {
  EXPECT_EQ(TableMembers(Page(), "### `backend`"), Keys(host::kBackendKeys));
}

TEST(ProtocolDocTest, TheLabelsTableNamesEveryLabelsAndLabelKey) {
  std::set<std::string> want = Keys(host::kLabelsKeys);
  want.merge(Keys(host::kLabelKeys, "label."));
  EXPECT_EQ(TableMembers(Page(), "### `labels`"), want);
}

TEST(ProtocolDocTest, TheCallCarriesEveryConfigurationPartByItsName) {
  // Version 3's call members are the configuration parts' own names.
  const std::string page = Page();
  for (std::string_view part : host::kConfigurationParts) {
    EXPECT_THAT(page, ::testing::HasSubstr("### `" + std::string(part) + "`")) << part;
  }
}

constexpr std::string_view kEnvironmentCase = "backend-cli-environment-holds-no-credentials";

// The backticked names of the paragraph that follows `lead`, up to the first blank line.
std::vector<std::string> NamesAfter(const std::string& page, std::string_view lead) {
  std::vector<std::string> out;
  const size_t start = page.find(lead);
  if (start == std::string::npos) return out;
  const size_t end = page.find("\n\n", start);
  const std::string paragraph = page.substr(start + lead.size(), end - start - lead.size());
  for (size_t open = paragraph.find('`'); open != std::string::npos;) {
    const size_t close = paragraph.find('`', open + 1);
    if (close == std::string::npos) break;
    out.push_back(paragraph.substr(open + 1, close - open - 1));
    open = paragraph.find('`', close + 1);
  }
  return out;
}

// expect.backend.env_lacks of the case `id` in conformance/cases/calls.json.
std::vector<std::string> EnvLacksOfCase(std::string_view id) {
  std::vector<std::string> out;
  StatusOr<std::string> text = base::ReadFile(base::Runfile("conformance/cases/calls.json"));
  EXPECT_THAT(text.status(), IsOk());
  if (!text.ok()) return out;
  const json::ParseResult parsed = json::ParseStrict(*text);
  EXPECT_EQ(parsed.error, json::ParseError::kNone);
  const json::Value* cases = parsed.value.Find("cases");
  if (cases == nullptr) return out;
  for (const json::Value& one : cases->items()) {
    const json::Value* case_id = one.Find("id");
    if (case_id == nullptr || case_id->as_string() != id) continue;
    const json::Value* expect = one.Find("expect");
    const json::Value* backend = expect ? expect->Find("backend") : nullptr;
    const json::Value* lacks = backend ? backend->Find("env_lacks") : nullptr;
    if (lacks == nullptr) return out;
    for (const json::Value& name : lacks->items()) out.push_back(name.as_string());
  }
  return out;
}

TEST(ProtocolDocTest, TheForbiddenEnvironmentNamesAreTheCasesList) {
  const std::vector<std::string> listed = NamesAfter(Page(), "the tool never sets them):");
  const std::vector<std::string> held = EnvLacksOfCase(kEnvironmentCase);
  ASSERT_FALSE(held.empty()) << kEnvironmentCase << " names no env_lacks";
  EXPECT_EQ(listed, held);
}

}  // namespace
}  // namespace azure_pricing::conformance::testee
