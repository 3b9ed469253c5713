// The gate's suites, one file each, and the one list of them: a new suite is its file, its
// declaration here and its place in kAll, and a line in conformance/gate/suite_tests.bzl for its
// Bazel test (//conformance/gate:suite_list_test fails until that line is there).
#ifndef CONFORMANCE_GATE_SUITES_SUITES_H_
#define CONFORMANCE_GATE_SUITES_SUITES_H_

#include "conformance/gate/suite_registry.h"

namespace azure_pricing::conformance::suites {

extern const Suite kKind;        // kind.cc
extern const Suite kCatalog;     // catalog.cc
extern const Suite kProperties;  // properties.cc
extern const Suite kBackend;     // backend.cc
extern const Suite kStack;       // stack.cc
extern const Suite kLive;        // live.cc

// The order the gate runs and reports them: the implementation's cases, the harness's catalog
// (which reads the cases), the generated calls, then the sandbox backend, the stack and the
// live check's dry run.
inline constexpr const Suite* kAll[] = {&kKind,    &kCatalog, &kProperties,
                                        &kBackend, &kStack,   &kLive};

// A case that states the reference's exact wording gets a second record, its id with this
// suffix, judged apart at RECOMMENDED level as PROFILE-003 alone: a wording miss says nothing of
// the MUSTs the case's own record judges. The catalog counts that citation too.
inline constexpr char kWordingSuffix[] = "/wording";
inline constexpr char kWordingRequirement[] = "PROFILE-003";

}  // namespace azure_pricing::conformance::suites

#endif  // CONFORMANCE_GATE_SUITES_SUITES_H_
