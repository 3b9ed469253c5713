#include "ref/base/subprocess.h"

#include <errno.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "ref/base/files.h"
#include "ref/base/test_tmpdir.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::base {
namespace {

using Clock = Subprocess::Clock;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

SubprocessSpec Shell(const std::string& script) {
  return {.argv = {"/bin/sh", "-c", script}, .out = Stdio::Pipe(), .err = Stdio::Pipe()};
}

// True once our child `pid` is reaped: no longer ours to wait for, and no zombie left.
bool Reaped(pid_t pid) {
  return waitpid(pid, nullptr, WNOHANG) < 0 && errno == ECHILD && kill(pid, 0) != 0 &&
         errno == ESRCH;
}

// True once `pid`, not our child, has died: gone, or a zombie its new parent has yet to reap.
bool DiesWithin(pid_t pid, std::chrono::seconds wait) {
  const Clock::time_point deadline = Clock::now() + wait;
  do {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return true;
    const size_t paren = line.rfind(") ");
    if (paren != std::string::npos && line.compare(paren + 2, 1, "Z") == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  } while (Clock::now() < deadline);
  return false;
}

// The pid after `label` in a child's output ("grandchild 1234\n"); 0 when it is not there.
pid_t PidAfter(const std::string& output, const std::string& label) {
  const size_t at = output.find(label + " ");
  return at == std::string::npos ? 0 : std::atoi(output.c_str() + at + label.size() + 1);
}

TEST(SubprocessTest, ReportsTheExitCodeAndWhatItWrote) {
  StatusOr<SubprocessResult> run =
      Subprocess::Run(Shell("echo out; echo err >&2; exit 3"), std::chrono::seconds(20));
  ASSERT_THAT(run, IsOk());
  EXPECT_EQ(run->exit_code, 3);
  EXPECT_EQ(run->signal, 0);
  EXPECT_FALSE(run->timed_out);
  EXPECT_EQ(run->out, "out\n");
  EXPECT_EQ(run->err, "err\n");
}

TEST(SubprocessTest, ReportsTheSignalThatEndedIt) {
  StatusOr<SubprocessResult> run =
      Subprocess::Run(Shell("kill -USR1 $$"), std::chrono::seconds(20));
  ASSERT_THAT(run, IsOk());
  EXPECT_EQ(run->signal, SIGUSR1);
  EXPECT_EQ(run->exit_code, -1);
  EXPECT_FALSE(run->timed_out);
}

// The grandchild ignores SIGTERM and holds the stdout pipe open: only SIGKILL to the whole group
// ends it, and with it the pipe.
TEST(SubprocessTest, DeadlineKillsTheWholeGroupAndReapsTheChild) {
  StatusOr<Subprocess> child = Subprocess::Start(
      Shell("sh -c 'trap \"\" TERM; echo grandchild $$; exec sleep 30' & sleep 30"));
  ASSERT_THAT(child, IsOk());
  const pid_t pid = child->pid();
  const Clock::time_point started = Clock::now();
  const SubprocessResult run = child->Wait(started + std::chrono::seconds(2));
  EXPECT_LT(Clock::now() - started, std::chrono::seconds(10));
  EXPECT_TRUE(run.timed_out);
  EXPECT_EQ(run.exit_code, -1);
  EXPECT_EQ(run.signal, 0);  // the deadline's SIGKILL is not reported as the child's end
  const pid_t grandchild = PidAfter(run.out, "grandchild");
  ASSERT_GT(grandchild, 0) << run.out;
  EXPECT_TRUE(DiesWithin(grandchild, std::chrono::seconds(5)));
  EXPECT_TRUE(Reaped(pid));
  EXPECT_EQ(child->pid(), 0);
}

TEST(SubprocessTest, WhatAnExitedChildLeftInItsGroupIsKilled) {
  const Clock::time_point started = Clock::now();
  StatusOr<SubprocessResult> run = Subprocess::Run(
      Shell("sh -c 'trap \"\" TERM; echo grandchild $$; exec sleep 30' & sleep 0.2; exit 0"),
      std::chrono::seconds(20));
  ASSERT_THAT(run, IsOk());
  EXPECT_LT(Clock::now() - started, std::chrono::seconds(10));
  EXPECT_EQ(run->exit_code, 0);
  EXPECT_FALSE(run->timed_out);
  const pid_t grandchild = PidAfter(run->out, "grandchild");
  ASSERT_GT(grandchild, 0) << run->out;
  EXPECT_TRUE(DiesWithin(grandchild, std::chrono::seconds(5)));
}

TEST(SubprocessTest, AProgramThatCannotStartIsAStatus) {
  EXPECT_THAT(Subprocess::Start({.argv = {"/nonexistent/program"}}),
              ProgramErrorIs(kSubprocessNotStarted));
  EXPECT_THAT(Subprocess::Start({}), ProgramErrorIs(kSubprocessNotStarted));
  EXPECT_THAT(Subprocess::Start({.argv = {"/bin/true"}, .working_directory = "/nonexistent"}),
              ProgramErrorIs(kSubprocessNotStarted));
  EXPECT_THAT(Subprocess::Start({.argv = {"/bin/cat"}, .in = Stdio::File("/nonexistent/in")}),
              ProgramErrorIs(kSubprocessNotStarted));
  // The message is fixed: no argument of the call is in it.
  const StatusOr<Subprocess> missing = Subprocess::Start({.argv = {"/nonexistent/program"}});
  EXPECT_THAT(missing.status().message(), Not(HasSubstr("nonexistent")));
}

TEST(SubprocessTest, TheOwnerKillsAndReapsAChildStillRunning) {
  pid_t pid = 0;
  const Clock::time_point started = Clock::now();
  {
    StatusOr<Subprocess> child = Subprocess::Start({.argv = {"/bin/sleep", "30"}});
    ASSERT_THAT(child, IsOk());
    pid = child->pid();
    ASSERT_GT(pid, 0);
  }
  EXPECT_LT(Clock::now() - started, std::chrono::seconds(10));
  EXPECT_TRUE(Reaped(pid));
}

TEST(SubprocessTest, ExitedByLeavesAZombieForKillAndReap) {
  StatusOr<Subprocess> sleeper = Subprocess::Start({.argv = {"/bin/sleep", "30"}});
  ASSERT_THAT(sleeper, IsOk());
  EXPECT_FALSE(sleeper->ExitedBy(Clock::now() + std::chrono::milliseconds(100)));

  StatusOr<Subprocess> child = Subprocess::Start({.argv = {"/bin/true"}});
  ASSERT_THAT(child, IsOk());
  const pid_t pid = child->pid();
  EXPECT_TRUE(child->ExitedBy(Clock::now() + std::chrono::seconds(20)));
  EXPECT_EQ(kill(pid, 0), 0);  // still there, unreaped: its group id cannot be reused yet
  child->KillAndReap();
  EXPECT_TRUE(Reaped(pid));
  EXPECT_EQ(child->pid(), 0);
  EXPECT_TRUE(child->ExitedBy(Clock::now()));  // no child is one that has exited
}

TEST(SubprocessTest, GivesExactlyItsEnvironmentAndWorkingDirectory) {
  SubprocessSpec env = {.argv = {"/usr/bin/env"}, .env = {{"ONLY=1"}}, .out = Stdio::Pipe()};
  StatusOr<SubprocessResult> run = Subprocess::Run(env, std::chrono::seconds(20));
  ASSERT_THAT(run, IsOk());
  EXPECT_EQ(run->out, "ONLY=1\n");

  setenv("SUBPROCESS_TEST_INHERITED", "yes", 1);
  env.env.reset();  // this process's environment
  run = Subprocess::Run(env, std::chrono::seconds(20));
  ASSERT_THAT(run, IsOk());
  EXPECT_THAT(run->out, HasSubstr("SUBPROCESS_TEST_INHERITED=yes\n"));

  const std::string dir = std::filesystem::canonical(TestTmpDir()).string();
  run = Subprocess::Run({.argv = {"/bin/pwd"}, .working_directory = dir, .out = Stdio::Pipe()},
                        std::chrono::seconds(20));
  ASSERT_THAT(run, IsOk());
  EXPECT_EQ(run->out, dir + "\n");
}

TEST(SubprocessTest, StreamsGoToFilesDevNullOrTakenPipes) {
  const std::string in = TestTmpDir() + "/subprocess_in", out = TestTmpDir() + "/subprocess_out";
  ASSERT_THAT(WriteFileAtomically(in, "from a file\n"), IsOk());
  StatusOr<SubprocessResult> run =
      Subprocess::Run({.argv = {"/bin/cat"}, .in = Stdio::File(in), .out = Stdio::File(out)},
                      std::chrono::seconds(20));
  ASSERT_THAT(run, IsOk());
  EXPECT_EQ(run->exit_code, 0);
  EXPECT_THAT(ReadFile(out), IsOkAndHolds(std::string("from a file\n")));

  run = Subprocess::Run({.argv = {"/bin/cat"}, .in = Stdio::DevNull(), .out = Stdio::Pipe()},
                        std::chrono::seconds(20));
  ASSERT_THAT(run, IsOk());
  EXPECT_EQ(run->out, "");

  StatusOr<Subprocess> cat =
      Subprocess::Start({.argv = {"/bin/cat"}, .in = Stdio::Pipe(), .out = Stdio::Pipe()});
  ASSERT_THAT(cat, IsOk());
  const int to_child = cat->TakeIn(), from_child = cat->TakeOut();
  ASSERT_GE(to_child, 0);
  ASSERT_GE(from_child, 0);
  EXPECT_EQ(cat->TakeOut(), -1);  // taken once
  ASSERT_EQ(write(to_child, "piped\n", 6), 6);
  close(to_child);
  char buffer[16] = {};
  EXPECT_EQ(read(from_child, buffer, sizeof buffer), 6);
  EXPECT_THAT(std::string(buffer), StartsWith("piped\n"));
  close(from_child);
  EXPECT_EQ(cat->Wait(Clock::now() + std::chrono::seconds(20)).exit_code, 0);
}

}  // namespace
}  // namespace azure_pricing::base
