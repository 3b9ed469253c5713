// The process subcommands: what the probe was given (argv, environment, directory), the
// process shapes a backend must contain or clean up (a tree, a daemon, closed pipes, a flood,
// a detached listener) and how a signalled program's end is reported.
//   listen MARKER PORT SECONDS  a daemon (as `daemon` makes one, carrying MARKER in its command
//                               line) that listens on TCP 127.0.0.1:PORT and accepts and closes
//                               connections for SECONDS; {"listening": bool, "error": "..."}
//                               once it said whether listen() worked (or 5 s passed)
//   signal N                    dies of signal N, raised on itself with the default action;
//                               {"survived": true} when that action is to go on
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "conformance/backend/probe/net_io.h"
#include "conformance/backend/probe/probe.h"

extern char** environ;

namespace azure_pricing::conformance::backend::probe {
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

// What the listener tells the probe: the call that failed (kListening: none) and its errno.
struct ListenerReport {
  int call = 0;
  int error = 0;
};
constexpr const char* kListenerCalls[] = {"socket", "bind", "listen"};
constexpr int kListening = 3;

int OpenListener(int port, ListenerReport& report) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    report = {0, errno};
    return -1;
  }
  // Connections of an earlier listener on the port, still in TIME_WAIT, must not fail the bind.
  const int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    report = {1, errno};
  } else if (listen(fd, 16) != 0) {
    report = {2, errno};
  } else {
    report = {kListening, 0};
    return fd;
  }
  close(fd);
  return -1;
}

// The listener's whole life: report over `report_fd`, then accept and close until SECONDS pass.
[[noreturn]] void ServeListener(int report_fd, int port, double seconds) {
  ListenerReport report;
  const int fd = OpenListener(port, report);
  WriteAll(report_fd, reinterpret_cast<const char*>(&report), sizeof report);
  close(report_fd);
  if (fd < 0) _exit(1);
  const Deadline deadline(static_cast<int>(seconds * 1000));
  while (!deadline.Passed()) {
    if (!WaitFor(fd, POLLIN, deadline)) continue;
    const int connection = accept4(fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection >= 0) close(connection);
  }
  _exit(0);
}

// The listener's report, read within 5 s: a listener that never reports must not hang the probe.
Json AwaitListener(int read_end) {
  const Deadline deadline(5000);
  ListenerReport report;
  char* const bytes = reinterpret_cast<char*>(&report);
  size_t got = 0;
  std::string error;
  while (got < sizeof report && error.empty()) {
    if (!WaitFor(read_end, POLLIN, deadline)) {
      error = "the listener did not report within 5 s";
      break;
    }
    const ssize_t n = read(read_end, bytes + got, sizeof report - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) error = "the listener ended without reporting";
    if (n > 0) got += static_cast<size_t>(n);
  }
  close(read_end);
  if (error.empty() && report.call != kListening) {
    const bool known = report.call >= 0 && report.call < kListening;
    error = std::string(known ? kListenerCalls[report.call] : "listener") + ": " +
            std::strerror(report.error);
  }
  return {{"listening", error.empty()}, {"error", error}};
}

bool IsStopSignal(int number) {
  return number == SIGSTOP || number == SIGTSTP || number == SIGTTIN || number == SIGTTOU;
}

// A stop signal's default action stops the probe until a SIGCONT nobody else would send: this
// helper sends one every 100 ms (until it is killed or the probe is gone), so the probe answers
// instead of hanging.
pid_t StartWaker() {
  const pid_t probe = getpid();
  std::fflush(stdout);
  const pid_t waker = fork();
  if (waker != 0) return waker;
  ToDevNull(STDOUT_FILENO, O_WRONLY);  // one JSON object, from the probe only
  while (getppid() == probe) {
    kill(probe, SIGCONT);
    SleepSeconds(0.1);
  }
  _exit(0);
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

// The daemon shape of `daemon` (double fork, setsid, no stdio), minus the exec: the forked
// listener keeps the probe's command line, MARKER included.
std::optional<int> ListenCommand(const Args& args) {
  const std::optional<long long> port = ParseInteger(args[1], 1, 65535);
  const std::optional<double> seconds = ParseSeconds(args[2]);
  if (!port || !seconds) return std::nullopt;
  int report[2];
  const bool piped = pipe2(report, O_CLOEXEC) == 0;
  std::fflush(stdout);
  const pid_t child = piped ? fork() : -1;
  if (child < 0) {
    PrintJson({{"listening", false},
               {"error", std::string(piped ? "fork: " : "pipe: ") + std::strerror(errno)}});
    return 0;
  }
  if (child == 0) {
    close(report[0]);
    setsid();
    if (fork() != 0) _exit(0);
    ToDevNull(STDIN_FILENO, O_RDONLY);
    ToDevNull(STDOUT_FILENO, O_WRONLY);
    ToDevNull(STDERR_FILENO, O_WRONLY);
    ServeListener(report[1], static_cast<int>(*port), *seconds);
  }
  close(report[1]);
  waitpid(child, nullptr, 0);
  PrintJson(AwaitListener(report[0]));
  return 0;
}

std::optional<int> SignalCommand(const Args& args) {
  const std::optional<long long> number = ParseInteger(args[0], 1, 64);
  if (!number) return std::nullopt;
  const int signal_number = static_cast<int>(*number);
  // What is measured is the exit status a backend reports, not a core file left behind.
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  // The default action, unblocked: a disposition or mask the backend passed down must not change
  // the answer. (SIGKILL and SIGSTOP refuse both calls; nothing can change theirs anyway.)
  signal(signal_number, SIG_DFL);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, signal_number);
  sigprocmask(SIG_UNBLOCK, &only, nullptr);
  const pid_t waker = IsStopSignal(signal_number) ? StartWaker() : -1;
  // kill, not raise: glibc's raise refuses the signals it reserves for itself (32, 33).
  kill(getpid(), signal_number);
  if (waker > 0) {
    kill(waker, SIGKILL);
    waitpid(waker, nullptr, 0);
  }
  PrintJson({{"survived", true}});
  return 0;
}

}  // namespace azure_pricing::conformance::backend::probe
