#include "ref/sandbox/router.h"

#include <utility>

#include "ref/status/status_macros.h"

namespace azure_pricing::sandbox {
namespace {

Status Refuse(Reason reason, std::string message) {
  return Status(Outcome::kRefused, reason, std::move(message));
}

}  // namespace

Lease::Lease(Backend* backend, std::unique_ptr<Sandbox> sandbox)
    : backend_(backend), sandbox_(std::move(sandbox)) {}

Lease::Lease(Lease&& other) noexcept
    : backend_(other.backend_), sandbox_(std::move(other.sandbox_)) {}

Lease::~Lease() {
  if (sandbox_ != nullptr) (void)Dispose();
}

Status Lease::Dispose() {
  if (sandbox_ == nullptr) return azure_pricing::OkStatus();
  Status s = backend_->Dispose(std::move(sandbox_));
  sandbox_ = nullptr;
  return s;
}

Router::Router(std::vector<Backend*> backends, RouterOptions options)
    : backends_(std::move(backends)), options_(std::move(options)) {}

Backend* Router::Select() const {
  for (Backend* b : backends_) {
    if (b == nullptr) continue;
    if (!options_.selected.has_value() || b->declaration().name == *options_.selected) return b;
  }
  return nullptr;
}

const Backend* Router::SelectedBackend() const { return Select(); }

namespace {

Status CheckCapabilities(const Spec& spec, const BackendDeclaration& d,
                         const RouterOptions& options) {
  for (Capability c : RequiredCapabilities(spec)) {
    if (options.denied_capabilities.count(c) != 0) {
      return Refuse(kCapabilityDenied, "The host denies the " + std::string(Name(c)) +
                                           " capability this tool requires.");
    }
    if (d.capabilities.count(c) == 0) {
      if (c == Capability::kEgressMethods) {
        return Refuse(kEgressMethodsNotSupported,
                      "The sandbox backend cannot limit egress by HTTP method "
                      "(EGRESS_METHODS), which the tool's GET-only egress requires.");
      }
      return Refuse(kCapabilityNotSupported, "The sandbox backend does not declare the " +
                                                 std::string(Name(c)) +
                                                 " capability this tool requires.");
    }
  }
  return OkStatus();
}

Status CheckEgress(const Spec& spec, const BackendDeclaration& d) {
  if (d.egress_modes.count(spec.egress) == 0) {
    return Refuse(kEgressNotEnforced, "The sandbox backend cannot enforce the " +
                                          std::string(Name(spec.egress)) +
                                          " egress mode this tool requires.");
  }
  for (const EgressRule& rule : spec.egress_allow) {
    if (!rule.methods.has_value() || !d.egress_method_tokens.has_value()) continue;
    for (const std::string& m : *rule.methods) {
      if (d.egress_method_tokens->count(m) == 0) {
        // The method is one of the spec's fixed tokens, so naming it echoes nothing of a caller.
        return Refuse(kEgressMethodNotCovered, "The sandbox backend cannot enforce the " + m +
                                                   " method limit of the tool's egress rule.");
      }
    }
  }
  return OkStatus();
}

}  // namespace

Status Router::EnsureCanServe(const Spec& spec) const {
  if (!options_.enabled) {
    return Refuse(kRouterDisabled, "The sandbox router is disabled.");
  }
  RETURN_IF_ERROR(ValidateSpec(spec));
  const Backend* backend = Select();
  if (backend == nullptr) {
    return Refuse(kNoBackend, "The sandbox router has no backend to serve this tool.");
  }
  const BackendDeclaration& d = backend->declaration();
  if (d.os_families.count(spec.os_family) == 0) {
    return Refuse(kOsFamilyUnsupported,
                  "The sandbox backend does not serve the operating-system family the tool "
                  "needs (" +
                      std::string(Name(spec.os_family)) + ").");
  }
  if (d.isolation < options_.min_isolation) {
    return Refuse(kBackendNotPermitted, "The sandbox backend's isolation (" +
                                            std::string(Name(d.isolation)) +
                                            ") is below the host's floor (" +
                                            std::string(Name(options_.min_isolation)) + ").");
  }
  if (d.isolation < spec.min_isolation) {
    return Refuse(kIsolationBelowSpec, "The sandbox backend's isolation (" +
                                           std::string(Name(d.isolation)) +
                                           ") is below what the tool requires (" +
                                           std::string(Name(spec.min_isolation)) + ").");
  }
  RETURN_IF_ERROR(CheckCapabilities(spec, d, options_));
  return CheckEgress(spec, d);
}

StatusOr<Lease> Router::Acquire(const Spec& spec, const SandboxKey& key) {
  RETURN_IF_ERROR(EnsureCanServe(spec));
  Backend* backend = Select();
  StatusOr<std::unique_ptr<Sandbox>> sandbox = backend->Acquire(spec, key);
  if (!sandbox.ok() || *sandbox == nullptr) {
    return Status(Outcome::kFailed, kAcquireFailed,
                  "The sandbox backend could not provide a sandbox for this call.");
  }
  return Lease(backend, std::move(sandbox).value());
}

}  // namespace azure_pricing::sandbox
