// The gate's registry is suites::kAll (suites.h).
#include "conformance/gate/suites/suites.h"

namespace azure_pricing::conformance {

SuiteList GateSuites() { return suites::kAll; }

}  // namespace azure_pricing::conformance
