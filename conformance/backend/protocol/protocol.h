// The versioned backend protocol: a sandbox backend written in any language serves it as JSON
// lines on its stdin/stdout, and the conformance suite drives it as a sandbox::Backend (client.h).
// This header holds the protocol's names (version, ops, reasons) and plain structs for every
// message; protocol.cc turns them into lines and back. PROTOCOL.md is the implementer's guide.
//
//   Request r{.seq = 1, .body = HelloRequest{}};
//   std::string line = EncodeRequest(r);  // {"seq":1,"op":"hello","protocol":"..."}\n
//   StatusOr<Response> answer = DecodeResponse(reply_line, Op::kHello);
#ifndef CONFORMANCE_BACKEND_PROTOCOL_PROTOCOL_H_
#define CONFORMANCE_BACKEND_PROTOCOL_PROTOCOL_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "conformance/line_protocol/core.h"
#include "ref/sandbox/backend.h"
#include "ref/sandbox/spec.h"
#include "ref/status/status.h"

namespace azure_pricing::conformance::backend::protocol {

// Changes with every incompatible change; both sides refuse a version they do not speak.
inline constexpr char kProtocolVersion[] = "azure-pricing-backend/1";

// The line limit and the common reasons are the protocols' core (conformance/line_protocol).
using line_protocol::kMaxLineBytes;

// Op names.
inline constexpr char kOpHello[] = "hello";
inline constexpr char kOpAcquire[] = "acquire";
inline constexpr char kOpExecBounded[] = "exec_bounded";
inline constexpr char kOpDispose[] = "dispose";
inline constexpr char kOpStop[] = "stop";

// Outcome names in an error answer (a backend never reports "blocked": that is the host's).
inline constexpr char kOutcomeRefused[] = "refused";
inline constexpr char kOutcomeFailed[] = "failed";

// Reasons a server answers with when a line is not a request it can serve (Outcome::kRefused),
// and the sandbox table's: the core's, named here for this protocol's users.
using line_protocol::kAlreadyStarted;
using line_protocol::kBoundedExecUnavailable;
using line_protocol::kMalformedMessage;
using line_protocol::kMessageTooLong;
using line_protocol::kNotStarted;
using line_protocol::kOutOfOrder;
using line_protocol::kProtocolMismatch;
using line_protocol::kUnknownOp;
using line_protocol::kUnknownSandbox;

// The served backend threw instead of returning a Status (Outcome::kFailed).
inline constexpr Reason kBackendException = "backend_exception";

// Reasons the client (AdapterBackend) ends a call with. The adapter is killed and reaped for
// the first three; later calls then fail with kAdapterExited.
inline constexpr Reason kAdapterTimeout = "adapter_timeout";
inline constexpr Reason kAdapterExited = "adapter_exited";
inline constexpr Reason kAdapterProtocolError = "adapter_protocol_error";
inline constexpr Reason kAdapterSpawnFailed = "adapter_spawn_failed";
inline constexpr Reason kAdapterFilesUnsupported = "adapter_files_unsupported";
// An error answer whose reason this suite does not know: the outcome is kept, the reason and
// message (received data) are not.
inline constexpr Reason kBackendError = "backend_error";

struct BackendIdentity {
  std::string name;
  std::string version;
};

enum class Op { kHello, kAcquire, kExecBounded, kDispose, kStop };

std::string_view OpName(Op op);

struct HelloRequest {
  std::string protocol = kProtocolVersion;
};

struct AcquireRequest {
  sandbox::Spec spec;
  sandbox::SandboxKey key;
  std::optional<sandbox::EgressUpstream> egress_upstream;
};

struct ExecBoundedRequest {
  std::string sandbox;
  sandbox::ExecRequest exec;
};

struct DisposeRequest {
  std::string sandbox;
};

struct StopRequest {};

// The alternatives are in Op's order.
using RequestBody =
    std::variant<HelloRequest, AcquireRequest, ExecBoundedRequest, DisposeRequest, StopRequest>;

struct Request {
  int64_t seq = 0;
  RequestBody body;
};

Op OpOf(const RequestBody& body);

struct HelloResponse {
  std::string protocol = kProtocolVersion;
  BackendIdentity backend;
  // `name` is not on the wire: it is the backend identity's name.
  sandbox::BackendDeclaration declaration;
};

struct AcquireResponse {
  std::string sandbox;  // opaque to the suite
};

// monostate: an answer without fields (dispose, stop) or an error answer.
using ResponseBody =
    std::variant<std::monostate, HelloResponse, AcquireResponse, sandbox::ExecResult>;

struct Response {
  std::optional<int64_t> seq;  // nullopt: the request's seq could not be read (JSON null)
  Status error;                // OK for an "ok":true answer
  ResponseBody body;           // meaningful only when error is OK
};

// One line each, '\n'-terminated. Text that is not UTF-8 (names from a backend) is written with
// U+FFFD in place of the bad bytes; output bytes travel as base64 and are never altered.
std::string EncodeRequest(const Request& request);
std::string EncodeResponse(const Response& response);

// `line` without its '\n'. On failure `seq` (when given) holds the request's seq if it could be
// read, so the answer can name it. Failures: kMalformedMessage, kUnknownOp (Outcome::kRefused).
StatusOr<Request> DecodeRequest(std::string_view line, std::optional<int64_t>* seq);

// `answered` says which fields an "ok":true answer has. Failures are kAdapterProtocolError, and
// kProtocolMismatch for a hello answer naming another version.
StatusOr<Response> DecodeResponse(std::string_view line, Op answered);

// The Status an error answer with this outcome and reason stands for: a reason this suite knows
// (the core's, this protocol's, backend.h's and spec.h's) keeps its constant and gets its fixed
// message; any other becomes kBackendError. Servers use it for their own answers, clients for received ones.
Status StatusForReason(Outcome outcome, std::string_view reason);

}  // namespace azure_pricing::conformance::backend::protocol

#endif  // CONFORMANCE_BACKEND_PROTOCOL_PROTOCOL_H_
