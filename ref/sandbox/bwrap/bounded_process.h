// Runs one program with a wall-clock deadline and one output budget shared by stdout and
// stderr, enforced while reading: past either, the program's whole process group is killed and
// reaped and the caller gets the reason, never partial output. The call ends when the program
// itself exits; anything it left running in its group is killed then, so a child that keeps the
// pipes open (the real azmcp leaves one) does not keep the call alive.
//
//   bwrap::BoundedRun run{.argv = {...}, .env = {...}, .timeout_ms = 60'000,
//                         .max_output_bytes = 8 << 20};
//   StatusOr<sandbox::ExecResult> result = bwrap::RunBounded(run);
#ifndef REF_SANDBOX_BWRAP_BOUNDED_PROCESS_H_
#define REF_SANDBOX_BWRAP_BOUNDED_PROCESS_H_

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ref/sandbox/backend.h"

namespace azure_pricing::sandbox::bwrap {

// Reason codes (Outcome::kFailed) beyond backend.h's timeout and output_limit.
inline constexpr Reason kSpawnFailed = "spawn_failed";
// The exit status could not be collected (SIGCHLD ignored, or another waiter took it).
inline constexpr Reason kWaitFailed = "wait_failed";

// Limits set with setrlimit before exec; they hold for every process the program starts.
// Zero leaves a limit as inherited.
struct ResourceLimits {
  uint64_t address_space_bytes = 0;
  uint64_t file_size_bytes = 0;
  uint64_t open_files = 0;
};

// Ways to get bounded execution wrong, one flag each; all false except in the conformance
// suite's mutants, which prove the suite notices.
struct BoundedWeakenings {
  bool no_timeout_kill = false;      // past the deadline, keep waiting for the program
  bool no_output_cap = false;        // read everything, whatever the budget
  bool stderr_uncounted = false;     // only stdout counts toward the budget
  bool partial_on_overflow = false;  // on overflow return what was read, as success
  bool group_survives = false;       // kill only the program, never its process group
};

struct BoundedRun {
  std::vector<std::string> argv;  // argv[0] is a path; no PATH search
  std::vector<std::string> env;
  int64_t timeout_ms = 60'000;
  int64_t max_output_bytes = 8 * 1024 * 1024;
  ResourceLimits limits;
  BoundedWeakenings weakenings;
  // Called with the program's pid once it runs (tests and mutants observe it).
  std::function<void(pid_t)> on_start;
};

StatusOr<ExecResult> RunBounded(const BoundedRun& run);

}  // namespace azure_pricing::sandbox::bwrap

#endif  // REF_SANDBOX_BWRAP_BOUNDED_PROCESS_H_
