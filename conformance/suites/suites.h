// The gate's suites, one file each; registry.cc lists them in the order the gate runs them.
#ifndef CONFORMANCE_SUITES_SUITES_H_
#define CONFORMANCE_SUITES_SUITES_H_

#include "conformance/suite_registry.h"

namespace azure_pricing::conformance::suites {

// A case that states the reference's exact wording gets a second record, its id with this
// suffix, judged apart at RECOMMENDED level as PROFILE-003 alone: a wording miss says nothing of
// the MUSTs the case's own record judges. The catalog counts that citation too.
inline constexpr char kWordingSuffix[] = "/wording";
inline constexpr char kWordingRequirement[] = "PROFILE-003";

extern const Suite kKind;        // kind.cc
extern const Suite kCatalog;     // catalog.cc
extern const Suite kProperties;  // properties.cc
extern const Suite kBackend;     // backend.cc
extern const Suite kStack;       // stack.cc
extern const Suite kLive;        // live.cc

}  // namespace azure_pricing::conformance::suites

#endif  // CONFORMANCE_SUITES_SUITES_H_
