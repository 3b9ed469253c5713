#include "fakes/testing/loopback_socket.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

namespace azure_pricing::fakes::test_support {
namespace {

// A listener on a free loopback port.
int Listen(int& port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || listen(fd, 4) != 0) {
    close(fd);
    return -1;
  }
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  port = ntohs(addr.sin_port);
  return fd;
}

TEST(LoopbackSocketTest, ReadsOneHeadAndLeavesWhatFollows) {
  int port = 0;
  const int listener = Listen(port);
  ASSERT_GE(listener, 0);
  std::thread server([listener] {
    const int c = accept(listener, nullptr, nullptr);
    const std::string reply = "HTTP/1.1 200 OK\r\nX: y\r\n\r\nrest";
    send(c, reply.data(), reply.size(), MSG_NOSIGNAL);
    close(c);
  });
  const int fd = DialLoopback(port, 5);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(ReadHead(fd), "HTTP/1.1 200 OK\r\nX: y\r\n\r\n");
  char rest[8];
  EXPECT_EQ(recv(fd, rest, sizeof rest, MSG_WAITALL), 4);
  close(fd);
  server.join();
  close(listener);
}

TEST(LoopbackSocketTest, NothingListeningGivesMinusOne) {
  int port = 0;
  const int listener = Listen(port);
  ASSERT_GE(listener, 0);
  close(listener);  // the port is now (almost certainly) free: connections are refused
  EXPECT_EQ(DialLoopback(port), -1);
}

}  // namespace
}  // namespace azure_pricing::fakes::test_support
