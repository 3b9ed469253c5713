#include "conformance/gate/forked_suite.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>
#include <thread>
#include <utility>

#include "conformance/gate/run.h"

namespace azure_pricing::conformance {
namespace {

using Tally = protocol_schema::LineRecorder::Tally;
using Clock = std::chrono::steady_clock;

// ---- The wire: "LENGTH:BYTES" per field, so a record's bytes need no escaping.

void Put(std::string& out, std::string_view field) {
  out += std::to_string(field.size());
  out += ':';
  out += field;
}

void Put(std::string& out, uint64_t n) { Put(out, std::to_string(n)); }

class Reader {
 public:
  explicit Reader(const std::string& wire) : wire_(wire) {}
  bool Get(std::string& field) {
    const size_t colon = wire_.find(':', at_);
    if (colon == std::string::npos || colon == at_ || colon - at_ > 19) return false;
    char* end = nullptr;
    const unsigned long long size = std::strtoull(wire_.c_str() + at_, &end, 10);
    if (end != wire_.c_str() + colon || size > wire_.size() - colon - 1) return false;
    field.assign(wire_, colon + 1, size);
    at_ = colon + 1 + size;
    return true;
  }
  bool Get(uint64_t& n) {
    std::string text;
    if (!Get(text) || text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
      return false;
    }
    n = std::strtoull(text.c_str(), nullptr, 10);
    return true;
  }
  bool AtEnd() const { return at_ == wire_.size(); }

 private:
  const std::string& wire_;
  size_t at_ = 0;
};

void PutRecord(std::string& out, const GateRecord& r) {
  for (const std::string* s : {&r.suite, &r.id, &r.file, &r.expected, &r.actual, &r.detail,
                               &r.inputs, &r.expected_value, &r.actual_value}) {
    Put(out, *s);
  }
  Put(out, r.requirements.size());
  for (const std::string& id : r.requirements) Put(out, id);
  Put(out, static_cast<uint64_t>(r.verdict));
  Put(out, static_cast<uint64_t>(r.level));
  Put(out, std::to_string(r.seconds));
}

bool GetRecord(Reader& in, GateRecord& r) {
  for (std::string* s : {&r.suite, &r.id, &r.file, &r.expected, &r.actual, &r.detail, &r.inputs,
                         &r.expected_value, &r.actual_value}) {
    if (!in.Get(*s)) return false;
  }
  uint64_t count = 0, verdict = 0, level = 0;
  if (!in.Get(count)) return false;
  for (uint64_t i = 0; i < count; ++i) {
    if (!in.Get(r.requirements.emplace_back())) return false;
  }
  std::string seconds;
  if (!in.Get(verdict) || !in.Get(level) || !in.Get(seconds)) return false;
  if (verdict > static_cast<uint64_t>(Verdict::kNotApplicable) || level > 1) return false;
  r.verdict = static_cast<Verdict>(verdict);
  r.level = static_cast<Level>(level);
  r.seconds = std::strtod(seconds.c_str(), nullptr);
  return true;
}

// ---- The child's side.

// What the child's recorder saw after `before`: it starts as a copy of the gate's.
Tally TallySince(const Tally& before, const Tally& after) {
  Tally out;
  out.lines = after.lines - before.lines;
  out.violations = after.violations - before.violations;
  for (const auto& [protocol, lines] : after.lines_by_protocol) {
    const auto was = before.lines_by_protocol.find(protocol);
    const uint64_t since = lines - (was == before.lines_by_protocol.end() ? 0 : was->second);
    if (since > 0) out.lines_by_protocol[protocol] = since;
  }
  out.described.assign(after.described.begin() + static_cast<long>(before.described.size()),
                       after.described.end());
  return out;
}

bool WriteAll(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

[[noreturn]] void RunChild(const Suite& suite, const GateRun& parent, int out_fd, int err_fd,
                           int outcome_fd) {
  if (dup2(out_fd, STDOUT_FILENO) < 0 || dup2(err_fd, STDERR_FILENO) < 0) _exit(71);
  const Tally before = parent.options.protocol_recorder ? parent.options.protocol_recorder->tally()
                                                        : Tally{};
  // Constructed after the redirection, so its progress line sees no terminal and stays silent.
  GateRun run{.options = parent.options};
  run.implementation = parent.implementation;
  run.should_only = parent.should_only;
  run.catalog = parent.catalog;
  const Clock::time_point start = Clock::now();
  // Nothing may unwind out of the child: it would run the gate's code on in this process (its
  // other suites, and the destructors that kill the sibling children).
  try {
    suite.run(run);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gate: internal error in the %s suite, please report it: %s\n",
                 std::string(suite.name).c_str(), e.what());
    std::fflush(nullptr);
    _exit(70);
  } catch (...) {
    std::fprintf(stderr, "gate: internal error in the %s suite, please report it\n",
                 std::string(suite.name).c_str());
    std::fflush(nullptr);
    _exit(70);
  }
  SuiteOutcome outcome{.records = std::move(run.records),
                       .seconds = SecondsSince(start),
                       .backend = run.backend};
  if (parent.options.protocol_recorder) {
    outcome.tally = TallySince(before, parent.options.protocol_recorder->tally());
  }
  std::fflush(stdout);
  std::fflush(stderr);
  // _exit: the gate's own objects (its testee, its temporary files) belong to the parent.
  _exit(WriteAll(outcome_fd, EncodeSuiteOutcome(outcome)) ? 0 : 71);
}

// An unlinked file in the temporary directory: nothing is left behind, whoever dies.
int AnonymousFile() {
  const char* tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") +
                     "/azure-pricing-gate-suite-XXXXXX";
  const int fd = mkostemp(path.data(), O_CLOEXEC);
  if (fd >= 0) unlink(path.c_str());
  return fd;
}

// "exited 3", "was killed by signal 6", ...: how a child ended, for its gate failure.
std::string HowItEnded(bool timed_out, int status) {
  if (timed_out) return "did not end within its deadline and was killed";
  if (status >= 0 && WIFSIGNALED(status)) {
    return "was killed by signal " + std::to_string(WTERMSIG(status));
  }
  if (status >= 0 && WIFEXITED(status)) return "exited " + std::to_string(WEXITSTATUS(status));
  return "could not be waited for";
}

std::string ReadFromStart(int fd) {
  std::string out;
  if (lseek(fd, 0, SEEK_SET) != 0) return out;
  char buf[65536];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return out;
    out.append(buf, static_cast<size_t>(n));
  }
}

}  // namespace

