#include "fakes/testing/run_program.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <thread>
#include <utility>

#include "ref/base/files.h"
#include "ref/base/test_tmpdir.h"

namespace azure_pricing::fakes::test_support {
namespace {

// A capture file the child never wrote reads as empty: the run's exit code tells that story.
std::string Slurp(const std::string& path) {
  StatusOr<std::string> content = base::ReadFile(path);
  return content.ok() ? std::move(content).value() : std::string();
}

}  // namespace

ProgramRun RunProgram(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                      std::chrono::seconds deadline) {
  const std::string& dir = base::TestTmpDir();
  const std::string out = dir + "/program.out", err = dir + "/program.err";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> args = argv, vars = env;
  std::vector<char*> argp, envp;
  for (std::string& a : args) argp.push_back(a.data());
  argp.push_back(nullptr);
  for (std::string& e : vars) envp.push_back(e.data());
  envp.push_back(nullptr);
  ProgramRun run;
  pid_t pid = 0;
  if (posix_spawn(&pid, args[0].c_str(), &actions, nullptr, argp.data(), envp.data()) == 0) {
    int status = 0;
    const auto end = std::chrono::steady_clock::now() + deadline;
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > end) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        run.timed_out = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!run.timed_out && WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
    if (!run.timed_out && WIFSIGNALED(status)) run.signal = WTERMSIG(status);
  }
  posix_spawn_file_actions_destroy(&actions);
  run.out = Slurp(out);
  run.err = Slurp(err);
  return run;
}

}  // namespace azure_pricing::fakes::test_support
