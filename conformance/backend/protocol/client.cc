#include "conformance/backend/protocol/client.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <utility>

#include "conformance/line_protocol/child.h"
#include "conformance/line_protocol/line_io.h"
#include "ref/status/status_macros.h"

namespace azure_pricing::conformance::backend::protocol {

using line_protocol::Clock;
using line_protocol::CloseFd;
using line_protocol::LineDirection;
using line_protocol::LineObserver;
using line_protocol::LineReader;
using line_protocol::PipedChild;
using line_protocol::ReadResult;
using line_protocol::SpawnPiped;
using line_protocol::WriteAll;
using sandbox::ExecRequest;
using sandbox::ExecResult;

namespace {

Status Failed(Reason reason) { return StatusForReason(Outcome::kFailed, reason); }
Status Refused(Reason reason) { return StatusForReason(Outcome::kRefused, reason); }

StatusOr<PipedChild> Spawn(const std::vector<std::string>& argv,
                           const std::vector<std::string>& env,
                           const std::string& working_directory) {
  if (argv.empty() || argv[0].empty()) return Refused(kAdapterSpawnFailed);
  PipedChild child;
  if (!SpawnPiped(argv, env, working_directory, child)) return Failed(kAdapterSpawnFailed);
  return child;
}

// A line as observers get it: without its '\n'.
std::string_view Unterminated(std::string_view line) {
  return line.ends_with('\n') ? line.substr(0, line.size() - 1) : line;
}

// An exec may take its whole timeout; the adapter gets a grace period on top. Clamped so that
// a huge timeout cannot overflow the clock.
std::chrono::milliseconds ExecWait(int64_t timeout_seconds, std::chrono::milliseconds grace) {
  const int64_t seconds = std::clamp<int64_t>(timeout_seconds, 0, int64_t{7} * 24 * 3600);
  return std::chrono::seconds(seconds) + grace;
}

}  // namespace

class AdapterChannel {
 public:
  AdapterChannel(PipedChild spawned, AdapterDeadlines deadlines, LineObserver observer)
      : child_(std::move(spawned)), reader_(child_.from_child, kMaxLineBytes),
        deadlines_(deadlines), observer_(std::move(observer)) {}
  ~AdapterChannel() { Shutdown(); }

  const AdapterDeadlines& deadlines() const { return deadlines_; }
  pid_t pid() {
    std::lock_guard<std::mutex> lock(mu_);
    return child_.process.pid();
  }

  void SetUpstream(const sandbox::EgressUpstream& upstream) {
    std::lock_guard<std::mutex> lock(mu_);
    upstream_ = upstream;
  }

  // One request and its answer; the mutex keeps one request in flight.
  StatusOr<Response> Call(RequestBody body, std::chrono::milliseconds wait) {
    std::lock_guard<std::mutex> lock(mu_);
    if (child_.process.pid() == 0) return Failed(kAdapterExited);
    if (auto* acquire = std::get_if<AcquireRequest>(&body)) acquire->egress_upstream = upstream_;
    const Op op = OpOf(body);
    const int64_t seq = ++seq_;
    const std::string line = EncodeRequest(Request{seq, std::move(body)});
    // Refused here rather than sent: the adapter would only answer message_too_long.
    if (line.size() > kMaxLineBytes + 1) return Refused(kMessageTooLong);
    const Clock::time_point deadline = Clock::now() + wait;
    Observe(LineDirection::kRequestSent, op, line);
    if (!WriteAll(child_.to_child, line, deadline)) {
      return Kill(Clock::now() >= deadline ? kAdapterTimeout : kAdapterExited);
    }
    return Receive(seq, op, deadline);
  }

  // Stop, then EOF, then the deadline, then SIGKILL; the adapter is reaped on every path. An
  // adapter that refused hello is not started and would only refuse stop too: it gets EOF alone.
  void Shutdown(bool say_stop = true) {
    std::lock_guard<std::mutex> lock(mu_);
    if (child_.process.pid() == 0) return;
    const Clock::time_point deadline = Clock::now() + deadlines_.stop;
    const std::string stop = say_stop ? EncodeRequest(Request{++seq_, StopRequest{}}) : "";
    if (say_stop) Observe(LineDirection::kRequestSent, Op::kStop, stop);
    if (say_stop && WriteAll(child_.to_child, stop, deadline)) {
      std::string answer;
      // Whatever it says, the adapter ends now.
      if (reader_.Next(answer, deadline) == ReadResult::kLine) {
        Observe(LineDirection::kAnswerReceived, Op::kStop, answer);
      }
    }
    CloseFd(child_.to_child);  // EOF, for an adapter that did not take stop as its cue
    (void)child_.process.ExitedBy(deadline);
    KillAndReap();
  }

 private:
  StatusOr<Response> Receive(int64_t seq, Op op, Clock::time_point deadline) {
    std::string answer;
    switch (reader_.Next(answer, deadline)) {
      case ReadResult::kLine:
        break;
      case ReadResult::kTimeout:
        return Kill(kAdapterTimeout);
      case ReadResult::kTooLong:
        return Kill(kAdapterProtocolError);
      case ReadResult::kEof:
      case ReadResult::kError:
        return Kill(kAdapterExited);
    }
    Observe(LineDirection::kAnswerReceived, op, answer);
    StatusOr<Response> response = DecodeResponse(answer, op);
    if (!response.ok()) {
      // kAdapterProtocolError, or kProtocolMismatch for a hello answer of another version.
      KillAndReap();
      return response.status();
    }
    // An answer to another request means the two sides no longer agree on what is in flight.
    if (response->seq != seq) return Kill(kAdapterProtocolError);
    return response;
  }

