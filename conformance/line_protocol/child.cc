#include "conformance/line_protocol/child.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

namespace azure_pricing::conformance::line_protocol {
namespace {

// The child gets a clean signal state (the caller may hold SIGPIPE back or ignore it) and its
// own process group, so that killing the group also ends whatever the child started.
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

}  // namespace

void CloseFd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

bool SpawnPiped(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                const std::string& working_directory, PipedChild& out) {
  out = PipedChild{};
  if (argv.empty() || argv[0].empty()) return false;
  // Close-on-exec everywhere: no other child of this process may hold an end open, or the
  // child would never see EOF on its stdin.
  int to[2], from[2];
  if (pipe2(to, O_CLOEXEC) != 0) return false;
  if (pipe2(from, O_CLOEXEC) != 0) {
    close(to[0]);
    close(to[1]);
    return false;
  }
  PipedChild s{0, to[1], from[0]};
  const int rc = SpawnWithPipes(argv, env, working_directory, to, from, s.pid);
  close(to[0]);
  close(from[1]);
  if (rc != 0) {
    CloseFd(s.to_child);
    CloseFd(s.from_child);
    return false;
  }
  // Non-blocking, so that a message to a child that stops reading waits with a deadline.
  fcntl(s.to_child, F_SETFL, fcntl(s.to_child, F_GETFL) | O_NONBLOCK);
  out = s;
  return true;
}

bool ExitedBy(pid_t pid, Clock::time_point deadline) {
  for (;;) {
    siginfo_t info{};
    if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
      if (errno == EINTR) continue;
      return true;  // nothing left to wait for
    }
    if (info.si_pid == pid) return true;
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void KillAndReap(PipedChild& child) {
  if (child.pid != 0) {
    kill(-child.pid, SIGKILL);
    int status = 0;
    while (waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  child.pid = 0;
  CloseFd(child.to_child);
  CloseFd(child.from_child);
}

}  // namespace azure_pricing::conformance::line_protocol
