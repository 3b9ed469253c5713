// The bubblewrap backend as an adapter program speaking the backend protocol on stdin/stdout:
// what `--backend-adapter` runs to check the real backend out of process, and the shape every
// C++ adapter takes. The mutants' adapter reuses it with one weakening applied.
#ifndef CONFORMANCE_BACKEND_BWRAP_ADAPTER_H_
#define CONFORMANCE_BACKEND_BWRAP_ADAPTER_H_

#include <functional>
#include <string>
#include <vector>

#include "conformance/backend/protocol/server.h"
#include "ref/base/flags.h"
#include "ref/sandbox/bwrap/bwrap_backend.h"

namespace azure_pricing::conformance::backend {

// Called with the parsed flags once the backend exists; it may also change how the protocol is
// served (the mutants' lax mode). A failure ends the adapter (exit 1).
using BackendHook = std::function<Status(sandbox::bwrap::BwrapBackend&, const base::Flags&,
                                         conformance::backend::protocol::ServeOptions&)>;

// Parses `--image DIR [--bwrap PATH] [--egress-log]` plus `extra_flags`, creates the backend,
// runs `hook`, then serves the protocol until stop or EOF. Returns the exit status.
int RunBwrapAdapter(int argc, char** argv, const std::string& program,
                    const std::vector<base::FlagSpec>& extra_flags, const std::string& extra_usage,
                    const BackendHook& hook);

}  // namespace azure_pricing::conformance::backend

#endif  // CONFORMANCE_BACKEND_BWRAP_ADAPTER_H_
