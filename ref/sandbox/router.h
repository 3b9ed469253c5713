// The router attaches a tool's spec to one backend, and refuses rather than degrades: a backend
// below the isolation floor, missing a required capability, unable to enforce the egress mode or
// the methods of an egress rule, or serving another OS family is refused before any sandbox
// exists, each with its own reason. Acquire repeats the checks, so a declaration that changed
// after attach cannot slip through.
//
//   sandbox::Router router({&backend}, {.min_isolation = sandbox::Isolation::kContainer});
//   RETURN_IF_ERROR(router.EnsureCanServe(spec));  // at attach (ref/status/status_macros.h)
//   StatusOr<sandbox::Lease> lease = router.Acquire(spec, key);      // per call
//   ... lease->sandbox().bounded_exec()->ExecBounded(request) ...
//   Status disposed = lease->Dispose();                               // always
#ifndef REF_SANDBOX_ROUTER_H_
#define REF_SANDBOX_ROUTER_H_

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ref/sandbox/backend.h"
#include "ref/sandbox/spec.h"

namespace azure_pricing::sandbox {

// Refusal reasons, one per rule.
inline constexpr Reason kRouterDisabled = "sandbox_router_disabled";
inline constexpr Reason kNoBackend = "sandbox_no_backend";
inline constexpr Reason kOsFamilyUnsupported = "sandbox_os_family_unsupported";
inline constexpr Reason kBackendNotPermitted = "sandbox_backend_not_permitted";
inline constexpr Reason kIsolationBelowSpec = "sandbox_isolation_below_spec";
inline constexpr Reason kCapabilityDenied = "sandbox_capability_denied";
inline constexpr Reason kCapabilityNotSupported = "sandbox_capability_not_supported";
inline constexpr Reason kEgressMethodsNotSupported = "sandbox_egress_methods_not_supported";
inline constexpr Reason kEgressNotEnforced = "sandbox_egress_not_enforced";
inline constexpr Reason kEgressMethodNotCovered = "sandbox_egress_method_not_covered";
inline constexpr Reason kAcquireFailed = "sandbox_acquire_failed";
inline constexpr Reason kDisposeFailed = "sandbox_dispose_failed";

struct RouterOptions {
  bool enabled = true;
  // The host's floor; a spec may raise it, never lower it. Defaults to microVM as maf-sandbox
  // does: a container backend is used only where the host lowered the floor on purpose.
  Isolation min_isolation = Isolation::kMicrovm;
  std::optional<std::string> selected;  // a backend name; the first backend when unset
  std::set<Capability> denied_capabilities;
};

// One acquired sandbox. Dispose() tears it down once; a lease dropped without Dispose() disposes
// in its destructor, so no path leaves a sandbox behind.
class Lease {
 public:
  Lease(Backend* backend, std::unique_ptr<Sandbox> sandbox);
  Lease(Lease&& other) noexcept;
  Lease& operator=(Lease&&) = delete;
  Lease(const Lease&) = delete;
  ~Lease();

  Sandbox& sandbox() { return *sandbox_; }
  Status Dispose();
  bool disposed() const { return sandbox_ == nullptr; }

 private:
  Backend* backend_;
  std::unique_ptr<Sandbox> sandbox_;
};

class Router {
 public:
  Router(std::vector<Backend*> backends, RouterOptions options);

  bool enabled() const { return options_.enabled; }
  const RouterOptions& options() const { return options_; }
  // The backend a spec would be attached to, or nullptr.
  const Backend* SelectedBackend() const;

  Status EnsureCanServe(const Spec& spec) const;
  StatusOr<Lease> Acquire(const Spec& spec, const SandboxKey& key);

 private:
  Backend* Select() const;

  std::vector<Backend*> backends_;
  RouterOptions options_;
};

}  // namespace azure_pricing::sandbox

#endif  // REF_SANDBOX_ROUTER_H_
