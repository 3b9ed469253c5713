#include "ref/sandbox/declaration_coverage.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::sandbox {
namespace {

using ::testing::HasSubstr;

// A container backend with EXEC and EGRESS_METHODS, closed and allowlist egress, GET only: the
// bubblewrap backend's declaration.
BackendDeclaration Declared() {
  BackendDeclaration d;
  d.name = "test";
  d.os_families = {OsFamily::kPosix};
  d.isolation = Isolation::kContainer;
  d.capabilities = {Capability::kExec, Capability::kEgressMethods};
  d.egress_modes = {Egress::kClosed, Egress::kAllowlist};
  d.egress_method_tokens = std::set<std::string>{"GET"};
  return d;
}

Spec Pricing() {
  Spec spec;
  spec.required = {Capability::kExec};
  spec.egress = Egress::kAllowlist;
  spec.egress_allow = {{"prices.azure.com", std::set<std::string>{"GET"}}};
  spec.isolation_scope = IsolationScope::kCall;
  return spec;
}

TEST(ServesSpecTest, ServesWhatTheDeclarationCovers) {
  EXPECT_THAT(ServesSpec(Declared(), Pricing()), IsOk());
  EXPECT_THAT(ServesSpec(Declared(), Spec()), IsOk());  // closed, conversation scope
  Spec weaker = Pricing();
  weaker.min_isolation = Isolation::kProcess;
  weaker.cleanup = Cleanup::kReset;
  EXPECT_THAT(ServesSpec(Declared(), weaker), IsOk());
}

TEST(ServesSpecTest, AnInvalidSpecKeepsItsOwnReason) {
  Spec spec = Pricing();
  spec.egress_allow.clear();
  EXPECT_THAT(ServesSpec(Declared(), spec), StatusIs(Outcome::kRefused, kInvalidSpec));
}

// One spec per dimension, each beyond the declaration in that dimension only.
TEST(ServesSpecTest, RefusesEachDimensionBeyondTheDeclaration) {
  Spec windows = Pricing();
  windows.os_family = OsFamily::kWindows;
  Spec vm = Pricing();
  vm.min_isolation = Isolation::kVm;
  Spec snapshot = Pricing();
  snapshot.required.insert(Capability::kSnapshot);
  Spec unrestricted = Pricing();
  unrestricted.egress = Egress::kUnrestricted;
  unrestricted.egress_allow.clear();
  Spec post = Pricing();
  post.egress_allow = {{"prices.azure.com", std::set<std::string>{"GET", "POST"}}};
  Spec reclaim = Pricing();
  reclaim.cleanup = Cleanup::kReclaim;
  const std::vector<std::pair<Spec, std::string>> cases = {
      {windows, "OS family"},        {vm, "isolation"}, {snapshot, "capability"},
      {unrestricted, "egress mode"}, {post, "method"},  {reclaim, "RECLAIM"}};
  for (const auto& [spec, dimension] : cases) {
    EXPECT_THAT(ServesSpec(Declared(), spec),
                StatusIs(Outcome::kRefused, kSpecNotServed, HasSubstr(dimension)))
        << dimension;
  }
}

TEST(ServesSpecTest, AMethodLimitedRuleNeedsEgressMethodsDeclared) {
  BackendDeclaration d = Declared();
  d.capabilities.erase(Capability::kEgressMethods);
  EXPECT_THAT(ServesSpec(d, Pricing()),
              StatusIs(Outcome::kRefused, kSpecNotServed, HasSubstr("capability")));
  Spec any_method = Pricing();
  any_method.egress_allow = {{"prices.azure.com", std::nullopt}};
  EXPECT_THAT(ServesSpec(d, any_method), IsOk());
}

TEST(ServesSpecTest, WithoutDeclaredTokensEveryMethodIsEnforceable) {
  BackendDeclaration d = Declared();
  d.egress_method_tokens.reset();
  Spec post = Pricing();
  post.egress_allow = {{"prices.azure.com", std::set<std::string>{"POST"}}};
  EXPECT_THAT(ServesSpec(d, post), IsOk());
  d.egress_method_tokens = std::set<std::string>{};
  EXPECT_THAT(ServesSpec(d, post), StatusIs(Outcome::kRefused, kSpecNotServed));
}

TEST(ServesSpecTest, ReclaimIsServedWithTheReclaimCapability) {
  BackendDeclaration d = Declared();
  d.capabilities.insert(Capability::kReclaim);
  Spec reclaim = Pricing();
  reclaim.cleanup = Cleanup::kReclaim;
  EXPECT_THAT(ServesSpec(d, reclaim), IsOk());
}

}  // namespace
}  // namespace azure_pricing::sandbox
