// Broken variants of the bubblewrap backend, each wrong in exactly one way the backend suite
// claims to catch. They exist to prove the suite can fail: a probe that passes a mutant meant
// for it is a probe that checks nothing.
#ifndef CONFORMANCE_BACKEND_BROKEN_BACKENDS_BROKEN_BACKENDS_H_
#define CONFORMANCE_BACKEND_BROKEN_BACKENDS_BROKEN_BACKENDS_H_

#include <string>
#include <string_view>
#include <vector>

#include "conformance/backend/protocol/server.h"
#include "ref/sandbox/bwrap/bwrap_backend.h"

namespace azure_pricing::conformance::backend {

// A program error (ProgramError()): no mutant has the name given.
inline constexpr Reason kUnknownMutant = "unknown_mutant";
// A program error: a helper mutant's process did not start, or did not put its stdin on
// /dev/null within 10 s.
inline constexpr Reason kHelperNotStarted = "helper_not_started";

struct MutantInfo {
  std::string name;
  std::string caught_by;  // the probe id meant to reject it
  std::string broken;     // what is wrong, one line
  // When set, the probe's failure line must contain this: the cause, named (a TLS failure
  // that read only as the tool's reason would tell the backend's author nothing).
  std::string names_cause = {};
};

const std::vector<MutantInfo>& Mutants();

// Probes besides its own that a mutant must fail, for weakenings more than one probe is there to
// catch (a proxy that forwards any method sends HEAD as readily as POST). Same fields as
// Mutants(); `caught_by` is the other probe.
const std::vector<MutantInfo>& SecondaryCatches();

// Ways a backend may differ from the reference that the suite accepts (PROTOCOL.md,
// "Decisions"): each, served the same way as a mutant, must PASS the probe named in `caught_by`,
// so a relaxation of the suite is shown to hold for the stacks it was made for.
const std::vector<MutantInfo>& Variations();

// Applies the named weakening to a freshly created backend (before any sandbox); a weakening of
// the protocol itself goes into `serve`, the options the adapter then serves the backend with.
Status ApplyMutant(sandbox::bwrap::BwrapBackend& backend, std::string_view name,
                   conformance::backend::protocol::ServeOptions& serve);

}  // namespace azure_pricing::conformance::backend

#endif  // CONFORMANCE_BACKEND_BROKEN_BACKENDS_BROKEN_BACKENDS_H_
