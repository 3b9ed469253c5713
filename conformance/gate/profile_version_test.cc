#include "conformance/gate/profile_version.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/base/files.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr char kProfile[] = R"(# A profile

Profile version **2026-12-09.2**. Its changes are under Changes.

## PROFILE-001 (REQUIRED) Something

Mentions `kind/not-a-change` outside the section.

## Changes

How to read this section names `docs/profile.md` before any version.

### 2026-12-09.2 (since 2026-12-09.1)

- **New REQUIRED check** `kind/new-case`: states `"a fact"`; also `backend/egress.x`.

### 2026-12-09.1

- `live/live.dns` and `stack/stack.upstream_400`, `properties/prop-a b` (not one check).

## Project rules

`kind/after-the-section`
)";

TEST(ProfileVersionTest, TheVersionLineStatesTheVersion) {
  EXPECT_THAT(ParseProfileVersion(kProfile), IsOkAndHolds("2026-12-09.2"));
}

TEST(ProfileVersionTest, AMissingOrMalformedVersionIsAnError) {
  for (const char* text : {"# A profile\n\nno version here\n",
                           "Profile version **2026-12-9.1**.\n", "Profile version **2026-12-09**\n",
                           "Profile version **2026-12-09.01**\n", "Profile version **2026-12-09.1\n",
                           "Profile version **v1.2.3**\n"}) {
    EXPECT_THAT(ParseProfileVersion(text), ProgramErrorIs(kProfileVersionUnreadable)) << text;
  }
  EXPECT_THAT(LoadProfileVersion("/proc/nonexistent/profile.md"),
              ProgramErrorIs(kProfileVersionUnreadable));
}

TEST(ProfileVersionTest, OnlyDatedNumberedVersionsAreWellFormed) {
  EXPECT_TRUE(WellFormedProfileVersion("2026-12-05.1"));
  EXPECT_TRUE(WellFormedProfileVersion("2027-01-31.12"));
  EXPECT_FALSE(WellFormedProfileVersion("2026-12-05.0"));
  EXPECT_FALSE(WellFormedProfileVersion("2026-12-05."));
  EXPECT_FALSE(WellFormedProfileVersion("2026-12-05.1a"));
  EXPECT_FALSE(WellFormedProfileVersion("2026/12/05.1"));
  EXPECT_FALSE(WellFormedProfileVersion(""));
}

// Each version's list holds the checks its entries name, and nothing from outside the section.
TEST(ProfileVersionTest, ChangeListsNameTheChecksOfTheirEntries) {
  const std::vector<ProfileChangeList> lists = ParseProfileChanges(kProfile);
  ASSERT_EQ(lists.size(), 2u);
  EXPECT_EQ(lists[0].version, "2026-12-09.2");
  EXPECT_THAT(lists[0].named_checks, ElementsAre("backend/egress.x", "kind/new-case"));
  EXPECT_EQ(lists[1].version, "2026-12-09.1");
  EXPECT_THAT(lists[1].named_checks, ElementsAre("live/live.dns", "stack/stack.upstream_400"));
  EXPECT_THAT(ParseProfileChanges("# no changes\n"), IsEmpty());
}

// The real profile: its version line is the newest change list's, and the lists run newest
// first, one heading per version, each well formed (docs/development.md, "Changing a REQUIRED
// check").
TEST(ProfileVersionTest, TheProfileStatesTheVersionOfItsNewestChangeList) {
  const StatusOr<std::string> text = base::ReadFile(judge::kProfilePath);
  ASSERT_THAT(text.status(), IsOk());
  const StatusOr<std::string> version = ParseProfileVersion(*text);
  ASSERT_THAT(version.status(), IsOk());
  const std::vector<ProfileChangeList> lists = ParseProfileChanges(*text);
  ASSERT_FALSE(lists.empty()) << judge::kProfilePath << " has no '## Changes' section with a "
                              << "'### VERSION' heading";
  EXPECT_EQ(lists[0].version, *version)
      << "the version line of " << judge::kProfilePath << " must name the newest change list "
      << "(the first '### VERSION' under '## Changes'): open a list for a new version with the "
      << "line, or change the line with the list";
  // A version as (date, number): the dates are zero-padded, so their text order is time order.
  const auto key = [](const std::string& v) {
    return std::make_pair(v.substr(0, 10), std::stoull(v.substr(11)));
  };
  for (size_t i = 0; i < lists.size(); ++i) {
    ASSERT_TRUE(WellFormedProfileVersion(lists[i].version))
        << "'### " << lists[i].version << "' is not YYYY-MM-DD.N";
    if (i == 0) continue;
    EXPECT_GT(key(lists[i - 1].version), key(lists[i].version))
        << "the change lists must run newest first, one heading per version: '### "
        << lists[i - 1].version << "' comes before '### " << lists[i].version << "'";
  }
}

}  // namespace
}  // namespace azure_pricing::conformance
