// Line framing for both line protocols (backend and testee): reading '\n'-terminated lines with a
// length limit and an optional deadline, and writing whole buffers with a deadline. A server
// waits for its client without a deadline (the client's EOF ends it); a client (the backend
// protocol's AdapterBackend, the testee runner) never waits for its peer without one.
#ifndef CONFORMANCE_LINE_PROTOCOL_LINE_IO_H_
#define CONFORMANCE_LINE_PROTOCOL_LINE_IO_H_

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace azure_pricing::conformance::line_protocol {

using Clock = std::chrono::steady_clock;

enum class ReadResult {
  kLine,     // `line` holds one line without its '\n'
  kTooLong,  // a line passed the limit; the rest of it is skipped by the next call
  kEof,      // the writer closed its end (a partial last line is returned as kLine first)
  kTimeout,  // the deadline passed before a whole line arrived
  kError,    // read or poll failed
};

class LineReader {
 public:
  LineReader(int fd, size_t max_line_bytes) : fd_(fd), max_(max_line_bytes) {}

  // nullopt deadline: wait as long as it takes.
  ReadResult Next(std::string& line, std::optional<Clock::time_point> deadline);

 private:
  // Waits for readable data and appends it to buffer_; kLine here means "some bytes arrived".
  ReadResult Fill(std::optional<Clock::time_point> deadline);
  // Drops buffered bytes of an oversized line; true once its '\n' has been dropped too.
  bool SkipRest();

  int fd_;
  size_t max_;
  std::string buffer_;
  size_t scanned_ = 0;     // buffer_[0, scanned_) holds no '\n'
  bool skipping_ = false;  // inside a line already reported as kTooLong
  bool eof_ = false;
};

// What a protocol client (AdapterBackend, the testee runner) saw one line as: a request or an
// answer, and which side wrote it. "Sent" is the client's own line.
enum class LineDirection {
  kRequestSent,      // op: the request's
  kAnswerReceived,   // op: the request it answers
  kRequestReceived,  // the peer's request (a testee's callback); op: "" (the line names it)
  kAnswerSent,       // the client's answer to it; op: the request's, "" when it was unreadable
};

// Called with every line a client writes and every whole line it reads, without the '\n', in
// the order they cross the pipes, on the client's thread (--validate-protocol checks them).
using LineObserver =
    std::function<void(LineDirection direction, std::string_view op, std::string_view line)>;

// Writes all of `bytes`, waiting for a non-blocking or blocking fd alike. A reader that went away
// is a failure, never a SIGPIPE: the signal is held back on this thread while writing. False on
// any failure or when the deadline passes.
bool WriteAll(int fd, std::string_view bytes, std::optional<Clock::time_point> deadline);

}  // namespace azure_pricing::conformance::line_protocol

#endif  // CONFORMANCE_LINE_PROTOCOL_LINE_IO_H_
