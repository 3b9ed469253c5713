// Test helper: runs a program with exactly the given argv and environment, captures stdout and
// stderr in TEST_TMPDIR, and kills it at a deadline so a hang fails a case instead of a suite.
#ifndef FAKES_TESTING_RUN_PROGRAM_H_
#define FAKES_TESTING_RUN_PROGRAM_H_

#include <chrono>
#include <string>
#include <vector>

namespace azure_pricing::fakes::test_support {

struct ProgramRun {
  int exit_code = -1;  // -1 when it did not exit normally
  int signal = 0;      // the signal that ended it (not the deadline's SIGKILL); 0 when none
  bool timed_out = false;
  std::string out, err;
};

ProgramRun RunProgram(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                      std::chrono::seconds deadline = std::chrono::seconds(60));

}  // namespace azure_pricing::fakes::test_support

#endif  // FAKES_TESTING_RUN_PROGRAM_H_
