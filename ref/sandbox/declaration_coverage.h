// Whether a backend's declaration covers a spec: what a backend's Acquire checks first, so that
// it never serves a spec beyond what it declared (a router checks the same declaration before
// attaching, but a backend reached without one, over the backend protocol for instance, must
// refuse on its own).
//
//   RETURN_IF_ERROR(sandbox::ServesSpec(declaration(), spec));
#ifndef REF_SANDBOX_DECLARATION_COVERAGE_H_
#define REF_SANDBOX_DECLARATION_COVERAGE_H_

#include "ref/sandbox/backend.h"
#include "ref/sandbox/spec.h"

namespace azure_pricing::sandbox {

// A valid spec the declaration does not cover (Outcome::kRefused). The message says which
// dimension, in fixed text: the OS family, the isolation, a capability, the egress mode, a rule's
// methods, or reclaim cleanup without RECLAIM.
inline constexpr Reason kSpecNotServed = "spec_not_served";

// ValidateSpec first (kInvalidSpec), then each dimension in that order; OK when all are covered.
Status ServesSpec(const BackendDeclaration& declaration, const Spec& spec);

}  // namespace azure_pricing::sandbox

#endif  // REF_SANDBOX_DECLARATION_COVERAGE_H_
