// Serves a sandbox::Backend over the backend protocol: one JSON request per line on `in_fd`, one
// answer per request on `out_fd` (PROTOCOL.md). A C++ backend becomes an adapter program with a
// main() that builds the backend and calls ServeBackend(backend, identity, 0, 1).
//
// Every line gets an answer, in order: a line that is not a request (not JSON, too long, an
// unknown op, a seq out of order) gets an error answer and the loop goes on. Sandboxes the client
// left live are disposed when the loop ends.
#ifndef CONFORMANCE_BACKEND_PROTOCOL_SERVER_H_
#define CONFORMANCE_BACKEND_PROTOCOL_SERVER_H_

#include "conformance/backend/protocol/protocol.h"
#include "ref/sandbox/backend.h"

namespace azure_pricing::conformance::backend::protocol {

struct ServeOptions {
  // Wrong on purpose, for the conformance suite's lax_protocol mutant only: unknown members are
  // dropped instead of refused, and seq order is not checked (a request whose seq is out of
  // order or replayed is served, a replayed stop included).
  bool lax = false;
  // Wrong on purpose, for the loose_error_answers mutant only: error answers lack "ok", so they
  // say what went wrong without saying that anything did.
  bool loose_error_answers = false;
  // Wrong on purpose, one each for the mutants of the same names: the framing's edge lines read
  // as a lenient JSON library reads them.
  bool repeated_member_last_wins = false;  // a repeated member is its last value
  bool integers_saturate = false;  // an integer outside signed 64 bits is clamped to the bound
  bool no_line_limit = false;      // lines of any length (up to 64 MiB) are read and served
  bool lone_surrogates_accepted = false;  // a surrogate escape reads as U+FFFD
};

// Returns 0 after answering stop, 1 when `in_fd` ended (EOF or a read error) without one, or when
// `out_fd` broke. The caller should ignore SIGPIPE process-wide if another thread may write to a
// closed pipe; this function's own writes never raise it.
int ServeBackend(sandbox::Backend& backend, const BackendIdentity& identity, int in_fd, int out_fd,
                 const ServeOptions& options = {});

}  // namespace azure_pricing::conformance::backend::protocol

#endif  // CONFORMANCE_BACKEND_PROTOCOL_SERVER_H_
