#include "ref/sandbox/bwrap/bounded_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

#include "ref/status/status_macros.h"

namespace azure_pricing::sandbox::bwrap {
namespace {

using Clock = std::chrono::steady_clock;

// After the program exits, how long output still in flight may take to arrive; its group was
// killed, so only the kernel's buffers remain.
constexpr std::chrono::milliseconds kDrainGrace(2000);

// argv and envp as the C arrays execve wants, built before fork: the child of a threaded
// process may only make async-signal-safe calls.
struct ExecArrays {
  std::vector<char*> argv;
  std::vector<char*> envp;
};

ExecArrays MakeArrays(const BoundedRun& run) {
  ExecArrays a;
  for (const std::string& s : run.argv) a.argv.push_back(const_cast<char*>(s.c_str()));
  for (const std::string& s : run.env) a.envp.push_back(const_cast<char*>(s.c_str()));
  a.argv.push_back(nullptr);
  a.envp.push_back(nullptr);
  return a;
}

void SetLimit(int resource, uint64_t value) {
  if (value == 0) return;
  const rlimit limit{value, value};
  setrlimit(resource, &limit);
}

// What a fresh program expects: default dispositions (the egress proxy ignores SIGPIPE in this
// process) and nothing blocked. sigaction and sigprocmask are async-signal-safe.
void ResetSignals() {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) sigaction(sig, &default_action, nullptr);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
}

// Every descriptor from 3 up is closed; close_range where the kernel has it, else one by one.
void CloseFrom3() {
  if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
  rlimit files{};
  getrlimit(RLIMIT_NOFILE, &files);
  const int top = files.rlim_cur == RLIM_INFINITY ? 65536 : static_cast<int>(files.rlim_cur);
  for (int fd = 3; fd < top; ++fd) close(fd);
}

[[noreturn]] void ExecChild(const ExecArrays& arrays, int out_w, int err_w,
                            const ResourceLimits& limits) {
  setsid();  // its own process group, so the whole group can be killed at once
  ResetSignals();
  const int devnull = open("/dev/null", O_RDONLY);
  if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0) _exit(127);
  SetLimit(RLIMIT_AS, limits.address_space_bytes);
  SetLimit(RLIMIT_FSIZE, limits.file_size_bytes);
  SetLimit(RLIMIT_NOFILE, limits.open_files);
  // Nothing of the parent (the egress proxy's sockets, other calls' pipes) is inherited.
  CloseFrom3();
  execve(arrays.argv[0], arrays.argv.data(), arrays.envp.data());
  _exit(127);
}

struct Stream {
  int fd = -1;
  std::string* sink = nullptr;
  bool counted = true;
};

// One run from spawn to reap. Owns the pipes and the pid until the child is reaped.
class Runner {
 public:
  explicit Runner(const BoundedRun& run) : run_(run) {}
  ~Runner();
  StatusOr<ExecResult> Run();

 private:
  Status Spawn();
  // Reads what is ready; false once the budget is exceeded.
  bool ReadReady(const pollfd* fds);
  void KillAndReap();
  // Reaps the program; false when it cannot be waited for (someone else reaped it).
  bool ReapExited();
  StatusOr<ExecResult> Finish();

  const BoundedRun& run_;
  ExecResult result_;
  Stream streams_[2];
  pid_t pid_ = -1;
  int pidfd_ = -1;
  bool exited_ = false;
  int64_t counted_ = 0;
  bool overflowed_ = false;
  bool reap_failed_ = false;
};

Runner::~Runner() {
  if (pid_ > 0 && !exited_) KillAndReap();
  for (Stream& s : streams_) {
    if (s.fd >= 0) close(s.fd);
  }
  if (pidfd_ >= 0) close(pidfd_);
}

