// sandbox_init: the first program of every bubblewrap sandbox. The sandbox has no network but
// loopback, so HTTPS_PROXY names a port here on 127.0.0.1 and this program relays each
// connection to it to the egress proxy's Unix socket, bind-mounted into the sandbox. Then it
// runs the requested program with exactly the environment it was given and exits with its
// status (128+N for a program killed by signal N); when it exits, bubblewrap's PID 1 exits and
// the kernel kills whatever is left.
//
//   sandbox_init [--forward PORT --to SOCKET] [--signal-exit-raw] (--pwd VALUE | --unset-pwd)
//                -- PROGRAM ARGS...
//
// Without --forward (a sandbox with closed egress) nothing listens and nothing is relayed.
// --signal-exit-raw exists for a conformance mutant only: a signalled program exits -1 (255).
// bubblewrap always sets PWD; --pwd/--unset-pwd restore what the request asked for, so the
// program's environment is exactly the requested one plus the egress variables.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>  // sigprocmask
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

// Exit codes of our own, in the range shells use for "could not run the command".
constexpr int kUsageExit = 125;
constexpr int kNotFoundExit = 127;
// A relay with no traffic either way for this long is dropped.
constexpr int kIdleMs = 120'000;

int ListenLoopback(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || listen(fd, 64) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

int ConnectUnix(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof addr.sun_path) return -1;
  std::memcpy(addr.sun_path, path.data(), path.size());
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd >= 0 && connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Copies bytes both ways until both directions are closed, passing half-closes on.
void Relay(int a, int b) {
  bool open[2] = {true, true};  // a->b, b->a
  char buf[16384];
  while (open[0] || open[1]) {
    pollfd fds[2] = {{open[0] ? a : -1, POLLIN, 0}, {open[1] ? b : -1, POLLIN, 0}};
    if (poll(fds, 2, kIdleMs) <= 0) break;
    for (int i = 0; i < 2; ++i) {
      if (!open[i] || fds[i].revents == 0) continue;
      const int from = i == 0 ? a : b;
      const int to = i == 0 ? b : a;
      const ssize_t n = read(from, buf, sizeof buf);
      if (n <= 0 || send(to, buf, static_cast<size_t>(n), MSG_NOSIGNAL) != n) {
        shutdown(to, SHUT_WR);
        open[i] = false;
      }
    }
  }
  close(a);
  close(b);
}

void AcceptLoop(int listener, std::string socket_path) {
  for (;;) {
    const int client = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      return;
    }
    const int upstream = ConnectUnix(socket_path);
    if (upstream < 0) {
      close(client);
      continue;
    }
    std::thread(Relay, client, upstream).detach();
  }
}

int RunProgram(char** argv, bool signal_exit_raw) {
  const pid_t pid = fork();
  if (pid < 0) return kUsageExit;
  if (pid == 0) {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    execvp(argv[0], argv);
    _exit(kNotFoundExit);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return signal_exit_raw ? -1 : 128 + WTERMSIG(status);
}

struct InitArgs {
  int port = 0;  // 0: no forwarder
  const char* socket = nullptr;
  bool signal_exit_raw = false;
  int program = 0;  // argv's index of the program
};

bool Is(const char* arg, const char* flag) { return std::strcmp(arg, flag) == 0; }

// The command line bubblewrap passes, in its fixed order; false when it is not one. PWD is set
// or unset here, as asked.
bool ParseArgs(int argc, char** argv, InitArgs& out) {
  int i = 1;
  if (i + 3 < argc && Is(argv[i], "--forward") && Is(argv[i + 2], "--to")) {
    out.port = std::atoi(argv[i + 1]);
    out.socket = argv[i + 3];
    if (out.port <= 0 || out.port >= 65536) return false;
    i += 4;
  }
  if (i < argc && Is(argv[i], "--signal-exit-raw")) {
    out.signal_exit_raw = true;
    ++i;
  }
  if (i + 1 < argc && Is(argv[i], "--unset-pwd") && Is(argv[i + 1], "--")) {
    unsetenv("PWD");
    out.program = i + 2;
  } else if (i + 2 < argc && Is(argv[i], "--pwd") && Is(argv[i + 2], "--")) {
    setenv("PWD", argv[i + 1], 1);
    out.program = i + 3;
  } else {
    return false;
  }
  return out.program < argc;
}

}  // namespace

int main(int argc, char** argv) {
  InitArgs args;
  if (!ParseArgs(argc, argv, args)) {
    std::fputs(
        "usage: sandbox_init [--forward PORT --to SOCKET] [--signal-exit-raw] "
        "(--pwd VALUE | --unset-pwd) -- PROGRAM ARGS...\n",
        stderr);
    return kUsageExit;
  }
  if (args.socket != nullptr) {
    const int listener = ListenLoopback(args.port);
    if (listener < 0) {
      std::fputs("sandbox_init: cannot listen on the sandbox's loopback\n", stderr);
      return kUsageExit;
    }
    std::thread(AcceptLoop, listener, std::string(args.socket)).detach();
  }
  const int status = RunProgram(argv + args.program, args.signal_exit_raw);
  // Threads may still be relaying; _exit ends the process without unwinding them.
  std::fflush(nullptr);
  _exit(status);
}
