// Every selected suite, each timed, reported in the registry's order. The suites that start
// their own stack run in child processes (forked_suite.h), started first, while the gate runs the
// others; their output follows in order. The implementation's calls go to the testee when there
// is one (started, and smoke-checked, before the header was printed); a testee that did not
// start skips the suites that would judge it, its failure already recorded.
#ifndef CONFORMANCE_GATE_RUN_SUITES_H_
#define CONFORMANCE_GATE_RUN_SUITES_H_

#include "conformance/gate/run.h"
#include "conformance/testee/runner.h"

namespace azure_pricing::conformance {

void RunSuites(GateRun& run, testee::TesteeProcess* testee);

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_GATE_RUN_SUITES_H_
