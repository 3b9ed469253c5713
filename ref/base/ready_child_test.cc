#include "ref/base/ready_child.h"

#include <errno.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "ref/base/files.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::base {
namespace {

using Clock = std::chrono::steady_clock;
using ::testing::HasSubstr;

std::string TempDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

ReadyChildSpec Shell(const std::string& script) {
  ReadyChildSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  spec.timeout = std::chrono::milliseconds(5'000);
  return spec;
}

// True once `pid` is gone entirely: a zombie still answers kill(pid, 0).
bool Reaped(pid_t pid) { return kill(pid, 0) != 0 && errno == ESRCH; }

// The pid a child wrote to `path` before it misbehaved.
pid_t PidFrom(const std::string& path) {
  const StatusOr<std::string> text = ReadFile(path);
  return text.ok() ? static_cast<pid_t>(std::atoi(text->c_str())) : 0;
}

TEST(ReadyChildTest, ReadyChildGivesItsBannerAndIsStoppedByItsOwner) {
  // The ready line arrives in a second write, after a line that only contains the word.
  StatusOr<std::unique_ptr<ReadyChild>> child = ReadyChild::Start(
      Shell("echo 'proxy http://127.0.0.1:4242'; echo already; sleep 0.1; echo ready; "
                  "exec sleep 30"));
  ASSERT_THAT(child, IsOk());
  EXPECT_EQ((*child)->banner(), "proxy http://127.0.0.1:4242\nalready\nready\n");
  EXPECT_EQ((*child)->BannerLine("proxy http://127.0.0.1:"), "4242");
  EXPECT_EQ((*child)->BannerLine("https "), std::nullopt);
  EXPECT_EQ((*child)->Ended(), "");
  const pid_t pid = (*child)->pid();
  child->reset();
  EXPECT_TRUE(Reaped(pid));
}

TEST(ReadyChildTest, ChildThatExitsEarlyIsNamedAndItsOutputKept) {
  std::string output;
  const auto started = Clock::now();
  EXPECT_THAT(ReadyChild::Start(Shell("echo 'cannot bind'; exit 3"), &output),
              ProgramErrorIs(kChildExitedEarly));
  EXPECT_EQ(output, "cannot bind\n");
  EXPECT_LT(Clock::now() - started, std::chrono::seconds(4));  // not the time limit
}

TEST(ReadyChildTest, ChildThatNeverAnswersIsKilledAndReapedAtTheDeadline) {
  const std::string pid_file = TempDir() + "/ready_child_silent.pid";
  ReadyChildSpec spec = Shell("echo $$ > " + pid_file + "; echo starting; exec sleep 30");
  spec.timeout = std::chrono::milliseconds(300);
  std::string output;
  const auto started = Clock::now();
  EXPECT_THAT(ReadyChild::Start(spec, &output), ProgramErrorIs(kChildSilent));
  EXPECT_LT(Clock::now() - started, std::chrono::seconds(4));  // SIGTERM was enough
  EXPECT_EQ(output, "starting\n");
  const pid_t pid = PidFrom(pid_file);
  ASSERT_GT(pid, 0);
  EXPECT_TRUE(Reaped(pid));
}

TEST(ReadyChildTest, ChildThatIgnoresSigtermIsKilledAfterTheGrace) {
  const std::string pid_file = TempDir() + "/ready_child_stubborn.pid";
  ReadyChildSpec spec = Shell("trap '' TERM; echo $$ > " + pid_file + "; exec sleep 30");
  spec.timeout = std::chrono::milliseconds(200);
  spec.stop_grace = std::chrono::milliseconds(200);
  EXPECT_THAT(ReadyChild::Start(spec), ProgramErrorIs(kChildSilent));
  const pid_t pid = PidFrom(pid_file);
  ASSERT_GT(pid, 0);
  EXPECT_TRUE(Reaped(pid));
}

TEST(ReadyChildTest, MissingProgramAndStderrFile) {
  ReadyChildSpec missing;
  missing.argv = {"/nonexistent/program"};
  EXPECT_THAT(ReadyChild::Start(missing), ProgramErrorIs(kChildExitedEarly));
  EXPECT_THAT(ReadyChild::Start(ReadyChildSpec{}), ProgramErrorIs(kChildNotStarted));

  ReadyChildSpec logged = Shell("echo 'said on stderr' >&2; echo ready; exec sleep 30");
  logged.stderr_path = TempDir() + "/ready_child_stderr.log";
  {
    StatusOr<std::unique_ptr<ReadyChild>> child = ReadyChild::Start(logged);
    ASSERT_THAT(child, IsOk());
  }
  const StatusOr<std::string> log = ReadFile(logged.stderr_path);
  ASSERT_THAT(log, IsOk());
  EXPECT_THAT(*log, HasSubstr("said on stderr"));
}

TEST(ReadyChildTest, EndedSaysHowAReadyChildEnded) {
  StatusOr<std::unique_ptr<ReadyChild>> child =
      ReadyChild::Start(Shell("echo ready; exec sleep 0.1"));
  ASSERT_THAT(child, IsOk());
  const auto deadline = Clock::now() + std::chrono::seconds(5);
  std::string ended;
  while (ended.empty() && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ended = (*child)->Ended();
  }
  EXPECT_EQ(ended, "exited 0");
}

}  // namespace
}  // namespace azure_pricing::base
