// What the two line protocols (the backend protocol, conformance/backend/protocol, and the
// testee protocol, conformance/testee) share beyond framing: the line limit, the reasons a peer
// answers a line it cannot serve with, the rule that turns a received reason into a Status, and
// the order of sequence numbers. Each protocol adds its own ops and reasons on top.
//
//   constexpr KnownReason kMine[] = {{kAdapterTimeout, "The adapter did not answer ..."}};
//   Status s = StatusForReason(Outcome::kRefused, received_reason, kMine,
//                              {kBackendError, "The backend reported an error ..."});
#ifndef CONFORMANCE_LINE_PROTOCOL_CORE_H_
#define CONFORMANCE_LINE_PROTOCOL_CORE_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "ref/status/status.h"

namespace azure_pricing::conformance::line_protocol {

// One line is at most this many bytes, not counting its '\n'. Large enough for an exec answer
// carrying 8 MiB of output as base64; small enough that a runaway peer cannot exhaust memory.
inline constexpr size_t kMaxLineBytes = size_t{16} * 1024 * 1024;

// Reasons a server answers a line with when it is not a message it can serve
// (Outcome::kRefused), in either protocol.
inline constexpr Reason kMalformedMessage = "malformed_message";
inline constexpr Reason kMessageTooLong = "message_too_long";
inline constexpr Reason kUnknownOp = "unknown_op";
inline constexpr Reason kOutOfOrder = "out_of_order";
inline constexpr Reason kNotStarted = "not_started";
inline constexpr Reason kAlreadyStarted = "already_started";
inline constexpr Reason kProtocolMismatch = "protocol_mismatch";
// Reasons of the sandbox table (sandbox_table.h): both protocols hand out sandboxes by id, the
// backend protocol's server to its client and the gate to a testee's callbacks.
inline constexpr Reason kUnknownSandbox = "unknown_sandbox";
// The protocols carry bounded execution only; a sandbox without BoundedExec cannot serve it.
inline constexpr Reason kBoundedExecUnavailable = "bounded_exec_unavailable";

// A reason that crosses the wire with its meaning intact, and the fixed text a received error
// with it gets: the peer's own message is received data and never becomes a Status message.
struct KnownReason {
  Reason reason;
  const char* message;
};

// The reasons above with their fixed messages.
std::span<const KnownReason> CommonReasons();

// The Status an error with `reason` stands for, as the protocol's own answer or a received one:
// a reason of CommonReasons() or of `own` keeps its constant and gets its fixed message, with
// `outcome`; any other is `unknown` (a protocol-specific "the peer reported an error this side
// does not know"). A completed outcome is not an error's and becomes kFailed.
Status StatusForReason(Outcome outcome, std::string_view reason, std::span<const KnownReason> own,
                       const KnownReason& unknown);

// The refusal a server answers with for one of the reasons above, with its fixed message.
Status Refusal(Reason common);

// The order of one direction's sequence numbers: each message's seq is greater than the
// previous one's, starting above 0.
class SeqOrder {
 public:
  // True when `seq` comes after every seq accepted so far; it is then the latest.
  bool Accept(int64_t seq) {
    if (seq <= last_) return false;
    last_ = seq;
    return true;
  }

 private:
  int64_t last_ = 0;
};

}  // namespace azure_pricing::conformance::line_protocol

#endif  // CONFORMANCE_LINE_PROTOCOL_CORE_H_
