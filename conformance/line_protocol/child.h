// A protocol peer as a child process: spawned with its stdin and stdout on pipes, in its own
// process group, and killed and reaped as a group. Shared by the backend protocol's client and
// the testee runner, which both must never leave a child behind.
#ifndef CONFORMANCE_LINE_PROTOCOL_CHILD_H_
#define CONFORMANCE_LINE_PROTOCOL_CHILD_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "conformance/line_protocol/line_io.h"

namespace azure_pricing::conformance::line_protocol {

struct PipedChild {
  pid_t pid = 0;        // 0: none, or reaped
  int to_child = -1;    // the child's stdin, non-blocking
  int from_child = -1;  // the child's stdout
};

// Spawns argv (argv[0] is a path; no PATH search) with exactly `env`, started in
// `working_directory` (empty: this process's), its stderr inherited. False when it could not be
// started; nothing is left open then.
bool SpawnPiped(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                const std::string& working_directory, PipedChild& out);

void CloseFd(int& fd);

// True once the child has exited; it stays unreaped (a zombie) so that its process group id
// cannot be reused before KillAndReap signals the group.
bool ExitedBy(pid_t pid, Clock::time_point deadline);

// SIGKILL to the child's group, then the reap (bounded: SIGKILL cannot be caught); closes both
// pipes and sets pid to 0.
void KillAndReap(PipedChild& child);

}  // namespace azure_pricing::conformance::line_protocol

#endif  // CONFORMANCE_LINE_PROTOCOL_CHILD_H_
