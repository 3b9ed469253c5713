#include "ref/sandbox/declaration_coverage.h"

#include "ref/status/status_macros.h"

namespace azure_pricing::sandbox {
namespace {

Status NotServed(const char* message) { return Status(Outcome::kRefused, kSpecNotServed, message); }

// Every method of every method-limited rule is one the backend can enforce; a declaration
// without tokens can enforce any.
bool MethodsCovered(const BackendDeclaration& declaration, const Spec& spec) {
  if (!declaration.egress_method_tokens.has_value()) return true;
  for (const EgressRule& rule : spec.egress_allow) {
    if (!rule.methods.has_value()) continue;
    for (const std::string& method : *rule.methods) {
      if (declaration.egress_method_tokens->count(method) == 0) return false;
    }
  }
  return true;
}

}  // namespace

Status ServesSpec(const BackendDeclaration& declaration, const Spec& spec) {
  RETURN_IF_ERROR(ValidateSpec(spec));
  if (declaration.os_families.count(spec.os_family) == 0) {
    return NotServed("The backend does not declare the spec's OS family.");
  }
  if (declaration.isolation < spec.min_isolation) {
    return NotServed("The backend's isolation is below the spec's minimum.");
  }
  for (Capability capability : RequiredCapabilities(spec)) {
    if (declaration.capabilities.count(capability) == 0) {
      return NotServed("The spec requires a capability the backend does not declare.");
    }
  }
  if (declaration.egress_modes.count(spec.egress) == 0) {
    return NotServed("The backend does not declare the spec's egress mode.");
  }
  if (!MethodsCovered(declaration, spec)) {
    return NotServed("An egress rule allows a method the backend cannot enforce.");
  }
  if (spec.cleanup == Cleanup::kReclaim &&
      declaration.capabilities.count(Capability::kReclaim) == 0) {
    return NotServed("Reclaim cleanup needs the RECLAIM capability, which the backend lacks.");
  }
  return OkStatus();
}

}  // namespace azure_pricing::sandbox
