// The one list of the gate's suites. A suite added here also needs its line in
// conformance/gate_suites.bzl (its Bazel test; //conformance:gate_suites_registry_test says so).
#include "conformance/suites/suites.h"

namespace azure_pricing::conformance {

SuiteList GateSuites() {
  // The order the gate runs and reports them: the implementation first, the harness's catalog
  // after the cases it reads, then the sandbox, the stack and the live check's dry run.
  static const Suite* const kSuites[] = {&suites::kKind,    &suites::kCatalog, &suites::kProperties,
                                         &suites::kBackend, &suites::kStack,   &suites::kLive};
  return kSuites;
}

}  // namespace azure_pricing::conformance
