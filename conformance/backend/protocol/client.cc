#include "conformance/backend/protocol/client.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "conformance/backend/protocol/line_io.h"

namespace azure_pricing::backend_protocol {

using sandbox::ExecRequest;
using sandbox::ExecResult;

namespace {

Status Failed(const char* reason) { return StatusForReason(Outcome::kFailed, reason); }
Status Refused(const char* reason) { return StatusForReason(Outcome::kRefused, reason); }

struct Spawned {
  pid_t pid = 0;
  int to_child = -1;    // the adapter's stdin
  int from_child = -1;  // the adapter's stdout
};

void CloseFd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// The adapter gets a clean signal state (the caller may hold SIGPIPE back or ignore it) and its
// own process group, so that killing the group also ends whatever the adapter started.
int SpawnWithPipes(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                   const std::string& working_directory, const int to[2], const int from[2],
                   pid_t& pid) {
  std::vector<std::string> args = argv, vars = env;
  std::vector<char*> argp, envp;
  for (std::string& a : args) argp.push_back(a.data());
  argp.push_back(nullptr);
  for (std::string& e : vars) envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, to[0], 0);
  posix_spawn_file_actions_adddup2(&actions, from[1], 1);
  if (!working_directory.empty()) {
    posix_spawn_file_actions_addchdir_np(&actions, working_directory.c_str());
  }
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t none, pipe_signal;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &pipe_signal);
  const int rc = posix_spawn(&pid, args[0].c_str(), &actions, &attr, argp.data(), envp.data());
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  return rc;
}

StatusOr<Spawned> Spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                        const std::string& working_directory) {
  if (argv.empty() || argv[0].empty()) return Refused(kAdapterSpawnFailed);
  // Close-on-exec everywhere: no other child of this process may hold an end open, or the
  // adapter would never see EOF on its stdin.
  int to[2], from[2];
  if (pipe2(to, O_CLOEXEC) != 0) return Failed(kAdapterSpawnFailed);
  if (pipe2(from, O_CLOEXEC) != 0) {
    close(to[0]);
    close(to[1]);
    return Failed(kAdapterSpawnFailed);
  }
  Spawned s{0, to[1], from[0]};
  const int rc = SpawnWithPipes(argv, env, working_directory, to, from, s.pid);
  close(to[0]);
  close(from[1]);
  if (rc != 0) {
    CloseFd(s.to_child);
    CloseFd(s.from_child);
    return Failed(kAdapterSpawnFailed);
  }
  // Non-blocking, so that a request to an adapter that stops reading waits with a deadline.
  fcntl(s.to_child, F_SETFL, fcntl(s.to_child, F_GETFL) | O_NONBLOCK);
  return s;
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
  AdapterChannel(Spawned spawned, AdapterDeadlines deadlines)
      : pid_(spawned.pid),
        to_fd_(spawned.to_child),
        from_fd_(spawned.from_child),
        reader_(spawned.from_child, kMaxLineBytes),
        deadlines_(deadlines) {}
  ~AdapterChannel() { Shutdown(); }

  const AdapterDeadlines& deadlines() const { return deadlines_; }
  pid_t pid() {
    std::lock_guard<std::mutex> lock(mu_);
    return pid_;
  }

  void SetUpstream(const sandbox::EgressUpstream& upstream) {
    std::lock_guard<std::mutex> lock(mu_);
    upstream_ = upstream;
  }

  // One request and its answer; the mutex keeps one request in flight.
  StatusOr<Response> Call(RequestBody body, std::chrono::milliseconds wait) {
    std::lock_guard<std::mutex> lock(mu_);
    if (pid_ == 0) return Failed(kAdapterExited);
    if (auto* acquire = std::get_if<AcquireRequest>(&body)) acquire->egress_upstream = upstream_;
    const Op op = OpOf(body);
    const int64_t seq = ++seq_;
    const std::string line = EncodeRequest(Request{seq, std::move(body)});
    // Refused here rather than sent: the adapter would only answer message_too_long.
    if (line.size() > kMaxLineBytes + 1) return Refused(kMessageTooLong);
    const Clock::time_point deadline = Clock::now() + wait;
    if (!WriteAll(to_fd_, line, deadline)) {
      return Kill(Clock::now() >= deadline ? kAdapterTimeout : kAdapterExited);
    }
    return Receive(seq, op, deadline);
  }

  // Stop, then EOF, then the deadline, then SIGKILL; the adapter is reaped on every path. An
  // adapter that refused hello is not started and would only refuse stop too: it gets EOF alone.
  void Shutdown(bool say_stop = true) {
    std::lock_guard<std::mutex> lock(mu_);
    if (pid_ == 0) return;
    const Clock::time_point deadline = Clock::now() + deadlines_.stop;
    if (say_stop && WriteAll(to_fd_, EncodeRequest(Request{++seq_, StopRequest{}}), deadline)) {
      std::string answer;
      (void)reader_.Next(answer, deadline);  // whatever it says, the adapter ends now
    }
    CloseFd(to_fd_);  // EOF, for an adapter that did not take stop as its cue
    (void)ExitedBy(deadline);
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

  // True once the adapter has exited; it stays unreaped (a zombie) so that its process group
  // id cannot be reused before KillAndReap signals the group.
  bool ExitedBy(Clock::time_point deadline) {
    for (;;) {
      siginfo_t info{};
      if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
        if (errno == EINTR) continue;
        return true;  // nothing left to wait for
      }
      if (info.si_pid == pid_) return true;
      if (Clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }

  Status Kill(const char* reason) {
    KillAndReap();
    return Failed(reason);
  }

  // SIGKILL cannot be caught, so the blocking reap after it is bounded.
  void KillAndReap() {
    if (pid_ == 0) return;
    kill(-pid_, SIGKILL);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = 0;
    CloseFd(to_fd_);
    CloseFd(from_fd_);
  }

  std::mutex mu_;
  pid_t pid_;  // 0 once reaped
  int to_fd_;
  int from_fd_;
  LineReader reader_;
  AdapterDeadlines deadlines_;
  int64_t seq_ = 0;
  std::optional<sandbox::EgressUpstream> upstream_;
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
    StatusOr<Response> response = channel_->Call(ExecBoundedRequest{id_, request}, wait);
    if (!response.ok()) return response.status();
    if (!response->error.ok()) return response->error;
    return std::get<ExecResult>(std::move(response).value().body);
  }

  std::shared_ptr<AdapterChannel> channel_;
  std::string id_;
  bool bounded_;
};

}  // namespace

