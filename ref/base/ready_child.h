// Starts a long-running child (a fake server, a proxy) and waits until it prints its ready line.
// Every wait has a deadline, a child that exits or stays silent is named as such, and the child
// is always reaped: on a failed start at once, otherwise when its owner goes.
//
//   ReadyChildSpec spec{.argv = {binary, "--listen", "127.0.0.1:0"}};
//   StatusOr<std::unique_ptr<ReadyChild>> child = ReadyChild::Start(spec);
//   std::optional<std::string> port = (*child)->BannerLine("http http://127.0.0.1:");
#ifndef REF_BASE_READY_CHILD_H_
#define REF_BASE_READY_CHILD_H_

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ref/status/status.h"

namespace azure_pricing::base {

// Reason codes of ProgramError()s. The messages are fixed: callers that talk to a person name the
// program, and may show the output Start handed back.
inline constexpr Reason kChildNotStarted = "child_not_started";
inline constexpr Reason kChildExitedEarly = "child_exited_early";
inline constexpr Reason kChildSilent = "child_silent";

struct ReadyChildSpec {
  std::vector<std::string> argv;  // argv[0] is a path; no PATH search
  std::string ready_line = "ready";
  // One deadline for the whole banner, however the child spreads it over writes.
  std::chrono::milliseconds timeout{20'000};
  // Empty: the child's stderr is ours. Otherwise it is written to this file, truncated.
  std::string stderr_path;
  // The child is sent SIGTERM when this process dies, however that happens, so a killed suite
  // leaves no server behind.
  bool die_with_parent = false;
  // How long the owner's destructor waits after SIGTERM before SIGKILL.
  std::chrono::milliseconds stop_grace{2'000};
};

class ReadyChild {
 public:
  // Starts the child with its stdout on a pipe and reads lines until one equals ready_line. The
  // pipe is closed then, so the child must print nothing after that line. On failure the child
  // has been killed and reaped; `output`, when given, gets what it printed in either case.
  static StatusOr<std::unique_ptr<ReadyChild>> Start(const ReadyChildSpec& spec,
                                                     std::string* output = nullptr);
  // SIGTERM, then SIGKILL past stop_grace; reaped either way.
  ~ReadyChild();
  ReadyChild(const ReadyChild&) = delete;
  ReadyChild& operator=(const ReadyChild&) = delete;

  pid_t pid() const { return pid_; }
  // Everything the child printed up to and including its ready line.
  const std::string& banner() const { return banner_; }
  // The rest of the first banner line that starts with `prefix`, if any.
  std::optional<std::string> BannerLine(std::string_view prefix) const;
  // Empty while the child runs; otherwise how it ended ("exited 1", "killed by signal 13").
  std::string Ended();

 private:
  ReadyChild(pid_t pid, std::chrono::milliseconds stop_grace)
      : pid_(pid), stop_grace_(stop_grace) {}

  pid_t pid_;
  std::chrono::milliseconds stop_grace_;
  std::string banner_;
  std::optional<int> wait_status_;  // set once the child has been reaped
};

}  // namespace azure_pricing::base

#endif  // REF_BASE_READY_CHILD_H_
