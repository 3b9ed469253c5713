#include "conformance/line_protocol/line_io.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>

namespace azure_pricing::conformance::line_protocol {
namespace {

constexpr size_t kChunk = 64 * 1024;

// Milliseconds poll() may wait: -1 without a deadline, 0 once it has passed.
int PollMillis(std::optional<Clock::time_point> deadline) {
  if (!deadline) return -1;
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<int64_t>(left + 1, 0, 60 * 60 * 1000));
}

// Waits until `fd` is ready for `events`. False when the deadline passes or poll fails; a hang-up
// counts as ready so that the following read or write reports it.
bool AwaitReady(int fd, short events, std::optional<Clock::time_point> deadline, bool& timed_out) {
  for (;;) {
    if (deadline && Clock::now() >= *deadline) {
      timed_out = true;
      return false;
    }
    pollfd p{fd, events, 0};
    const int n = poll(&p, 1, PollMillis(deadline));
    if (n > 0) return true;
    if (n < 0 && errno != EINTR) return false;
  }
}

bool WriteLoop(int fd, std::string_view bytes, std::optional<Clock::time_point> deadline,
               bool& broken_pipe) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      bool timed_out = false;
      if (!AwaitReady(fd, POLLOUT, deadline, timed_out)) return false;
      continue;
    }
    broken_pipe = n < 0 && errno == EPIPE;
    return false;
  }
  return true;
}

}  // namespace

ReadResult LineReader::Fill(std::optional<Clock::time_point> deadline) {
  for (;;) {
    bool timed_out = false;
    if (deadline && !AwaitReady(fd_, POLLIN, deadline, timed_out)) {
      return timed_out ? ReadResult::kTimeout : ReadResult::kError;
    }
    char chunk[kChunk];
    const ssize_t n = read(fd_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<size_t>(n));
      return ReadResult::kLine;
    }
    if (n == 0) {
      eof_ = true;
      return ReadResult::kLine;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      // A non-blocking fd without a deadline: wait for data rather than spin.
      if (!deadline && !AwaitReady(fd_, POLLIN, std::nullopt, timed_out)) return ReadResult::kError;
      continue;
    }
    return ReadResult::kError;
  }
}

bool LineReader::SkipRest() {
  const size_t nl = buffer_.find('\n');
  if (nl == std::string::npos) {
    buffer_.clear();
    scanned_ = 0;
    return false;
  }
  buffer_.erase(0, nl + 1);
  scanned_ = 0;
  skipping_ = false;
  return true;
}

ReadResult LineReader::Next(std::string& line, std::optional<Clock::time_point> deadline) {
  for (;;) {
    if (skipping_ && !SkipRest()) {
      if (eof_) return ReadResult::kEof;
      const ReadResult r = Fill(deadline);
      if (r != ReadResult::kLine) return r;
      continue;
    }
    // Only the bytes that arrived since the last look are searched: a 16 MiB line comes in many
    // chunks, and rescanning the whole buffer for each would be quadratic.
    const size_t nl = buffer_.find('\n', scanned_);
    if (nl != std::string::npos) {
      const bool too_long = nl > max_;
      if (!too_long) line.assign(buffer_, 0, nl);
      buffer_.erase(0, nl + 1);
      scanned_ = 0;
      return too_long ? ReadResult::kTooLong : ReadResult::kLine;
    }
    scanned_ = buffer_.size();
    if (buffer_.size() > max_) {
      buffer_.clear();
      scanned_ = 0;
      skipping_ = true;
      return ReadResult::kTooLong;
    }
    if (eof_) {
      if (buffer_.empty()) return ReadResult::kEof;
      line = std::move(buffer_);
      buffer_.clear();
      scanned_ = 0;
      return ReadResult::kLine;
    }
    const ReadResult r = Fill(deadline);
    if (r != ReadResult::kLine) return r;
  }
}

bool WriteAll(int fd, std::string_view bytes, std::optional<Clock::time_point> deadline) {
  sigset_t pipe_signal, previous, pending;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &previous);
  sigpending(&pending);
  const bool already_pending = sigismember(&pending, SIGPIPE) == 1;
  bool broken_pipe = false;
  const bool ok = WriteLoop(fd, bytes, deadline, broken_pipe);
  // The SIGPIPE this write raised is consumed here, so unblocking does not deliver it; one that
  // was pending before belongs to someone else and stays.
  if (broken_pipe && !already_pending) {
    const timespec zero{};
    sigtimedwait(&pipe_signal, nullptr, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return ok;
}

}  // namespace azure_pricing::conformance::line_protocol