Status Runner::Spawn() {
  const Status failed(Outcome::kFailed, kSpawnFailed, "the sandbox program could not be started");
  if (run_.argv.empty()) return failed;
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0) return failed;
  if (pipe2(err, O_CLOEXEC) != 0) {
    close(out[0]);
    close(out[1]);
    return failed;
  }
  const ExecArrays arrays = MakeArrays(run_);
  pid_ = fork();
  if (pid_ == 0) ExecChild(arrays, out[1], err[1], run_.limits);
  close(out[1]);
  close(err[1]);
  streams_[0] = {out[0], &result_.stdout_bytes, true};
  streams_[1] = {err[0], &result_.stderr_bytes, !run_.weakenings.stderr_uncounted};
  if (pid_ < 0) return failed;
  pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, pid_, 0));
  if (pidfd_ < 0) return failed;
  if (run_.on_start) run_.on_start(pid_);
  return OkStatus();
}

bool Runner::ReadReady(const pollfd* fds) {
  char buf[65536];
  for (int i = 0; i < 2; ++i) {
    Stream& s = streams_[i];
    if (s.fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
    const ssize_t n = read(s.fd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) {
      close(s.fd);
      s.fd = -1;
      continue;
    }
    s.sink->append(buf, static_cast<size_t>(n));
    if (s.counted) counted_ += n;
    if (counted_ > run_.max_output_bytes && !run_.weakenings.no_output_cap) return false;
  }
  return true;
}

// The program is not reaped yet, so its PID (and group id) cannot have been reused.
void Runner::KillAndReap() {
  if (!run_.weakenings.group_survives) kill(-pid_, SIGKILL);
  kill(pid_, SIGKILL);
  ReapExited();
}

bool Runner::ReapExited() {
  int status = 0;
  pid_t got = -1;
  while ((got = waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {
  }
  exited_ = true;
  reap_failed_ = got != pid_;
  result_.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return !reap_failed_;
}

StatusOr<ExecResult> Runner::Run() {
  RETURN_IF_ERROR(Spawn());
  Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(run_.timeout_ms);
  for (;;) {
    if (exited_ && streams_[0].fd < 0 && streams_[1].fd < 0) break;
    const auto remaining =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (remaining <= 0) {
      if (exited_) break;  // the drain grace is over
      if (run_.weakenings.no_timeout_kill) {
        deadline = Clock::now() + std::chrono::hours(24);
        continue;
      }
      KillAndReap();
      return Status(Outcome::kFailed, kExecTimeoutReason, "the sandboxed program timed out");
    }
    pollfd fds[3] = {{streams_[0].fd, POLLIN, 0}, {streams_[1].fd, POLLIN, 0},
                     {exited_ ? -1 : pidfd_, POLLIN, 0}};
    if (poll(fds, 3, static_cast<int>(std::min<int64_t>(remaining, 1000))) < 0) continue;
    if (!ReadReady(fds)) {
      overflowed_ = true;
      break;
    }
    if (!exited_ && (fds[2].revents & POLLIN) != 0) {
      // What the program left behind does not outlive the call. The group is killed while the
      // program is still a zombie, so its id cannot belong to anyone else yet.
      siginfo_t info{};
      waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOWAIT);
      if (!run_.weakenings.group_survives) kill(-pid_, SIGKILL);
      ReapExited();
      deadline = std::min(deadline, Clock::now() + kDrainGrace);
    }
  }
  return Finish();
}

StatusOr<ExecResult> Runner::Finish() {
  if (reap_failed_) {
    return Status(Outcome::kFailed, kWaitFailed, "the sandboxed program's exit status was lost");
  }
  if (!overflowed_) return std::move(result_);
  if (!exited_) KillAndReap();
  if (run_.weakenings.partial_on_overflow) return std::move(result_);
  return Status(Outcome::kFailed, kExecOutputLimitReason,
                "the sandboxed program's output exceeded its budget");
}

}  // namespace

StatusOr<ExecResult> RunBounded(const BoundedRun& run) {
  Runner runner(run);
  return runner.Run();
}

}  // namespace azure_pricing::sandbox::bwrap
