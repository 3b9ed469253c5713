#include "conformance/line_protocol/line_io.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <string>

namespace azure_pricing::conformance::line_protocol {
namespace {

using std::chrono::milliseconds;

struct Pipe {
  Pipe() { EXPECT_EQ(pipe(fds), 0); }
  ~Pipe() {
    for (int fd : fds) {
      if (fd >= 0) close(fd);
    }
  }
  void CloseWriter() {
    close(fds[1]);
    fds[1] = -1;
  }
  void CloseReader() {
    close(fds[0]);
    fds[0] = -1;
  }
  int fds[2] = {-1, -1};
};

TEST(LineReader, ReadsLinesThenAPartialLastLineThenEof) {
  Pipe p;
  ASSERT_TRUE(WriteAll(p.fds[1], "one\ntwo\nthr", Clock::now() + milliseconds(1000)));
  p.CloseWriter();
  LineReader reader(p.fds[0], 100);
  std::string line;
  ASSERT_EQ(reader.Next(line, std::nullopt), ReadResult::kLine);
  EXPECT_EQ(line, "one");
  ASSERT_EQ(reader.Next(line, std::nullopt), ReadResult::kLine);
  EXPECT_EQ(line, "two");
  ASSERT_EQ(reader.Next(line, std::nullopt), ReadResult::kLine);
  EXPECT_EQ(line, "thr");
  EXPECT_EQ(reader.Next(line, std::nullopt), ReadResult::kEof);
}

TEST(LineReader, ReportsALineOverTheLimitOnceAndSkipsItsRest) {
  Pipe p;
  ASSERT_TRUE(WriteAll(p.fds[1], std::string(50, 'x') + "\nok\n", Clock::now() + milliseconds(1000)));
  p.CloseWriter();
  LineReader reader(p.fds[0], 10);
  std::string line;
  EXPECT_EQ(reader.Next(line, std::nullopt), ReadResult::kTooLong);
  ASSERT_EQ(reader.Next(line, std::nullopt), ReadResult::kLine);
  EXPECT_EQ(line, "ok");
}

TEST(LineReader, GivesUpAtItsDeadlineOnAPeerThatSaysNothing) {
  Pipe p;
  LineReader reader(p.fds[0], 100);
  std::string line;
  const Clock::time_point start = Clock::now();
  EXPECT_EQ(reader.Next(line, start + milliseconds(100)), ReadResult::kTimeout);
  EXPECT_GE(Clock::now() - start, milliseconds(100));
}

TEST(WriteAll, FailsWithoutASignalWhenTheReaderIsGone) {
  Pipe p;
  p.CloseReader();
  // A SIGPIPE would end this test binary; a false return is the contract.
  EXPECT_FALSE(WriteAll(p.fds[1], "hello\n", Clock::now() + milliseconds(1000)));
}

}  // namespace
}  // namespace azure_pricing::conformance::line_protocol
