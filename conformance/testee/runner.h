// The gate's side of the testee protocol: a testee process and the calls made through it. Every
// call is a "case" message; the testee's acquire, exec_bounded and dispose callbacks are answered
// from a scripted fake backend built from the call's scripts, so what the sandbox saw (counts,
// argv) comes from the gate's own record, never from the testee's word.
//
//   StatusOr<std::unique_ptr<TesteeProcess>> testee =
//       TesteeProcess::Start({"/usr/bin/python3", "testee.py"}, env, "");
//   StatusOr<host::CallReport> report = (*testee)->RunCall(call);
//
// Every wait has a deadline. A testee that does not answer a case in time, exits, or sends a
// line that is not an answer is killed and reaped, and that call fails with kTesteeTimeout,
// kTesteeExited or kTesteeProtocolError; the next call starts a new testee (and says hello).
#ifndef CONFORMANCE_TESTEE_RUNNER_H_
#define CONFORMANCE_TESTEE_RUNNER_H_

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/line_protocol/child.h"
#include "conformance/line_protocol/line_io.h"
#include "conformance/host/scripted_host.h"
#include "conformance/testee/protocol.h"
#include "fakes/sandbox/fake_backend.h"

namespace azure_pricing::conformance::testee {

struct TesteeDeadlines {
  std::chrono::milliseconds hello{10'000};  // start-up and the hello answer
  std::chrono::milliseconds call{60'000};   // one case, callbacks included
  std::chrono::milliseconds stop{5'000};    // the stop answer and the exit
};

class TesteeProcess {
 public:
  // Spawns argv (argv[0] a path) with exactly `env`, in its own process group, in
  // `working_directory` (empty: this process's), then says hello. `observer`, when given, sees
  // every line written and every whole line read, of this testee and of the ones that replace
  // it: gate messages and the testee's answers, callbacks and the gate's answers to them.
  static StatusOr<std::unique_ptr<TesteeProcess>> Start(
      std::vector<std::string> argv, std::vector<std::string> env,
      std::string working_directory = "", TesteeDeadlines deadlines = {},
      line_protocol::LineObserver observer = {});
  // Sends stop, waits for the exit (deadlines.stop), then kills and reaps the group.
  ~TesteeProcess();
  TesteeProcess(const TesteeProcess&) = delete;
  TesteeProcess& operator=(const TesteeProcess&) = delete;

  const Implementation& implementation() const { return implementation_; }
  // The protocol version the testee agreed to in its first hello.
  Version version() const { return version_.value_or(Version::kV4); }
  pid_t pid() const { return child_.process.pid(); }  // 0 while no testee is running

  // One case. Sandbox counts and argv come from the gate's backend; the rest from the testee.
  // A configuration the testee rejects is kInvalidConfiguration, as in process.
  StatusOr<conformance::host::CallReport> RunCall(const conformance::host::ScriptedCall& call);

 private:
  class CaseSession;  // one case's callbacks (runner.cc)

  TesteeProcess(std::vector<std::string> argv, std::vector<std::string> env,
                std::string working_directory, TesteeDeadlines deadlines,
                line_protocol::LineObserver observer);
  Status Launch();  // spawn and hello, offering the newest version first
  // One hello offering `offer`: true when the testee answered with a version this gate speaks
  // (then version_), false when it answered protocol_mismatch (the pipe stays open for the next
  // offer); any other answer is an error and the testee is killed.
  StatusOr<bool> Hello(Version offer, line_protocol::Clock::time_point deadline);
  void Shutdown();
  Status Kill(Reason reason);
  // The next line, or the reason the testee failed (it is killed then).
  StatusOr<std::string> ReadLine(line_protocol::Clock::time_point deadline);
  // `line` as `direction` of `op`, shown to the observer first.
  Status Send(line_protocol::LineDirection direction, std::string_view op,
              const std::string& line, line_protocol::Clock::time_point deadline);
  void Observe(line_protocol::LineDirection direction, std::string_view op,
               std::string_view line) const;

  std::vector<std::string> argv_;
  std::vector<std::string> env_;
  std::string working_directory_;
  TesteeDeadlines deadlines_;
  line_protocol::LineObserver observer_;  // may be empty
  line_protocol::PipedChild child_;
  std::optional<line_protocol::LineReader> reader_;
  Implementation implementation_;
  std::optional<Version> version_;  // agreed once; a restarted testee is offered it alone
  int64_t seq_ = 0;
  // The scripted backend of the host the last case ran in (kept for a same_host case).
  std::unique_ptr<fakes::sandbox::FakeBackend> backend_;
};

}  // namespace azure_pricing::conformance::testee

#endif  // CONFORMANCE_TESTEE_RUNNER_H_
