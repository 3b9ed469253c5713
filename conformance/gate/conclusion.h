// What the gate does after the suites: the records out and the report printed.
#ifndef CONFORMANCE_GATE_CONCLUSION_H_
#define CONFORMANCE_GATE_CONCLUSION_H_

#include "conformance/gate/run.h"

namespace azure_pricing::conformance {

// The run's own checks over what the suites recorded (--validate-protocol's violations, a
// --filter that selected nothing, a --known-failures list that no longer holds), then the
// --json, --junit and --write-known-failures files; one that cannot be written is a failure of
// the run, not a silent loss.
void ConcludeRun(GateRun& run);

// The summary table, coverage, one line per failure, the verdict and the closing tally; the
// gate's exit status (0 only when every REQUIRED check passed with zero skips).
int PrintVerdict(const GateRun& run);

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_GATE_CONCLUSION_H_
