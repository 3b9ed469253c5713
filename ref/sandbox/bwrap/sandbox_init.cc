// sandbox_init: the first program of every bubblewrap sandbox. The sandbox has no network but
// loopback, so HTTPS_PROXY names a port here on 127.0.0.1 and this program relays each
// connection to it to the egress proxy's Unix socket, bind-mounted into the sandbox. Then it
// runs the requested program with exactly the environment it was given and exits with its
// status; when it exits, bubblewrap's PID 1 exits and the kernel kills whatever is left.
//
//   sandbox_init --forward PORT --to SOCKET (--pwd VALUE | --unset-pwd) -- PROGRAM ARGS...
//
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

int RunProgram(char** argv) {
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
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

// The fixed-position command line bubblewrap passes; false when it is not that.
bool ApplyPwd(int argc, char** argv, int* program) {
  if (argc < 8 || std::strcmp(argv[1], "--forward") != 0 || std::strcmp(argv[3], "--to") != 0) {
    return false;
  }
  if (std::strcmp(argv[5], "--unset-pwd") == 0 && std::strcmp(argv[6], "--") == 0) {
    unsetenv("PWD");
    *program = 7;
    return true;
  }
  if (argc >= 9 && std::strcmp(argv[5], "--pwd") == 0 && std::strcmp(argv[7], "--") == 0) {
    setenv("PWD", argv[6], 1);
    *program = 8;
    return true;
  }
  return false;
}

int main(int argc, char** argv) {
  int program = 0;
  if (!ApplyPwd(argc, argv, &program)) {
    std::fputs("usage: sandbox_init --forward PORT --to SOCKET (--pwd VALUE | --unset-pwd) -- "
               "PROGRAM ARGS...\n",
               stderr);
    return kUsageExit;
  }
  const int port = std::atoi(argv[2]);
  const int listener = port > 0 && port < 65536 ? ListenLoopback(port) : -1;
  if (listener < 0) {
    std::fputs("sandbox_init: cannot listen on the sandbox's loopback\n", stderr);
    return kUsageExit;
  }
  std::thread(AcceptLoop, listener, std::string(argv[4])).detach();
  const int status = RunProgram(argv + program);
  // Threads may still be relaying; _exit ends the process without unwinding them.
  std::fflush(nullptr);
  _exit(status);
}
