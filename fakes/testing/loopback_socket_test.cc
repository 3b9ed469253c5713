#include "fakes/testing/loopback_socket.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

namespace azure_pricing::fakes::test_support {
namespace {


TEST(LoopbackSocketTest, ReadsOneHeadAndLeavesWhatFollows) {
  int port = 0;
  const int listener = ListenLoopback(4, port);
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
  const int listener = ListenLoopback(4, port);
  ASSERT_GE(listener, 0);
  close(listener);  // the port is now (almost certainly) free: connections are refused
  EXPECT_EQ(DialLoopback(port), -1);
}

}  // namespace
}  // namespace azure_pricing::fakes::test_support
