#include "conformance/backend/protocol/server.h"

#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <utility>

#include "conformance/line_protocol/core.h"
#include "conformance/line_protocol/line_io.h"
#include "conformance/line_protocol/sandbox_table.h"
#include "conformance/line_protocol/wire_json.h"

namespace azure_pricing::conformance::backend::protocol {
namespace {

using line_protocol::Clock;
using line_protocol::Line;
using line_protocol::ParseStrict;
using sandbox::Backend;
using Json = nlohmann::ordered_json;

Status Refused(Reason reason) { return StatusForReason(Outcome::kRefused, reason); }

// Every member a request of `op` can hold, as the strict codec writes a request with all of
// them, so the lax reading below knows no member list of its own.
Json Skeleton(Op op) {
  sandbox::Spec spec;
  spec.egress_allow = {{"prices.azure.com", std::set<std::string>{"GET"}}};
  RequestBody body = StopRequest{};
  if (op == Op::kHello) body = HelloRequest{};
  if (op == Op::kAcquire) body = AcquireRequest{spec, {}, sandbox::EgressUpstream{}};
  if (op == Op::kExecBounded) body = ExecBoundedRequest{};
  if (op == Op::kDispose) body = DisposeRequest{};
  std::string line = EncodeRequest(Request{1, body});
  line.pop_back();  // its '\n'
  return ParseStrict(line).value_or(Json::object());
}

// Drops the members `skeleton` lacks, at every depth (an array's items against its first).
void Prune(Json& value, const Json& skeleton) {
  if (value.is_object() && skeleton.is_object()) {
    for (auto it = value.begin(); it != value.end();) {
      const auto known = skeleton.find(it.key());
      if (known == skeleton.end()) {
        it = value.erase(it);
        continue;
      }
      Prune(it.value(), *known);
      ++it;
    }
  } else if (value.is_array() && skeleton.is_array() && !skeleton.empty()) {
    for (Json& item : value) Prune(item, skeleton.front());
  }
}

// The lax_protocol mutant's reading: a request with members this protocol does not have is
// decoded as if they were not there.
StatusOr<Request> DecodeLax(std::string_view line, std::optional<int64_t>* seq) {
  std::optional<Json> doc = ParseStrict(line);
  if (!doc || !doc->is_object() || !doc->contains("op") || !(*doc)["op"].is_string()) {
    return DecodeRequest(line, seq);
  }
  const std::string name = (*doc)["op"].get<std::string>();
  for (Op op : {Op::kHello, Op::kAcquire, Op::kExecBounded, Op::kDispose, Op::kStop}) {
    if (OpName(op) != name) continue;
    Prune(*doc, Skeleton(op));
    std::string pruned = Line(*doc);
    pruned.pop_back();  // its '\n'
    return DecodeRequest(pruned, seq);
  }
  return DecodeRequest(line, seq);
}

// The loose_error_answers mutant's answer line: the same, without its "ok" member.
std::string WithoutOk(const std::string& line) {
  std::optional<Json> doc = ParseStrict(std::string_view(line).substr(0, line.size() - 1));
  if (!doc || !doc->is_object()) return line;
  doc->erase("ok");
  return Line(*doc);
}

// An integer outside signed 64 bits clamped to the nearer bound, at any depth (the
// integers_saturate mutant's reading).
void Saturate(Json& value) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  if (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(kMax)) {
    value = kMax;
  } else if (value.is_number_float() && std::trunc(value.get<double>()) == value.get<double>() &&
             std::fabs(value.get<double>()) >= 9.2e18) {
    value = value.get<double>() > 0 ? kMax : kMin;
  } else if (value.is_structured()) {
    for (Json& item : value) Saturate(item);
  }
}

// The line as the edge-line mutants read it; `line` itself when none is set or it does not parse.
std::string Lenient(std::string_view line, const ServeOptions& options) {
  std::string text(line);
  if (options.lone_surrogates_accepted) {
    static const std::regex kSurrogate(R"(\\u[dD][89a-fA-F][0-9a-fA-F]{2})");
    text = std::regex_replace(text, kSurrogate, "\\ufffd");
  }
  if (!options.repeated_member_last_wins && !options.integers_saturate) return text;
  // nlohmann's own parse keeps the last of a repeated member.
  Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return text;
  if (options.integers_saturate) Saturate(doc);
  text = Line(doc);
  text.pop_back();  // its '\n'
  return text;
}

bool AnyLenient(const ServeOptions& o) {
  return o.repeated_member_last_wins || o.integers_saturate || o.lone_surrogates_accepted;
}

class Server {
 public:
  static constexpr std::chrono::seconds kAnswerWriteDeadline{60};

  Server(Backend& backend, const BackendIdentity& identity, int out_fd, const ServeOptions& options)
      : backend_(backend),
        identity_(identity),
        out_fd_(out_fd),
        options_(options),
        sandboxes_(backend) {}

