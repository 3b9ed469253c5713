#include "conformance/line_protocol/core.h"

namespace azure_pricing::conformance::line_protocol {
namespace {

constexpr KnownReason kCommon[] = {
    {kMalformedMessage,
     "The line is not a protocol message: not JSON, not an object, or a member missing, unknown, "
     "repeated or of the wrong type."},
    {kMessageTooLong, "The line is longer than the protocol allows (16 MiB)."},
    {kUnknownOp, "The message names an op this protocol version does not have."},
    {kOutOfOrder, "The message's seq is not greater than the previous message's."},
    {kNotStarted, "The first message must be hello."},
    {kAlreadyStarted, "hello was already answered."},
    {kProtocolMismatch, "The peer speaks another version of this protocol."},
    {kUnknownSandbox, "No live sandbox has this id."},
    {kBoundedExecUnavailable,
     "The sandbox does not offer bounded exec, the only exec this protocol carries."},
};

}  // namespace

std::span<const KnownReason> CommonReasons() { return kCommon; }

Status StatusForReason(Outcome outcome, std::string_view reason, std::span<const KnownReason> own,
                       const KnownReason& unknown) {
  const Outcome error = outcome == Outcome::kCompleted ? Outcome::kFailed : outcome;
  for (std::span<const KnownReason> table : {CommonReasons(), own}) {
    for (const KnownReason& known : table) {
      if (reason == known.reason) return Status(error, known.reason, known.message);
    }
  }
  return Status(error, unknown.reason, unknown.message);
}

Status Refusal(Reason common) {
  return StatusForReason(Outcome::kRefused, common.code(), {},
                         {kMalformedMessage, "Not a reason of the protocols' core."});
}

}  // namespace azure_pricing::conformance::line_protocol
