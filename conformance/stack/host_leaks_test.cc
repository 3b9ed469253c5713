// The leak check can fail: a process left behind (named as misbehaving_cli names its orphans),
// an open descriptor and a file in a watched directory each show, and go once cleaned up.
#include "conformance/stack/host_leaks.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "conformance/citations/cites.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azure_pricing::conformance::stack {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

CITES("INTRO-007");
TEST(HostLeaksTest, SeesAProcessADescriptorAndAFileLeftBehind) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = std::string(tmp != nullptr ? tmp : "/tmp") + "/watched";
  std::filesystem::create_directories(dir);
  const HostSnapshot before = TakeSnapshot({.dirs = {dir}});
  EXPECT_THAT(Differences(before, TakeSnapshot(before.scope)), IsEmpty());

  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    prctl(PR_SET_NAME, kOrphanName);
    for (;;) pause();
  }
  const int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  std::ofstream(dir + "/left") << "x";
  const std::vector<std::string> seen =
      WaitUntilClean(before, std::chrono::milliseconds(300));  // never clean: times out
  std::string all;
  for (const std::string& s : seen) all += s + "\n";
  EXPECT_THAT(all, HasSubstr("process left: " + std::to_string(child)));
  EXPECT_THAT(all, HasSubstr("orphan left: " + std::to_string(child)));
  EXPECT_THAT(all, HasSubstr("open descriptors"));
  EXPECT_THAT(seen, Contains("file left: " + dir + "/left"));

  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  close(fd);
  std::filesystem::remove(dir + "/left");
  EXPECT_THAT(WaitUntilClean(before, std::chrono::seconds(5)), IsEmpty());
}

}  // namespace
}  // namespace azure_pricing::conformance::stack
