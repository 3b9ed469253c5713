// PROTOCOL.md's tables of the call's configuration, member by member, name exactly the keys the
// scripted host accepts (conformance/host/config_keys.h): a key added to the host and not to the
// page a testee author reads, or the reverse, fails here.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <string_view>

#include "conformance/host/config_keys.h"
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

}  // namespace
}  // namespace azure_pricing::conformance::testee
