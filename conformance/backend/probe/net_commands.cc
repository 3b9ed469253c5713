// connect, and the socket helpers https_get.cc shares: does the sandbox have a network besides
// loopback? Every step runs on a non-blocking socket under one deadline, so a sandbox that drops
// packets gives an answer instead of a hang.
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "conformance/backend/probe/net_io.h"
#include "conformance/backend/probe/probe.h"

namespace azure_pricing::conformance::backend::probe {
namespace {

// The first address of `info` that accepts a connection before the deadline.
Dialed DialAny(const addrinfo* info, const Deadline& deadline) {
  Dialed out{-1, "no address"};
  for (const addrinfo* a = info; a != nullptr; a = a->ai_next) {
    const int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
                          a->ai_protocol);
    if (fd < 0) {
      out.error = std::strerror(errno);
      continue;
    }
    int error = connect(fd, a->ai_addr, a->ai_addrlen) == 0 ? 0 : errno;
    if (error == EINPROGRESS) {
      if (WaitFor(fd, POLLOUT, deadline)) {
        socklen_t size = sizeof error;
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size);
      } else {
        error = ETIMEDOUT;
      }
    }
    if (error == 0) return {fd, ""};
    close(fd);
    out.error = std::strerror(error);
    if (deadline.Passed()) break;
  }
  return out;
}

}  // namespace

bool WaitFor(int fd, short events, const Deadline& deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int n = poll(&p, 1, deadline.RemainingMs());
    if (n < 0 && errno == EINTR) continue;
    // POLLERR/POLLHUP count as ready: the call that follows reports what went wrong.
    return n > 0;
  }
}

// getaddrinfo has no deadline of its own; in a sandbox without a network it fails fast (no
// resolver is reachable), which is the answer the probe is after.
Dialed Dial(const std::string& host, int port, const Deadline& deadline) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  // No AI_ADDRCONFIG: with only loopback up (a sandbox's usual network) it would hide
  // localhost's addresses, and "localhost" must still resolve there.
  addrinfo* info = nullptr;
  const int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &info);
  if (rc != 0) return {-1, std::string("resolve: ") + gai_strerror(rc)};
  Dialed out = DialAny(info, deadline);
  freeaddrinfo(info);
  return out;
}

std::optional<int> ConnectCommand(const Args& args) {
  const std::optional<long long> port = ParseInteger(args[1], 1, 65535);
  const std::optional<long long> timeout_ms = ParseInteger(args[2], 0, 3'600'000);
  if (!port || !timeout_ms) return std::nullopt;
  const Deadline deadline(static_cast<int>(*timeout_ms));
  const Dialed dialed = Dial(args[0], static_cast<int>(*port), deadline);
  if (dialed.fd >= 0) close(dialed.fd);
  PrintJson({{"connected", dialed.fd >= 0}, {"error", dialed.error}});
  return 0;
}

}  // namespace azure_pricing::conformance::backend::probe