StatusOr<std::unique_ptr<AdapterBackend>> AdapterBackend::Start(std::vector<std::string> argv,
                                                                std::vector<std::string> env,
                                                                AdapterDeadlines deadlines,
                                                                std::string working_directory) {
  StatusOr<Spawned> spawned = Spawn(argv, env, working_directory);
  if (!spawned.ok()) return spawned.status();
  auto channel = std::make_shared<AdapterChannel>(*spawned, deadlines);
  StatusOr<Response> hello = channel->Call(HelloRequest{}, deadlines.call);
  if (!hello.ok()) return hello.status();
  if (!hello->error.ok()) {
    channel->Shutdown(/*say_stop=*/false);
    return hello->error;
  }
  auto& answer = std::get<HelloResponse>(hello->body);
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
  StatusOr<Response> response =
      channel_->Call(AcquireRequest{spec, key, std::nullopt}, channel_->deadlines().call);
  if (!response.ok()) return response.status();
  if (!response->error.ok()) return response->error;
  std::string id = std::get<AcquireResponse>(response->body).sandbox;
  return std::unique_ptr<sandbox::Sandbox>(
      std::make_unique<AdapterSandbox>(channel_, std::move(id), declaration_.bounded_exec));
}

Status AdapterBackend::Dispose(std::unique_ptr<sandbox::Sandbox> sandbox) {
  const auto* ours = dynamic_cast<const AdapterSandbox*>(sandbox.get());
  if (ours == nullptr || ours->channel() != channel_.get()) return Refused(kUnknownSandbox);
  StatusOr<Response> response =
      channel_->Call(DisposeRequest{ours->id()}, channel_->deadlines().call);
  if (!response.ok()) return response.status();
  return response->error;
}

Status AdapterBackend::RedirectEgress(const sandbox::EgressUpstream& upstream) {
  channel_->SetUpstream(upstream);
  return OkStatus();
}

}  // namespace azure_pricing::backend_protocol
