// Test helper: plain sockets to a server on 127.0.0.1, for tests and benchmarks that speak the
// proxy protocol by hand (CONNECT, then TLS on the same socket).
#ifndef FAKES_TESTING_LOOPBACK_SOCKET_H_
#define FAKES_TESTING_LOOPBACK_SOCKET_H_

#include <string>

namespace azure_pricing::fakes::test_support {

// A socket listening on a free 127.0.0.1 port with `backlog`, its port in `port`; -1 on failure.
int ListenLoopback(int backlog, int& port);

// A connected socket to 127.0.0.1:port, or -1. With `recv_timeout_seconds` > 0 a read that
// waits longer fails, so a server that never answers fails a case instead of hanging a suite.
int DialLoopback(int port, int recv_timeout_seconds = 0);

// Reads byte by byte up to and including the first blank line (so nothing after the head is
// consumed: TLS may follow on the same socket), or until EOF or the timeout.
std::string ReadHead(int fd);

}  // namespace azure_pricing::fakes::test_support

#endif  // FAKES_TESTING_LOOPBACK_SOCKET_H_
