// Who the gate judges, started before any suite runs: the reference in process, nothing (a run
// of suites that judge no implementation), or a testee that must first answer hello and a
// trivial call. A testee that fails that smoke check is a broken adapter, not a non-conformant
// implementation: the run records a gate failure and runs no case against it.
#ifndef CONFORMANCE_GATE_IMPLEMENTATION_H_
#define CONFORMANCE_GATE_IMPLEMENTATION_H_

#include <memory>

#include "conformance/gate/run.h"
#include "conformance/testee/runner.h"

namespace azure_pricing::conformance {

// Prints who is judged and sets run.implementation; the testee when one answered, else null.
std::unique_ptr<testee::TesteeProcess> StartImplementation(GateRun& run);

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_GATE_IMPLEMENTATION_H_