std::string EncodeSuiteOutcome(const SuiteOutcome& outcome) {
  std::string out;
  Put(out, outcome.records.size());
  for (const GateRecord& r : outcome.records) PutRecord(out, r);
  Put(out, std::to_string(outcome.seconds));
  Put(out, outcome.backend);
  Put(out, outcome.tally.lines);
  Put(out, outcome.tally.violations);
  Put(out, outcome.tally.lines_by_protocol.size());
  for (const auto& [protocol, lines] : outcome.tally.lines_by_protocol) {
    Put(out, static_cast<uint64_t>(protocol));
    Put(out, lines);
  }
  Put(out, outcome.tally.described.size());
  for (const std::string& d : outcome.tally.described) Put(out, d);
  return out;
}

bool DecodeSuiteOutcome(const std::string& wire, SuiteOutcome& outcome) {
  Reader in(wire);
  SuiteOutcome o;
  uint64_t count = 0;
  if (!in.Get(count)) return false;
  for (uint64_t i = 0; i < count; ++i) {
    if (!GetRecord(in, o.records.emplace_back())) return false;
  }
  std::string seconds;
  if (!in.Get(seconds) || !in.Get(o.backend) || !in.Get(o.tally.lines) ||
      !in.Get(o.tally.violations)) {
    return false;
  }
  o.seconds = std::strtod(seconds.c_str(), nullptr);
  if (!in.Get(count)) return false;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t protocol = 0, lines = 0;
    if (!in.Get(protocol) || !in.Get(lines) ||
        protocol > static_cast<uint64_t>(protocol_schema::Protocol::kTestee)) {
      return false;
    }
    o.tally.lines_by_protocol[static_cast<protocol_schema::Protocol>(protocol)] = lines;
  }
  if (!in.Get(count)) return false;
  for (uint64_t i = 0; i < count; ++i) {
    if (!in.Get(o.tally.described.emplace_back())) return false;
  }
  if (!in.AtEnd()) return false;
  outcome = std::move(o);
  return true;
}

ForkedSuite::ForkedSuite(std::string name, pid_t pid, int out_fd, int err_fd, int outcome_fd)
    : name_(std::move(name)), pid_(pid), out_fd_(out_fd), err_fd_(err_fd), outcome_fd_(outcome_fd) {}

std::unique_ptr<ForkedSuite> ForkedSuite::Start(const Suite& suite, const GateRun& run,
                                                std::string& problem) {
  const int out = AnonymousFile(), err = AnonymousFile(), outcome = AnonymousFile();
  if (out < 0 || err < 0 || outcome < 0) {
    for (int fd : {out, err, outcome}) {
      if (fd >= 0) close(fd);
    }
    problem = "no temporary file for its output";
    return nullptr;
  }
  std::fflush(nullptr);  // or the child would print the gate's buffered lines again
  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {out, err, outcome}) close(fd);
    problem = "fork failed";
    return nullptr;
  }
  if (pid == 0) RunChild(suite, run, out, err, outcome);
  return std::unique_ptr<ForkedSuite>(new ForkedSuite(std::string(suite.name), pid, out, err,
                                                      outcome));
}

ForkedSuite::~ForkedSuite() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  for (int fd : {out_fd_, err_fd_, outcome_fd_}) close(fd);
}

int ForkedSuite::Wait(Clock::time_point deadline, bool& timed_out) {
  int status = 0;
  timed_out = false;
  for (;;) {
    const pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done == pid_) break;
    if (done < 0 && errno != EINTR) return -1;
    if (Clock::now() >= deadline) {
      timed_out = true;
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  pid_ = -1;
  return status;
}

void ForkedSuite::Finish(GateRun& run, Clock::time_point deadline) {
  bool timed_out = false;
  const int status = Wait(deadline, timed_out);
  const std::string out = ReadFromStart(out_fd_), err = ReadFromStart(err_fd_);
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  std::fwrite(err.data(), 1, err.size(), stderr);
  SuiteOutcome outcome;
  const bool whole = !timed_out && status >= 0 && WIFEXITED(status) &&
                     WEXITSTATUS(status) == 0 &&
                     DecodeSuiteOutcome(ReadFromStart(outcome_fd_), outcome);
  if (!whole) {
    run.GateFailure("suite-process", "the " + name_ + " suite's process " +
                                         HowItEnded(timed_out, status) +
                                         " before it sent its results");
    return;
  }
  for (GateRecord& r : outcome.records) run.records.push_back(std::move(r));
  run.suite_seconds[name_] = outcome.seconds;
  if (!outcome.backend.empty()) run.backend = outcome.backend;
  if (run.options.protocol_recorder) run.options.protocol_recorder->Merge(outcome.tally);
}

}  // namespace azure_pricing::conformance
