#include "ref/base/ready_child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

extern char** environ;

namespace azure_pricing::base {
namespace {

using Clock = std::chrono::steady_clock;

// Far above any banner the project's programs print; a child that talks on past it without
// saying it is ready is treated as one that never says so.
constexpr size_t kMaxBannerBytes = 1 << 20;

// A child that cannot be brought up is the program's own error, not an outcome of the tool.
Status Failed(Reason reason, const char* message) { return ProgramError(reason, message); }

// Where the line that equals `line` ends in `text` (after its newline), or npos.
size_t EndOfLine(const std::string& text, const std::string& line) {
  for (size_t at = text.find(line); at != std::string::npos; at = text.find(line, at + 1)) {
    const size_t end = at + line.size();
    if ((at == 0 || text[at - 1] == '\n') && end < text.size() && text[end] == '\n') return end + 1;
  }
  return std::string::npos;
}

// fork and exec rather than posix_spawn, because the death signal must be set in the child.
pid_t Spawn(const ReadyChildSpec& spec, int out_fd) {
  std::vector<std::string> args = spec.argv;
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid != 0) return pid;
  // Only async-signal-safe calls from here to execve: the parent may run other threads.
  if (spec.die_with_parent && (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)) {
    _exit(127);
  }
  if (dup2(out_fd, 1) < 0) _exit(127);
  if (!spec.stderr_path.empty()) {
    const int err = open(spec.stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (err < 0 || dup2(err, 2) < 0) _exit(127);
  }
  execve(argv[0], argv.data(), environ);
  _exit(127);
}

enum class Wait { kReady, kEnded, kSilent };

// Reads `fd` into `text` until the ready line, the end of the output, or the deadline.
Wait ReadBanner(int fd, const std::string& ready_line, Clock::time_point deadline,
                std::string& text) {
  char buf[1024];
  while (EndOfLine(text, ready_line) == std::string::npos) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0 || text.size() > kMaxBannerBytes) return Wait::kSilent;
    pollfd p{fd, POLLIN, 0};
    const int polled = poll(&p, 1, static_cast<int>(left));
    if (polled < 0 && errno == EINTR) continue;
    if (polled == 0) return Wait::kSilent;
    const ssize_t n = polled < 0 ? -1 : read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Wait::kEnded;
    text.append(buf, static_cast<size_t>(n));
  }
  text.resize(EndOfLine(text, ready_line));
  return Wait::kReady;
}

// SIGTERM, then SIGKILL past `grace`; the wait status once reaped.
int StopAndReap(pid_t pid, std::chrono::milliseconds grace) {
  kill(pid, SIGTERM);
  const Clock::time_point deadline = Clock::now() + grace;
  int status = 0;
  while (Clock::now() < deadline) {
    const pid_t reaped = waitpid(pid, &status, WNOHANG);
    if (reaped == pid || (reaped < 0 && errno != EINTR)) return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid, SIGKILL);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace

StatusOr<std::unique_ptr<ReadyChild>> ReadyChild::Start(const ReadyChildSpec& spec,
                                                        std::string* output) {
  if (spec.argv.empty()) return Failed(kChildNotStarted, "No program was named to start.");
  const Clock::time_point deadline = Clock::now() + spec.timeout;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    return Failed(kChildNotStarted, "The program could not be started: no pipe for its output.");
  }
  const pid_t pid = Spawn(spec, fds[1]);
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    return Failed(kChildNotStarted, "The program could not be started: fork failed.");
  }
  std::unique_ptr<ReadyChild> child(new ReadyChild(pid, spec.stop_grace));
  const Wait wait = ReadBanner(fds[0], spec.ready_line, deadline, child->banner_);
  close(fds[0]);
  if (output != nullptr) *output = child->banner_;
  if (wait == Wait::kReady) return child;
  child.reset();  // stops and reaps it
  if (wait == Wait::kEnded) {
    return Failed(kChildExitedEarly,
                  "The program exited, or closed its output, before it said it was ready.");
  }
  return Failed(kChildSilent, "The program did not say it was ready within its time limit.");
}

ReadyChild::~ReadyChild() {
  if (!wait_status_.has_value()) StopAndReap(pid_, stop_grace_);
}

std::optional<std::string> ReadyChild::BannerLine(std::string_view prefix) const {
  for (size_t at = 0; at < banner_.size();) {
    size_t end = banner_.find('\n', at);
    if (end == std::string::npos) end = banner_.size();
    const std::string_view line(banner_.data() + at, end - at);
    if (line.substr(0, prefix.size()) == prefix) return std::string(line.substr(prefix.size()));
    at = end + 1;
  }
  return std::nullopt;
}

std::string ReadyChild::Ended() {
  if (!wait_status_.has_value()) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) != pid_) return "";
    wait_status_ = status;
  }
  return WIFSIGNALED(*wait_status_) ? "killed by signal " + std::to_string(WTERMSIG(*wait_status_))
                                    : "exited " + std::to_string(WEXITSTATUS(*wait_status_));
}

}  // namespace azure_pricing::base
