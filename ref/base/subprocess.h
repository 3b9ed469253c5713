// Runs a program as a child in a process group of its own, waits for it with a deadline, and never
// leaves anything behind: at the deadline, and when the child exits, the whole group is sent
// SIGKILL, and the child is always reaped, by Wait or else by its owner's destructor.
//
//   StatusOr<SubprocessResult> run = Subprocess::Run(
//       {.argv = {"/usr/bin/env"}, .env = {{"A=1"}}, .out = Stdio::Pipe()},
//       std::chrono::seconds(10));
//   // run->exit_code == 0, run->out == "A=1\n"
#ifndef REF_BASE_SUBPROCESS_H_
#define REF_BASE_SUBPROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ref/status/status.h"

namespace azure_pricing::base {

// A program error: no argv, no pipe, or the program (or its working directory, or a file for its
// input or output) could not be used. The message is fixed; the caller names the program.
inline constexpr Reason kSubprocessNotStarted = "subprocess_not_started";

// Where one of the child's standard streams goes.
struct Stdio {
  enum class Kind { kInherit, kDevNull, kFile, kPipe };
  static Stdio Inherit() { return {}; }
  static Stdio DevNull() { return {Kind::kDevNull, ""}; }
  // Read for stdin; for stdout and stderr created or truncated (0644).
  static Stdio File(std::string path) { return {Kind::kFile, std::move(path)}; }
  // A close-on-exec pipe whose other end this process holds: Take*() hands it to the caller,
  // otherwise Wait reads it (stdout, stderr) or closes it (stdin: the child reads EOF).
  static Stdio Pipe() { return {Kind::kPipe, ""}; }

  Kind kind = Kind::kInherit;
  std::string path;  // kFile
};

struct SubprocessSpec {
  std::vector<std::string> argv;  // argv[0] is a path; no PATH search
  // nullopt: this process's environment; otherwise exactly these NAME=VALUE entries.
  std::optional<std::vector<std::string>> env;
  std::string working_directory;  // empty: this process's
  Stdio in, out, err;
};

struct SubprocessResult {
  int exit_code = -1;      // -1 unless it exited by itself
  int signal = 0;          // the signal that ended it, never the deadline's SIGKILL; 0 when none
  bool timed_out = false;  // the deadline came first; it was killed then
  std::string out, err;    // what it wrote to a stdout or stderr pipe that was not taken
};

class Subprocess {
 public:
  using Clock = std::chrono::steady_clock;

  // Spawns spec.argv with a clean signal state (no signal blocked, SIGPIPE at its default).
  static StatusOr<Subprocess> Start(const SubprocessSpec& spec);
  // Start and Wait: the child's result by the timeout (plus at most a second to read its pipes).
  static StatusOr<SubprocessResult> Run(const SubprocessSpec& spec,
                                        std::chrono::milliseconds timeout);

  Subprocess() = default;  // owns no child
  Subprocess(Subprocess&& other) noexcept;
  Subprocess& operator=(Subprocess&& other) noexcept;  // the child it held is killed and reaped
  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;
  ~Subprocess() { KillAndReap(); }

  pid_t pid() const { return pid_; }  // also its process group; 0 when none, or reaped

  // This process's end of a Stdio::Pipe(), now the caller's to close; -1 when there is none.
  int TakeIn() { return Take(0); }
  int TakeOut() { return Take(1); }
  int TakeErr() { return Take(2); }

  // True once the child has exited (or there is none); false at the deadline. It stays unreaped,
  // a zombie, so that its process group id cannot be reused before the group is killed.
  bool ExitedBy(Clock::time_point deadline) const;
  // Reads the untaken stdout and stderr pipes until the child exits or the deadline, when it is
  // killed; then kills its group, reads what the pipes still hold (a second at most), reaps it.
  SubprocessResult Wait(Clock::time_point deadline);
  // SIGKILL to the group, then the reap (bounded: SIGKILL cannot be caught); closes the pipes.
  void KillAndReap();

 private:
  int Take(int fd);
  bool Exited() const;
  void KillGroup() const;
  int Reap();

  pid_t pid_ = 0;
  int pipes_[3] = {-1, -1, -1};  // this process's ends, by the child's fd
};

}  // namespace azure_pricing::base

#endif  // REF_BASE_SUBPROCESS_H_
