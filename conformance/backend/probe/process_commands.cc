// The process subcommands: what the probe was given (argv, environment, directory) and the
// process shapes a backend must contain or clean up (a tree, a daemon, closed pipes, a flood).
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "conformance/backend/probe/probe.h"

extern char** environ;

namespace azure_pricing::probe {
namespace {

// Replaces this process with `sandbox_probe linger MARKER SECONDS`. /proc/self/exe rather than
// argv[0]: a sandbox runs the probe by whatever path its image uses, and PATH may not name it.
// argv[0] stays the original one so the process table shows the same program name.
[[noreturn]] void ExecLinger(const std::string& marker, const std::string& seconds) {
  std::vector<char*> argv = {program_invocation_name, const_cast<char*>("linger"),
                             const_cast<char*>(marker.c_str()),
                             const_cast<char*>(seconds.c_str()), nullptr};
  execv("/proc/self/exe", argv.data());
  execv(program_invocation_name, argv.data());  // no /proc in this sandbox: try the path used
  _exit(127);
}

// Points `fd` at /dev/null (closing what it was), so a helper process neither writes a second
// JSON object into the probe's stdout nor reads from the caller.
void ToDevNull(int fd, int flags) {
  const int null = open("/dev/null", flags | O_CLOEXEC);
  if (null < 0) {
    close(fd);
    return;
  }
  dup2(null, fd);
  close(null);
}

// Waits until every holder of the pipe's write end (made O_CLOEXEC) has exec'd or died: then
// the marked processes are in the process table before the probe reports anything.
void WaitForExecs(int read_end) {
  char byte;
  while (read(read_end, &byte, 1) < 0 && errno == EINTR) {
  }
  close(read_end);
}

int ForkFailed() {
  PrintJson({{"error", std::string("fork: ") + std::strerror(errno)}});
  return 1;
}

bool WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

std::optional<int> ArgvCommand(const Args& args) {
  PrintJson({{"argv", args}});
  return 0;
}

std::optional<int> EnvCommand(const Args&) {
  Json list = Json::array();
  for (char** entry = environ; *entry != nullptr; ++entry) list.push_back(*entry);
  PrintJson({{"env", list}});
  return 0;
}

std::optional<int> CwdCommand(const Args&) {
  std::vector<char> buffer(4096);
  while (getcwd(buffer.data(), buffer.size()) == nullptr) {
    if (errno != ERANGE) {
      // A directory removed under the process has no name; say so rather than guess.
      PrintJson({{"cwd", ""}, {"errno", errno}});
      return 0;
    }
    buffer.resize(buffer.size() * 2);
  }
  PrintJson({{"cwd", buffer.data()}});
  return 0;
}

std::optional<int> ExitCommand(const Args& args) {
  const std::optional<long long> code = ParseInteger(args[0], 0, 255);
  if (!code) return std::nullopt;
  PrintJson({{"exit", *code}});
  return static_cast<int>(*code);
}

std::optional<int> LingerCommand(const Args& args) {
  const std::optional<double> seconds = ParseSeconds(args[1]);
  if (!seconds) return std::nullopt;
  SleepSeconds(*seconds);
  PrintJson(Json::object());
  return 0;
}

// Parent, child and grandchild all carry MARKER and live SECONDS: a backend that kills only the
// process it started leaves two marked processes behind. The helpers keep the probe's stderr
// (they are a real tree holding the exec's pipe) but not its stdout (one JSON object only).
std::optional<int> TreeCommand(const Args& args) {
  const std::optional<double> seconds = ParseSeconds(args[1]);
  if (!seconds) return std::nullopt;
  int sync[2];
  if (pipe2(sync, O_CLOEXEC) != 0) return ForkFailed();
  std::fflush(stdout);
  const pid_t child = fork();
  if (child < 0) return ForkFailed();
  if (child == 0) {
    close(sync[0]);
    ToDevNull(STDOUT_FILENO, O_WRONLY);
    if (fork() == 0) ExecLinger(args[0], args[1]);  // the grandchild
    ExecLinger(args[0], args[1]);                    // the child (a failed fork still lingers)
  }
  close(sync[1]);
  WaitForExecs(sync[0]);
  SleepSeconds(*seconds);
  PrintJson(Json::object());
  return 0;
}

// The classic daemon: double fork and setsid, so the marked process is in no process group or
// session of the exec and holds none of its pipes. Only a backend that contains processes by
// namespace or cgroup, not by pipe EOF or process group, gets rid of it.
std::optional<int> DaemonCommand(const Args& args) {
  if (!ParseSeconds(args[1])) return std::nullopt;
  int sync[2];
  if (pipe2(sync, O_CLOEXEC) != 0) return ForkFailed();
  std::fflush(stdout);
  const pid_t child = fork();
  if (child < 0) return ForkFailed();
  if (child == 0) {
    close(sync[0]);
    setsid();
    // The session leader leaves at once, so the daemon can never acquire a terminal.
    if (fork() != 0) _exit(0);
    ToDevNull(STDIN_FILENO, O_RDONLY);
    ToDevNull(STDOUT_FILENO, O_WRONLY);
    ToDevNull(STDERR_FILENO, O_WRONLY);
    ExecLinger(args[0], args[1]);
  }
  close(sync[1]);
  waitpid(child, nullptr, 0);
  WaitForExecs(sync[0]);
  PrintJson({{"daemon", true}});
  return 0;
}

// Output EOF long before exit: a backend that takes "pipes closed" for "process ended" returns
// early and leaves this process running.
std::optional<int> CloseStdoutCommand(const Args& args) {
  const std::optional<double> seconds = ParseSeconds(args[1]);
  if (!seconds) return std::nullopt;
  close(STDOUT_FILENO);
  close(STDERR_FILENO);
  SleepSeconds(*seconds);
  return 0;
}

// BYTES of 'x' on each named stream, in alternating 64 KiB chunks so neither stream is finished
// long before the other. A reader that stops reading (an output limit) ends the flood quietly.
std::optional<int> FloodCommand(const Args& args) {
  const std::optional<long long> bytes = ParseInteger(args[0], 0, 1LL << 50);
  if (!bytes) return std::nullopt;
  std::vector<int> fds;
  if (args[1] == "stdout" || args[1] == "both") fds.push_back(STDOUT_FILENO);
  if (args[1] == "stderr" || args[1] == "both") fds.push_back(STDERR_FILENO);
  if (fds.empty()) return std::nullopt;
  signal(SIGPIPE, SIG_IGN);  // EPIPE from write(2) instead of death by signal
  const std::string chunk(64 * 1024, 'x');
  for (long long left = *bytes; left > 0;) {
    const size_t n = static_cast<size_t>(std::min<long long>(left, chunk.size()));
    for (const int fd : fds) {
      if (!WriteAll(fd, chunk.data(), n)) return errno == EPIPE ? 0 : 1;
    }
    left -= static_cast<long long>(n);
  }
  return 0;
}

}  // namespace azure_pricing::probe