  // False once the output is broken: nobody reads the answers any more.
  bool Answer(const Response& response) {
    std::string line = EncodeResponse(response);
    if (line.size() > kMaxLineBytes + 1) {
      // Only an exec answer can grow this large; its output did not fit the protocol's line.
      line = EncodeResponse(Response{
          response.seq, StatusForReason(Outcome::kFailed, sandbox::kExecOutputLimitReason), {}});
    }
    if (options_.loose_error_answers && !response.error.ok()) line = WithoutOk(line);
    // A client that stops reading for this long is gone; the loop ends and disposes what is live.
    return line_protocol::WriteAll(out_fd_, line, Clock::now() + kAnswerWriteDeadline);
  }

  // The answer to one line, and whether it was an accepted stop.
  Response Handle(std::string_view line, bool& stop) {
    std::optional<int64_t> seq;
    const std::string lenient = AnyLenient(options_) ? Lenient(line, options_) : std::string();
    if (AnyLenient(options_)) line = lenient;
    StatusOr<Request> request = options_.lax ? DecodeLax(line, &seq) : DecodeRequest(line, &seq);
    // The lax_protocol mutant serves any seq; a strict server refuses one out of order.
    if (seq && !order_.Accept(*seq) && !options_.lax) {
      return Response{seq, Refused(kOutOfOrder), {}};
    }
    if (!request.ok()) return Response{seq, request.status(), {}};
    const Op op = OpOf(request->body);
    if (!started_ && op != Op::kHello) return Response{seq, Refused(kNotStarted), {}};
    try {
      Response response = Dispatch(request->body);
      response.seq = seq;
      stop = op == Op::kStop && response.error.ok();
      return response;
    } catch (...) {
      // A backend that throws is a failed call, not a dead server.
      return Response{seq, StatusForReason(Outcome::kFailed, kBackendException), {}};
    }
  }

  // The client left: nothing it acquired may outlive the loop.
  void DisposeAll() { sandboxes_.DisposeAll(); }

 private:
  Response Dispatch(const RequestBody& body) {
    switch (OpOf(body)) {
      case Op::kHello:
        return Hello(std::get<HelloRequest>(body));
      case Op::kAcquire:
        return Acquire(std::get<AcquireRequest>(body));
      case Op::kExecBounded:
        return Exec(std::get<ExecBoundedRequest>(body));
      case Op::kDispose:
        return Dispose(std::get<DisposeRequest>(body));
      case Op::kStop:
        DisposeAll();
        return Response{};
    }
    return Response{std::nullopt, Refused(kUnknownOp), {}};
  }

  Response Hello(const HelloRequest& hello) {
    if (started_) return Response{std::nullopt, Refused(kAlreadyStarted), {}};
    if (hello.protocol != kProtocolVersion) {
      return Response{std::nullopt, Refused(kProtocolMismatch), {}};
    }
    started_ = true;
    HelloResponse answer;
    answer.backend = identity_;
    answer.declaration = backend_.declaration();
    return Response{std::nullopt, Status(), std::move(answer)};
  }

  Response Acquire(const AcquireRequest& acquire) {
    // The redirect applies to sandboxes acquired after it, so it comes first.
    if (acquire.egress_upstream) {
      Status redirected = backend_.RedirectEgress(*acquire.egress_upstream);
      if (!redirected.ok()) return Response{std::nullopt, std::move(redirected), {}};
    }
    StatusOr<std::string> id = sandboxes_.Acquire(acquire.spec, acquire.key);
    if (!id.ok()) return Response{std::nullopt, id.status(), {}};
    return Response{std::nullopt, Status(), AcquireResponse{std::move(id).value()}};
  }

  Response Exec(const ExecBoundedRequest& exec) {
    StatusOr<sandbox::ExecResult> result = sandboxes_.ExecBounded(exec.sandbox, exec.exec);
    if (!result.ok()) return Response{std::nullopt, result.status(), {}};
    return Response{std::nullopt, Status(), std::move(result).value()};
  }

  Response Dispose(const DisposeRequest& dispose) {
    return Response{std::nullopt, sandboxes_.Dispose(dispose.sandbox), {}};
  }

  Backend& backend_;
  const BackendIdentity& identity_;
  int out_fd_;
  const ServeOptions options_;
  bool started_ = false;
  line_protocol::SeqOrder order_;
  line_protocol::SandboxTable sandboxes_;
};

}  // namespace

int ServeBackend(sandbox::Backend& backend, const BackendIdentity& identity, int in_fd, int out_fd,
                 const ServeOptions& options) {
  Server server(backend, identity, out_fd, options);
  line_protocol::LineReader reader(in_fd, options.no_line_limit ? 4 * kMaxLineBytes : kMaxLineBytes);
  std::string line;
  for (;;) {
    const line_protocol::ReadResult read = reader.Next(line, std::nullopt);
    if (read != line_protocol::ReadResult::kLine && read != line_protocol::ReadResult::kTooLong) {
      break;
    }
    bool stop = false;
    bool answered = false;
    try {
      const Response response = read == line_protocol::ReadResult::kTooLong
                                    ? Response{std::nullopt, Refused(kMessageTooLong), {}}
                                    : server.Handle(line, stop);
      answered = server.Answer(response);
    } catch (...) {
      // Only running out of memory gets here; the loop ends as if the output had broken.
    }
    if (!answered) break;
    if (stop) return 0;
  }
  server.DisposeAll();
  return 1;
}

}  // namespace azure_pricing::conformance::backend::protocol
