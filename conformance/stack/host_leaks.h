// What a run of the stack could leave behind on this machine, seen from the test process:
// processes descending from it (bubblewrap, sandbox_init, the CLI and anything they started),
// processes a misbehaving CLI marked by name, this process's open descriptors (the egress proxy
// runs in it), its mount table, and the files under the directories the stack and the backend
// write to. Tests take a snapshot once the stack runs, make their calls, and require the machine
// to look the same again within a deadline (connections and namespaces close asynchronously).
//
//   PrivateTmpDir tmp;  // before the stack
//   HostSnapshot before = TakeSnapshot({.dirs = {state_dir}, .shared_dir = tmp.path(),
//                                       .ignore = {api}});
//   ... calls ...
//   EXPECT_THAT(WaitUntilClean(before, std::chrono::seconds(15)), IsEmpty());
#ifndef CONFORMANCE_STACK_HOST_LEAKS_H_
#define CONFORMANCE_STACK_HOST_LEAKS_H_

#include <sys/types.h>

#include <chrono>
#include <set>
#include <string>
#include <vector>

namespace azure_pricing::conformance::stack {

// The name (comm) misbehaving_cli gives the processes it leaves behind.
inline constexpr char kOrphanName[] = "apc-orphan";

struct SnapshotScope {
  std::vector<std::string> dirs;  // listed recursively
  // Entries of `shared_dir` (TMPDIR, which other programs use too) whose names start with
  // `prefix`: the directories this project's stacks and backends make there.
  std::string shared_dir;
  std::string prefix;
  std::set<pid_t> ignore;         // long-lived children of the test (the fake API)
};

struct HostSnapshot {
  SnapshotScope scope;
  std::set<pid_t> descendants;      // of this process, less `ignore` and their descendants
  std::set<pid_t> marked;           // any process named kOrphanName
  int open_fds = 0;
  std::string mountinfo;
  std::set<std::string> files;      // every path under `dirs`, and the shared dir's matches
};

HostSnapshot TakeSnapshot(SnapshotScope scope);

// A TMPDIR of the test's own for as long as it lives (/tmp/apc-XXXXXX, short enough for the
// backend's Unix socket path; Bazel's TEST_TMPDIR is not), so the stacks' and backends'
// directories are the only entries there and tests running beside it cannot look like leaks.
// Restores TMPDIR and removes the directory when destroyed; make it before any stack.
class PrivateTmpDir {
 public:
  PrivateTmpDir();
  ~PrivateTmpDir();
  PrivateTmpDir(const PrivateTmpDir&) = delete;
  PrivateTmpDir& operator=(const PrivateTmpDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string previous_;
  bool had_previous_ = false;
};

// What differs from `before` now: one line per leaked process, descriptor, mount or file.
std::vector<std::string> Differences(const HostSnapshot& before, const HostSnapshot& now);

// Waits (polling) until nothing differs from `before`, at most `within`; the differences left.
std::vector<std::string> WaitUntilClean(const HostSnapshot& before,
                                        std::chrono::milliseconds within);

}  // namespace azure_pricing::conformance::stack

#endif  // CONFORMANCE_STACK_HOST_LEAKS_H_
