// Socket helpers shared by the network subcommands (net_commands.cc, https_get.cc): every call
// takes the operation's one Deadline.
#ifndef CONFORMANCE_BACKEND_PROBE_NET_IO_H_
#define CONFORMANCE_BACKEND_PROBE_NET_IO_H_

#include <string>

#include "conformance/backend/probe/probe.h"

namespace azure_pricing::conformance::backend::probe {

struct Dialed {
  int fd = -1;        // a connected non-blocking socket, or -1
  std::string error;  // strerror text, or "resolve: <gai_strerror>"; empty on success
};

// TCP to host:port (a name or an IP literal), trying each resolved address in turn.
Dialed Dial(const std::string& host, int port, const Deadline& deadline);

// True when `fd` is ready for `events` (POLLIN/POLLOUT) before the deadline.
bool WaitFor(int fd, short events, const Deadline& deadline);

}  // namespace azure_pricing::conformance::backend::probe

#endif  // CONFORMANCE_BACKEND_PROBE_NET_IO_H_