  Status Kill(Reason reason) {
    KillAndReap();
    return Failed(reason);
  }

  void KillAndReap() { line_protocol::KillAndReap(child_); }

  void Observe(LineDirection direction, Op op, std::string_view line) {
    if (observer_) observer_(direction, OpName(op), Unterminated(line));
  }

  std::mutex mu_;
  PipedChild child_;  // pid 0 once reaped; before reader_, which reads its pipe
  LineReader reader_;
  AdapterDeadlines deadlines_;
  int64_t seq_ = 0;
  std::optional<sandbox::EgressUpstream> upstream_;
  LineObserver observer_;  // may be empty
};

namespace {

class AdapterSandbox : public sandbox::Sandbox, public sandbox::BoundedExec {
 public:
  AdapterSandbox(std::shared_ptr<AdapterChannel> channel, std::string id, bool bounded)
      : channel_(std::move(channel)), id_(std::move(id)), bounded_(bounded) {}

  // Both go through exec_bounded, the protocol's only exec: plain Exec gets the same limits.
  StatusOr<ExecResult> Exec(const ExecRequest& request) override { return Run(request); }
  StatusOr<ExecResult> ExecBounded(const ExecRequest& request) override { return Run(request); }
  sandbox::BoundedExec* bounded_exec() override { return bounded_ ? this : nullptr; }

  Status WriteFile(const std::string&, const std::string&) override {
    return Refused(kAdapterFilesUnsupported);
  }
  StatusOr<std::string> ReadFile(const std::string&) override {
    return Refused(kAdapterFilesUnsupported);
  }

  const AdapterChannel* channel() const { return channel_.get(); }
  const std::string& id() const { return id_; }

 private:
  StatusOr<ExecResult> Run(const ExecRequest& request) {
    const auto wait = ExecWait(request.timeout_seconds, channel_->deadlines().exec_grace);
    ASSIGN_OR_RETURN(Response response, channel_->Call(ExecBoundedRequest{id_, request}, wait));
    if (!response.error.ok()) return response.error;
    return std::get<ExecResult>(std::move(response).body);
  }

  std::shared_ptr<AdapterChannel> channel_;
  std::string id_;
  bool bounded_;
};

}  // namespace

StatusOr<std::unique_ptr<AdapterBackend>> AdapterBackend::Start(std::vector<std::string> argv,
                                                                std::vector<std::string> env,
                                                                AdapterDeadlines deadlines,
                                                                std::string working_directory,
                                                                LineObserver observer) {
  ASSIGN_OR_RETURN(PipedChild spawned, Spawn(argv, env, working_directory));
  auto channel =
      std::make_shared<AdapterChannel>(std::move(spawned), deadlines, std::move(observer));
  ASSIGN_OR_RETURN(Response hello, channel->Call(HelloRequest{}, deadlines.call));
  if (!hello.error.ok()) {
    channel->Shutdown(/*say_stop=*/false);
    return hello.error;
  }
  auto& answer = std::get<HelloResponse>(hello.body);
  return std::unique_ptr<AdapterBackend>(new AdapterBackend(
      std::move(channel), std::move(answer.backend), std::move(answer.declaration)));
}

pid_t AdapterBackend::pid() const { return channel_->pid(); }

AdapterBackend::AdapterBackend(std::shared_ptr<AdapterChannel> channel, BackendIdentity identity,
                               sandbox::BackendDeclaration declaration)
    : channel_(std::move(channel)),
      identity_(std::move(identity)),
      declaration_(std::move(declaration)) {}

AdapterBackend::~AdapterBackend() { channel_->Shutdown(); }

StatusOr<std::unique_ptr<sandbox::Sandbox>> AdapterBackend::Acquire(
    const sandbox::Spec& spec, const sandbox::SandboxKey& key) {
  ASSIGN_OR_RETURN(Response response, channel_->Call(AcquireRequest{spec, key, std::nullopt},
                                                    channel_->deadlines().call));
  if (!response.error.ok()) return response.error;
  std::string id = std::get<AcquireResponse>(response.body).sandbox;
  return std::unique_ptr<sandbox::Sandbox>(
      std::make_unique<AdapterSandbox>(channel_, std::move(id), declaration_.bounded_exec));
}

Status AdapterBackend::Dispose(std::unique_ptr<sandbox::Sandbox> sandbox) {
  const auto* ours = dynamic_cast<const AdapterSandbox*>(sandbox.get());
  if (ours == nullptr || ours->channel() != channel_.get()) return Refused(kUnknownSandbox);
  ASSIGN_OR_RETURN(Response response,
                   channel_->Call(DisposeRequest{ours->id()}, channel_->deadlines().call));
  return response.error;
}

Status AdapterBackend::RedirectEgress(const sandbox::EgressUpstream& upstream) {
  channel_->SetUpstream(upstream);
  return OkStatus();
}

}  // namespace azure_pricing::conformance::backend::protocol
