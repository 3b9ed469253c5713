#include "ref/base/subprocess.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <thread>

#include "ref/status/status_macros.h"

extern char** environ;

namespace azure_pricing::base {
namespace {

using Clock = Subprocess::Clock;

// How often a wait looks whether the child has exited.
constexpr auto kPollStep = std::chrono::milliseconds(5);
// How long Wait reads the pipes once the group is killed: what its members wrote is in the pipes
// already, so only a process that left the group can keep them open that long.
constexpr auto kDrainAfterKill = std::chrono::seconds(1);

Status NotStarted(const char* message) { return ProgramError(kSubprocessNotStarted, message); }

void Close(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// A close-on-exec pipe for the child's `fd`: the child reads stdin and writes stdout and stderr.
bool OpenPipe(int fd, int& parent_end, int& child_end) {
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0) return false;
  child_end = fd == 0 ? ends[0] : ends[1];
  parent_end = fd == 0 ? ends[1] : ends[0];
  return true;
}

// The file action that gives the child `stdio` as its `fd`; `pipe_end` is its end of a pipe.
void AddStdio(posix_spawn_file_actions_t& actions, int fd, const Stdio& stdio, int pipe_end) {
  switch (stdio.kind) {
    case Stdio::Kind::kInherit:
      break;
    case Stdio::Kind::kDevNull:
      posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0);
      break;
    case Stdio::Kind::kFile:
      posix_spawn_file_actions_addopen(&actions, fd, stdio.path.c_str(),
                                       fd == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC, 0644);
      break;
    case Stdio::Kind::kPipe:
      posix_spawn_file_actions_adddup2(&actions, pipe_end, fd);
      break;
  }
}

// Its own process group, so that killing the group also ends whatever the child started, and a
// clean signal state: the caller may block signals or ignore SIGPIPE.
void InitAttributes(posix_spawnattr_t& attr) {
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
}

std::vector<char*> Pointers(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

// posix_spawn with `child_ends` as the child's ends of its pipes: 0, or an errno value. The
// streams are opened before the change of directory, so their paths are the caller's.
int Spawn(const SubprocessSpec& spec, const int (&child_ends)[3], pid_t& pid) {
  std::vector<std::string> args = spec.argv, vars = spec.env.value_or(std::vector<std::string>());
  std::vector<char*> argp = Pointers(args), envp = Pointers(vars);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const Stdio* stdio[3] = {&spec.in, &spec.out, &spec.err};
  for (int fd = 0; fd < 3; ++fd) AddStdio(actions, fd, *stdio[fd], child_ends[fd]);
  if (!spec.working_directory.empty()) {
    posix_spawn_file_actions_addchdir_np(&actions, spec.working_directory.c_str());
  }
  posix_spawnattr_t attr;
  InitAttributes(attr);
  const int rc = posix_spawn(&pid, args[0].c_str(), &actions, &attr, argp.data(),
                             spec.env.has_value() ? envp.data() : environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  return rc;
}

// Waits until `until` for stdout or stderr (pipes[1], pipes[2]; -1 when closed) to have
// something, and reads it; a pipe at its end is closed. With neither open, it only waits.
void Pump(int (&pipes)[3], SubprocessResult& result, Clock::time_point until) {
  pollfd polled[2];
  int slot[2];
  nfds_t n = 0;
  for (int fd : {1, 2}) {
    if (pipes[fd] < 0) continue;
    polled[n] = {pipes[fd], POLLIN, 0};
    slot[n++] = fd;
  }
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count();
  if (poll(polled, n, static_cast<int>(std::clamp<int64_t>(left, 0, 1000))) <= 0) return;
  for (nfds_t i = 0; i < n; ++i) {
    if (polled[i].revents == 0) continue;
    char buffer[4096];
    const ssize_t got = read(polled[i].fd, buffer, sizeof buffer);
    if (got > 0) {
      (slot[i] == 1 ? result.out : result.err).append(buffer, static_cast<size_t>(got));
    } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
      Close(pipes[slot[i]]);
    }
  }
}

}  // namespace

StatusOr<Subprocess> Subprocess::Start(const SubprocessSpec& spec) {
  if (spec.argv.empty() || spec.argv[0].empty()) {
    return NotStarted("No program was named to start.");
  }
  const Stdio* stdio[3] = {&spec.in, &spec.out, &spec.err};
  int parent_ends[3] = {-1, -1, -1}, child_ends[3] = {-1, -1, -1};
  bool piped = true;
  for (int fd = 0; fd < 3 && piped; ++fd) {
    if (stdio[fd]->kind != Stdio::Kind::kPipe) continue;
    piped = OpenPipe(fd, parent_ends[fd], child_ends[fd]);
  }
  pid_t pid = 0;
  const int spawned = piped ? Spawn(spec, child_ends, pid) : -1;
  for (int& fd : child_ends) Close(fd);
  if (spawned != 0) {
    for (int& fd : parent_ends) Close(fd);
    return NotStarted(piped ? "The program could not be started: it, its working directory or a "
                              "file for its input or output is missing or not permitted."
                            : "The program could not be started: no pipe for its input or output.");
  }
  Subprocess process;
  process.pid_ = pid;
  std::copy(std::begin(parent_ends), std::end(parent_ends), process.pipes_);
  return process;
}

StatusOr<SubprocessResult> Subprocess::Run(const SubprocessSpec& spec,
                                           std::chrono::milliseconds timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  ASSIGN_OR_RETURN(Subprocess process, Start(spec));
  return process.Wait(deadline);
}

Subprocess::Subprocess(Subprocess&& other) noexcept { *this = std::move(other); }

Subprocess& Subprocess::operator=(Subprocess&& other) noexcept {
  if (this != &other) {
    KillAndReap();
    pid_ = std::exchange(other.pid_, 0);
    for (int fd = 0; fd < 3; ++fd) pipes_[fd] = std::exchange(other.pipes_[fd], -1);
  }
  return *this;
}

int Subprocess::Take(int fd) { return std::exchange(pipes_[fd], -1); }

bool Subprocess::Exited() const {
  if (pid_ == 0) return true;
  for (;;) {
    siginfo_t info{};
    if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0) {
      return info.si_pid == pid_;
    }
    if (errno != EINTR) return true;  // nothing left to wait for
  }
}

