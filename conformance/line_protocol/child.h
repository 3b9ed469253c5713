// A protocol peer as a child process: spawned with its stdin and stdout on pipes, in its own
// process group, and killed and reaped as a group (a base::Subprocess). Shared by the backend
// protocol's client and the testee runner, which both must never leave a child behind.
#ifndef CONFORMANCE_LINE_PROTOCOL_CHILD_H_
#define CONFORMANCE_LINE_PROTOCOL_CHILD_H_

#include <string>
#include <vector>

#include "ref/base/subprocess.h"

namespace azure_pricing::conformance::line_protocol {

struct PipedChild {
  base::Subprocess process;  // pid() 0: none, or reaped; ExitedBy(deadline) leaves it unreaped
  int to_child = -1;         // the child's stdin, non-blocking
  int from_child = -1;       // the child's stdout
};

// Spawns argv (argv[0] is a path; no PATH search) with exactly `env`, started in
// `working_directory` (empty: this process's), its stderr inherited. False when it could not be
// started; nothing is left open then.
bool SpawnPiped(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                const std::string& working_directory, PipedChild& out);

void CloseFd(int& fd);

// SIGKILL to the child's group, then the reap (bounded: SIGKILL cannot be caught); closes both
// pipes.
void KillAndReap(PipedChild& child);

}  // namespace azure_pricing::conformance::line_protocol

#endif  // CONFORMANCE_LINE_PROTOCOL_CHILD_H_
