// The router refuses at attach instead of degrading; every refusal happens before a sandbox is
// acquired. Requirement ids: see conformance/requirements.json.
#include "ref/sandbox/router.h"

#include <functional>
#include <string>
#include <vector>

#include "conformance/citations/cites.h"
#include "fakes/sandbox/fake_backend.h"
#include "gtest/gtest.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::sandbox {
CITES("INTRO-007", "HOST-006", "HOST-007", "HOST-009", "HOST-010", "HOST-011");
namespace {

using fakes::sandbox::FakeBackend;
using fakes::sandbox::PricingCapableDeclaration;

// The spec azure_pricing_get asks for, written out here rather than taken from the tool so the
// table reads on its own.
Spec GetOnlySpec() {
  Spec spec;
  spec.os_family = OsFamily::kPosix;
  spec.min_isolation = Isolation::kContainer;
  spec.required = {Capability::kExec};
  spec.egress = Egress::kAllowlist;
  spec.egress_allow = {{"prices.azure.com", std::set<std::string>{"GET"}}};
  spec.isolation_scope = IsolationScope::kCall;
  spec.cleanup = Cleanup::kDispose;
  return spec;
}

RouterOptions ContainerFloor() {
  RouterOptions options;
  options.min_isolation = Isolation::kContainer;
  return options;
}

TEST(RequiredCapabilitiesTest, MethodLimitedRuleDerivesEgressMethods) {
  // HOST-009
  Spec spec = GetOnlySpec();
  EXPECT_EQ(RequiredCapabilities(spec),
            (std::set<Capability>{Capability::kExec, Capability::kEgressMethods}));
  spec.egress_allow = {{"prices.azure.com", std::nullopt}};
  EXPECT_EQ(RequiredCapabilities(spec), std::set<Capability>{Capability::kExec});
}

TEST(ValidateSpecTest, RefusesSpecsThatDoNotSayWhatTheyMean) {
  Spec spec = GetOnlySpec();
  EXPECT_TRUE(ValidateSpec(spec).ok());
  for (const auto& mutate : std::vector<std::function<void(Spec&)>>{
           [](Spec& s) { s.egress_allow.clear(); },
           [](Spec& s) { s.egress = Egress::kClosed; },
           [](Spec& s) { s.egress_allow[0].host = "Prices.Azure.com"; },
           [](Spec& s) { s.egress_allow[0].host = "prices.azure.com:443"; },
           [](Spec& s) { s.egress_allow[0].host = "prices.azure.com."; },
           [](Spec& s) { s.egress_allow[0].methods = std::set<std::string>{}; },
           [](Spec& s) { s.egress_allow[0].methods = std::set<std::string>{"GET POST"}; },
       }) {
    Spec bad = GetOnlySpec();
    mutate(bad);
    EXPECT_THAT(ValidateSpec(bad), StatusIs(Outcome::kRefused, kInvalidSpec));
  }
}

struct RefusalCase {
  const char* name;
  std::function<void(BackendDeclaration&, RouterOptions&)> mutate;
  Reason reason;
};

TEST(RouterTest, RefusalTable) {
  // HOST-010, HOST-011 (the router half; the tool adds BoundedExec), HOST-006
  const std::vector<RefusalCase> cases = {
      {"router disabled", [](BackendDeclaration&, RouterOptions& o) { o.enabled = false; },
       kRouterDisabled},
      {"selected backend absent",
       [](BackendDeclaration&, RouterOptions& o) { o.selected = "other"; }, kNoBackend},
      {"windows only",
       [](BackendDeclaration& d, RouterOptions&) { d.os_families = {OsFamily::kWindows}; },
       kOsFamilyUnsupported},
      {"process isolation below the host floor",
       [](BackendDeclaration& d, RouterOptions&) { d.isolation = Isolation::kProcess; },
       kBackendNotPermitted},
      {"container below the default microvm floor",
       [](BackendDeclaration&, RouterOptions& o) { o.min_isolation = Isolation::kMicrovm; },
       kBackendNotPermitted},
      {"process isolation below the spec floor even with a lowered host floor",
       [](BackendDeclaration& d, RouterOptions& o) {
         d.isolation = Isolation::kProcess;
         o.min_isolation = Isolation::kNone;
       },
       kIsolationBelowSpec},
      {"no EXEC",
       [](BackendDeclaration& d, RouterOptions&) { d.capabilities.erase(Capability::kExec); },
       kCapabilityNotSupported},
      {"no EGRESS_METHODS",
       [](BackendDeclaration& d, RouterOptions&) {
         d.capabilities.erase(Capability::kEgressMethods);
       },
       kEgressMethodsNotSupported},
      {"host denies EXEC",
       [](BackendDeclaration&, RouterOptions& o) { o.denied_capabilities = {Capability::kExec}; },
       kCapabilityDenied},
      {"allowlist not enforced",
       [](BackendDeclaration& d, RouterOptions&) {
         d.egress_modes = {Egress::kClosed, Egress::kUnrestricted};
       },
       kEgressNotEnforced},
      {"method tokens without GET",
       [](BackendDeclaration& d, RouterOptions&) {
         d.egress_method_tokens = std::set<std::string>{"HEAD", "POST"};
       },
       kEgressMethodNotCovered},
      {"method tokens empty",
       [](BackendDeclaration& d, RouterOptions&) {
         d.egress_method_tokens = std::set<std::string>{};
       },
       kEgressMethodNotCovered},
      {"method tokens in the wrong case",
       [](BackendDeclaration& d, RouterOptions&) {
         d.egress_method_tokens = std::set<std::string>{"get"};
       },
       kEgressMethodNotCovered},
  };
  for (const RefusalCase& c : cases) {
    SCOPED_TRACE(c.name);
    BackendDeclaration d = PricingCapableDeclaration();
    RouterOptions o = ContainerFloor();
    c.mutate(d, o);
    FakeBackend backend(d);
    Router router({&backend}, o);
    EXPECT_THAT(router.EnsureCanServe(GetOnlySpec()), StatusIs(Outcome::kRefused, c.reason));
    EXPECT_THAT(router.Acquire(GetOnlySpec(), {"agent", "session", "call-1"}),
                StatusIs(Outcome::kRefused, c.reason));
    EXPECT_EQ(backend.acquisitions(), 0);
  }
}

TEST(RouterTest, MinimalDeclarationIsAccepted) {
  // HOST-006, HOST-007, HOST-009
  FakeBackend backend(PricingCapableDeclaration());
  Router router({&backend}, ContainerFloor());
  EXPECT_TRUE(router.EnsureCanServe(GetOnlySpec()).ok());
  // Every method token (unset) covers GET as well.
  backend.mutable_declaration().egress_method_tokens.reset();
  EXPECT_TRUE(router.EnsureCanServe(GetOnlySpec()).ok());
  // Stronger isolation is fine.
  backend.mutable_declaration().isolation = Isolation::kMicrovm;
  EXPECT_TRUE(router.EnsureCanServe(GetOnlySpec()).ok());
}

TEST(RouterTest, SelectsTheNamedBackend) {
  BackendDeclaration weak = PricingCapableDeclaration();
  weak.name = "weak";
  weak.capabilities = {Capability::kExec};
  FakeBackend first(weak);
  FakeBackend second(PricingCapableDeclaration());
  RouterOptions options = ContainerFloor();
  Router first_router({&first, &second}, options);
  // No search across backends: the first one is the one, and it is refused.
  EXPECT_THAT(first_router.EnsureCanServe(GetOnlySpec()),
              StatusIs(Outcome::kRefused, kEgressMethodsNotSupported));
  options.selected = "fake";
  Router named({&first, &second}, options);
  EXPECT_TRUE(named.EnsureCanServe(GetOnlySpec()).ok());
}

TEST(LeaseTest, DisposesOnceExplicitlyOrOnDestruction) {
  // INTRO-007
  FakeBackend backend(PricingCapableDeclaration());
  Router router({&backend}, ContainerFloor());
  {
    StatusOr<Lease> lease = router.Acquire(GetOnlySpec(), {"agent", "session", "call-1"});
    ASSERT_TRUE(lease.ok());
    EXPECT_EQ(backend.live(), 1);
    EXPECT_TRUE(lease->Dispose().ok());
    EXPECT_TRUE(lease->Dispose().ok());  // a second dispose is a no-op
    EXPECT_EQ(backend.disposals(), 1);
  }
  {
    StatusOr<Lease> lease = router.Acquire(GetOnlySpec(), {"agent", "session", "call-2"});
    ASSERT_TRUE(lease.ok());
    // Dropped on an error path without an explicit dispose.
  }
  EXPECT_EQ(backend.acquisitions(), 2);
  EXPECT_EQ(backend.disposals(), 2);
  EXPECT_EQ(backend.live(), 0);
}

TEST(LeaseTest, AcquireFailureIsAFailureNotARefusal) {
  FakeBackend backend(PricingCapableDeclaration());
  backend.Script({.fail_acquire = true});
  Router router({&backend}, ContainerFloor());
  EXPECT_THAT(router.Acquire(GetOnlySpec(), {"agent", "session", "call-1"}),
              StatusIs(Outcome::kFailed, kAcquireFailed));
  EXPECT_EQ(backend.live(), 0);
}

}  // namespace
}  // namespace azure_pricing::sandbox