bool Subprocess::ExitedBy(Clock::time_point deadline) const {
  while (!Exited()) {
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(kPollStep);
  }
  return true;
}

SubprocessResult Subprocess::Wait(Clock::time_point deadline) {
  SubprocessResult result;
  Close(pipes_[0]);  // an untaken stdin pipe: the child reads EOF
  if (pid_ == 0) return result;
  bool exited = Exited();
  while (!exited && Clock::now() < deadline) {
    Pump(pipes_, result, std::min(deadline, Clock::now() + kPollStep));
    exited = Exited();
  }
  KillGroup();  // what the child left in its group; at the deadline, the child too
  const Clock::time_point drained = Clock::now() + kDrainAfterKill;
  while ((pipes_[1] >= 0 || pipes_[2] >= 0) && Clock::now() < drained) {
    Pump(pipes_, result, drained);
  }
  const int status = Reap();
  result.timed_out = !exited;
  if (exited && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (exited && WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

void Subprocess::KillAndReap() {
  if (pid_ == 0) return;  // no child, and so no pipe: Reap closes them
  KillGroup();
  (void)Reap();
}

// The group, and the child itself in case it left the group; the child is still unreaped here,
// so its pid and group id cannot have been reused. Unless it was reaped elsewhere (SIGCHLD set to
// SIG_IGN): then its pid may be another process's by now, and nothing is sent.
void Subprocess::KillGroup() const {
  siginfo_t info{};
  const int unwaitable = waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT);
  if (unwaitable != 0 && errno == ECHILD) return;
  kill(-pid_, SIGKILL);
  kill(pid_, SIGKILL);
}

// The child's wait status, or -1 (neither an exit nor a signal) when it was reaped elsewhere;
// the pipes are closed too.
int Subprocess::Reap() {
  int status = 0;
  pid_t reaped;
  while ((reaped = waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {
  }
  pid_ = 0;
  for (int& fd : pipes_) Close(fd);
  return reaped < 0 ? -1 : status;
}

}  // namespace azure_pricing::base
