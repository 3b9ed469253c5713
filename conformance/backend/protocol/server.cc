#include "conformance/backend/protocol/server.h"

#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "conformance/backend/protocol/line_io.h"
#include "conformance/backend/protocol/wire_json.h"

namespace azure_pricing::backend_protocol {
namespace {

using sandbox::Backend;
using sandbox::Sandbox;
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

class Server {
 public:
  static constexpr std::chrono::seconds kAnswerWriteDeadline{60};

  Server(Backend& backend, const BackendIdentity& identity, int out_fd, const ServeOptions& options)
      : backend_(backend), identity_(identity), out_fd_(out_fd), options_(options) {}

  // False once the output is broken: nobody reads the answers any more.
  bool Answer(const Response& response) {
    std::string line = EncodeResponse(response);
    if (line.size() > kMaxLineBytes + 1) {
      // Only an exec answer can grow this large; its output did not fit the protocol's line.
      line = EncodeResponse(Response{
          response.seq, StatusForReason(Outcome::kFailed, sandbox::kExecOutputLimitReason), {}});
    }
    // A client that stops reading for this long is gone; the loop ends and disposes what is live.
    return WriteAll(out_fd_, line, Clock::now() + kAnswerWriteDeadline);
  }

  // The answer to one line, and whether it was an accepted stop.
  Response Handle(std::string_view line, bool& stop) {
    std::optional<int64_t> seq;
    StatusOr<Request> request = options_.lax ? DecodeLax(line, &seq) : DecodeRequest(line, &seq);
    if (seq && *seq <= last_seq_ && !options_.lax) return Response{seq, Refused(kOutOfOrder), {}};
    if (seq) last_seq_ = *seq;
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
  void DisposeAll() {
    while (!live_.empty()) {
      std::unique_ptr<Sandbox> sandbox = std::move(live_.begin()->second);
      live_.erase(live_.begin());
      try {
        (void)backend_.Dispose(std::move(sandbox));
      } catch (...) {
        // Nobody is left to tell; the remaining sandboxes are still disposed.
      }
    }
  }

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
    StatusOr<std::unique_ptr<Sandbox>> sandbox = backend_.Acquire(acquire.spec, acquire.key);
    if (!sandbox.ok()) return Response{std::nullopt, sandbox.status(), {}};
    std::string id = "sandbox-" + std::to_string(next_id_++);
    live_[id] = std::move(sandbox).value();
    return Response{std::nullopt, Status(), AcquireResponse{std::move(id)}};
  }

  Response Exec(const ExecBoundedRequest& exec) {
    auto it = live_.find(exec.sandbox);
    if (it == live_.end()) return Response{std::nullopt, Refused(kUnknownSandbox), {}};
    sandbox::BoundedExec* bounded = it->second->bounded_exec();
    if (bounded == nullptr) return Response{std::nullopt, Refused(kBoundedExecUnavailable), {}};
    StatusOr<sandbox::ExecResult> result = bounded->ExecBounded(exec.exec);
    if (!result.ok()) return Response{std::nullopt, result.status(), {}};
    return Response{std::nullopt, Status(), std::move(result).value()};
  }

  Response Dispose(const DisposeRequest& dispose) {
    auto it = live_.find(dispose.sandbox);
    if (it == live_.end()) return Response{std::nullopt, Refused(kUnknownSandbox), {}};
    std::unique_ptr<Sandbox> sandbox = std::move(it->second);
    live_.erase(it);
    return Response{std::nullopt, backend_.Dispose(std::move(sandbox)), {}};
  }

  Backend& backend_;
  const BackendIdentity& identity_;
  int out_fd_;
  const ServeOptions options_;
  bool started_ = false;
  int64_t last_seq_ = 0;  // seq starts at 1
  int64_t next_id_ = 1;
  std::map<std::string, std::unique_ptr<Sandbox>> live_;
};

}  // namespace

int ServeBackend(sandbox::Backend& backend, const BackendIdentity& identity, int in_fd, int out_fd,
                 const ServeOptions& options) {
  Server server(backend, identity, out_fd, options);
  LineReader reader(in_fd, kMaxLineBytes);
  std::string line;
  for (;;) {
    const ReadResult read = reader.Next(line, std::nullopt);
    if (read != ReadResult::kLine && read != ReadResult::kTooLong) break;
    bool stop = false;
    bool answered = false;
    try {
      const Response response = read == ReadResult::kTooLong
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

}  // namespace azure_pricing::backend_protocol
