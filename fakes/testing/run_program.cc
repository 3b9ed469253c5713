#include "fakes/testing/run_program.h"

#include <utility>

#include "ref/base/files.h"
#include "ref/base/subprocess.h"
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
  const StatusOr<base::SubprocessResult> ran = base::Subprocess::Run(
      {.argv = argv, .env = env, .in = base::Stdio::DevNull(), .out = base::Stdio::File(out),
       .err = base::Stdio::File(err)},
      deadline);
  ProgramRun run;
  if (ran.ok()) {
    run.exit_code = ran->exit_code;
    run.signal = ran->signal;
    run.timed_out = ran->timed_out;
  }
  run.out = Slurp(out);
  run.err = Slurp(err);
  return run;
}

}  // namespace azure_pricing::fakes::test_support
