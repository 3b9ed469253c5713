// The versioned testee protocol: another implementation of the tool (a "testee", in any language)
// serves it as JSON lines on its stdin/stdout, and the gate judges it with the same cases as the
// reference in process. The gate sends hello, one case per message and stop; while it works on a
// case the testee asks the gate for sandboxes with the backend protocol's own request lines
// (acquire, exec_bounded, dispose: conformance/backend/protocol), which the gate answers from the
// case's scripted backend. PROTOCOL.md is the implementer's guide.
//
//   gate:   {"seq":2,"op":"case","call":{...}}
//   testee: {"seq":1,"op":"acquire","spec":{...},"key":{...}}     a callback, the testee's seq
//   gate:   {"seq":1,"ok":true,"sandbox":"sandbox-1"}
//   testee: {"seq":2,"ok":true,"report":{...}}                     the case's answer
#ifndef CONFORMANCE_TESTEE_PROTOCOL_H_
#define CONFORMANCE_TESTEE_PROTOCOL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "conformance/host/scripted_host.h"
#include "conformance/line_protocol/core.h"
#include "ref/status/status.h"

namespace azure_pricing::conformance::testee {

// Changes with every incompatible change. The gate offers the newest version first and, to a
// testee that answers a hello with protocol_mismatch, the next older one. A testee answers with
// the version it speaks; the gate speaks whichever of its versions the answer names.
inline constexpr char kProtocolVersion[] = "azure-pricing-testee/4";
inline constexpr char kProtocolVersion3[] = "azure-pricing-testee/3";
inline constexpr char kProtocolVersion2[] = "azure-pricing-testee/2";

// The versions this side speaks, oldest first. Version 3 sends a case's configuration as JSON
// objects (`host`, `backend`, `labels`), version 2 as JSON text in strings (`host_json`,
// `backend_json`, `labels_json`). Version 4's report adds how the host's label tracking treated
// the call (`output_variable`, `conversation_label`, `audit_log`), which older reports cannot
// say.
enum class Version { kV2, kV3, kV4 };

std::string_view VersionName(Version version);
std::optional<Version> VersionNamed(std::string_view name);

// The gate's ops. The testee's callbacks are the backend protocol's acquire, exec_bounded and
// dispose requests, unchanged.
inline constexpr char kOpHello[] = "hello";
inline constexpr char kOpCase[] = "case";
inline constexpr char kOpStop[] = "stop";

// Reasons a testee answers with when a line from the gate is not a message it can serve
// (Outcome::kRefused): the protocols' core's (conformance/line_protocol).
using line_protocol::kAlreadyStarted;
using line_protocol::kMalformedMessage;
using line_protocol::kMessageTooLong;
using line_protocol::kNotStarted;
using line_protocol::kOutOfOrder;
using line_protocol::kProtocolMismatch;
using line_protocol::kUnknownOp;

// Reasons a case fails with on the gate's side (Outcome::kFailed). The testee is killed and
// reaped for timeout, exit and protocol error; the next case starts a new one.
inline constexpr Reason kTesteeTimeout = "testee_timeout";
inline constexpr Reason kTesteeExited = "testee_exited";
inline constexpr Reason kTesteeProtocolError = "testee_protocol_error";
inline constexpr Reason kTesteeSpawnFailed = "testee_spawn_failed";
// The testee's callback was not a request the gate could serve; it got an error answer, and
// the case fails once the testee answers it.
inline constexpr Reason kTesteeBadCallback = "testee_bad_callback";
// The testee answered the case with an error whose reason this gate does not know.
inline constexpr Reason kTesteeError = "testee_error";

struct Implementation {
  std::string name;
  std::string version;
};

enum class GateOp { kHello, kCase, kStop };

// One message from the gate. `call` is meaningful for kCase and carries no scripts: the CLI's
// behaviour stays with the gate.
struct GateMessage {
  int64_t seq = 0;
  GateOp op = GateOp::kHello;
  std::string protocol;  // kHello
  conformance::host::ScriptedCall call;
};

// One answer from the testee. `report` holds what the testee knows of the call (outcome,
// reason, trusted messages, output, result label, violations, warnings, tools); the sandbox
// counts and argv are the gate's to fill from its own backend.
struct TesteeAnswer {
  std::optional<int64_t> seq;  // nullopt: the request's seq could not be read
  Status error;                // OK for an "ok":true answer
  Implementation implementation;             // a hello answer
  std::string protocol;                      // a hello answer
  conformance::host::CallReport report;      // a case answer
};

// One line each, '\n'-terminated. A case's call is written as `version` carries it; a
// configuration text that is not JSON goes as a string in version 3 (which a testee refuses as
// invalid_configuration, as it would the text in version 2).
std::string EncodeGateMessage(const GateMessage& message, Version version = Version::kV4);
std::string EncodeHelloAnswer(int64_t seq, const Implementation& implementation,
                              Version version = Version::kV4);
// Version 4 writes the report's label-tracking members; older versions leave them out.
std::string EncodeCaseAnswer(int64_t seq, const conformance::host::CallReport& report,
                             Version version = Version::kV4);
std::string EncodeStopAnswer(int64_t seq);
std::string EncodeErrorAnswer(std::optional<int64_t> seq, const Status& error);

// `line` without its '\n', a case's call read as `version` carries it (the configuration comes
// back as the JSON text ScriptedCall holds). On failure `seq` holds the message's seq when it
// could be read. Failures: kMalformedMessage, kUnknownOp (Outcome::kRefused).
StatusOr<GateMessage> DecodeGateMessage(std::string_view line, std::optional<int64_t>* seq,
                                        Version version = Version::kV4);

// True when a testee's line is a callback request (it has an "op" member) rather than an answer.
bool IsCallback(std::string_view line);

// `answered` says which fields an "ok":true answer has. Failures are kTesteeProtocolError, and
// kProtocolMismatch for a hello answer naming a version this side does not speak. An error answer decodes fine,
// its Status with a fixed message (StatusForReason).
// A case answer's report is read as `version` carries it; one of an older version has
// reports_label_tracking false.
StatusOr<TesteeAnswer> DecodeAnswer(std::string_view line, GateOp answered,
                                    Version version = Version::kV4);

// kTesteeProtocolError with its fixed message and, when `fault` is not empty, " At fault: "
// and `fault`: where the testee's line breaks the protocol (a JSON path such as
// `report.trusted_messages[1]`, or `the line`) and what is wrong there ("missing", "unknown
// member", "member repeated", "wrong type (number), want string"). Never a value the testee
// sent. DecodeAnswer's protocol errors carry one.
Status TesteeProtocolError(std::string_view fault);

// The Status an error with this reason stands for: a reason the core or this protocol knows
// keeps its constant and gets its fixed message, as does invalid_configuration; any other is
// kTesteeError.
Status StatusForReason(Outcome outcome, std::string_view reason);

}  // namespace azure_pricing::conformance::testee

#endif  // CONFORMANCE_TESTEE_PROTOCOL_H_
