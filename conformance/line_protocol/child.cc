#include "conformance/line_protocol/child.h"

#include <fcntl.h>
#include <unistd.h>

#include <utility>

namespace azure_pricing::conformance::line_protocol {

void CloseFd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

bool SpawnPiped(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                const std::string& working_directory, PipedChild& out) {
  out = PipedChild{};
  // The pipes are close-on-exec: no other child of this process may hold an end open, or the
  // child would never see EOF on its stdin.
  StatusOr<base::Subprocess> process = base::Subprocess::Start(
      {.argv = argv, .env = env, .working_directory = working_directory,
       .in = base::Stdio::Pipe(), .out = base::Stdio::Pipe()});
  if (!process.ok()) return false;
  out.process = std::move(process).value();
  out.to_child = out.process.TakeIn();
  out.from_child = out.process.TakeOut();
  // Non-blocking, so that a message to a child that stops reading waits with a deadline.
  fcntl(out.to_child, F_SETFL, fcntl(out.to_child, F_GETFL) | O_NONBLOCK);
  return true;
}

void KillAndReap(PipedChild& child) {
  child.process.KillAndReap();
  CloseFd(child.to_child);
  CloseFd(child.from_child);
}

}  // namespace azure_pricing::conformance::line_protocol
