// The gate's command line, read into a GateOptions value before anything runs: every flag, its
// value's form, and every path the run will read, write or execute. A command line that does not
// read is a usage error, with the line that says why.
#ifndef CONFORMANCE_GATE_OPTIONS_H_
#define CONFORMANCE_GATE_OPTIONS_H_

#include <string>

#include "conformance/gate/run.h"
#include "conformance/gate/suite_registry.h"
#include "ref/status/status.h"

namespace azure_pricing::conformance {

// A program error (ProgramError()): the command line does not read; `problem` says why.
inline constexpr Reason kGateUsage = "gate_usage";

// The usage text: the flags, and the suites of `registry` (the gate's is GateSuites()).
std::string GateUsage(const SuiteList& registry);

// GateOptions selecting from `registry`, or kGateUsage with `problem` set to one line for a
// person (it names the flag).
StatusOr<GateOptions> ParseGateOptions(int argc, const char* const* argv,
                                       const SuiteList& registry, std::string* problem);

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_GATE_OPTIONS_H_
