#include "conformance/testee/runner.h"

#include <utility>

#include "conformance/backend/protocol/protocol.h"
#include "conformance/line_protocol/core.h"
#include "conformance/line_protocol/sandbox_table.h"
#include "ref/status/status_macros.h"

namespace azure_pricing::conformance::testee {

using line_protocol::Clock;
using line_protocol::LineDirection;
namespace lp = ::azure_pricing::conformance::line_protocol;
using conformance::host::CallReport;
using conformance::host::ScriptedCall;
namespace bp = ::azure_pricing::conformance::backend::protocol;

namespace {

Status Failed(Reason reason) { return StatusForReason(Outcome::kFailed, reason); }

// An answer whose seq is not the message in flight's (the numbers are the gate's own).
Status WrongSeq() { return TesteeProtocolError("seq: not the seq of the message in flight"); }

bp::Response ErrorResponse(std::optional<int64_t> seq, Reason reason) {
  return bp::Response{seq, bp::StatusForReason(Outcome::kRefused, reason), {}};
}

}  // namespace

// One case's sandboxes: the testee's callbacks, served from the case's scripted backend. A
// callback the gate cannot serve gets an error answer (never silence) and fails the case.
class TesteeProcess::CaseSession {
 public:
  // The table disposes whatever the testee did not, after the case's counts were taken (the
  // session ends after them), so no sandbox outlives its backend.
  explicit CaseSession(fakes::sandbox::FakeBackend& backend) : sandboxes_(backend) {}

  bool bad_callback() const { return bad_callback_; }
  // The op of the callback last answered; "" when its line was unreadable.
  std::string_view answered_op() const { return answered_op_; }

  std::string Answer(std::string_view line) {
    std::optional<int64_t> seq;
    StatusOr<bp::Request> request = bp::DecodeRequest(line, &seq);
    answered_op_ = request.ok() ? bp::OpName(bp::OpOf(request->body)) : "";
    if (seq && !order_.Accept(*seq)) return Reject(ErrorResponse(seq, bp::kOutOfOrder));
    if (!request.ok()) return Reject(bp::Response{seq, request.status(), {}});
    bp::Response response = Serve(std::move(request->body));
    response.seq = seq;
    // An id the gate never handed out is the testee's mistake, not the sandbox's answer.
    if (response.error.reason() == lp::kUnknownSandbox) bad_callback_ = true;
    return bp::EncodeResponse(response);
  }

 private:
  std::string Reject(const bp::Response& response) {
    bad_callback_ = true;
    return bp::EncodeResponse(response);
  }

  bp::Response Serve(bp::RequestBody body) {
    if (auto* a = std::get_if<bp::AcquireRequest>(&body)) {
      StatusOr<std::string> id = sandboxes_.Acquire(a->spec, a->key);
      if (!id.ok()) return {std::nullopt, id.status(), {}};
      return {std::nullopt, OkStatus(), bp::AcquireResponse{std::move(id).value()}};
    }
    if (auto* e = std::get_if<bp::ExecBoundedRequest>(&body)) {
      StatusOr<sandbox::ExecResult> result = sandboxes_.ExecBounded(e->sandbox, e->exec);
      if (!result.ok()) return {std::nullopt, result.status(), {}};
      return {std::nullopt, OkStatus(), std::move(result).value()};
    }
    if (auto* d = std::get_if<bp::DisposeRequest>(&body)) {
      return {std::nullopt, sandboxes_.Dispose(d->sandbox), {}};
    }
    // hello and stop are the gate's to send, not the testee's.
    bad_callback_ = true;
    return ErrorResponse(std::nullopt, bp::kUnknownOp);
  }

  lp::SandboxTable sandboxes_;
  lp::SeqOrder order_;
  bool bad_callback_ = false;
  std::string_view answered_op_;  // one of the protocol's op names, or ""
};

TesteeProcess::TesteeProcess(std::vector<std::string> argv, std::vector<std::string> env,
                             std::string working_directory, TesteeDeadlines deadlines,
                             conformance::line_protocol::LineObserver observer)
    : argv_(std::move(argv)),
      env_(std::move(env)),
      working_directory_(std::move(working_directory)),
      deadlines_(deadlines),
      observer_(std::move(observer)) {}

StatusOr<std::unique_ptr<TesteeProcess>> TesteeProcess::Start(
    std::vector<std::string> argv, std::vector<std::string> env, std::string working_directory,
    TesteeDeadlines deadlines, conformance::line_protocol::LineObserver observer) {
  std::unique_ptr<TesteeProcess> testee(
      new TesteeProcess(std::move(argv), std::move(env), std::move(working_directory), deadlines,
                        std::move(observer)));
  RETURN_IF_ERROR(testee->Launch());
  return testee;
}

TesteeProcess::~TesteeProcess() { Shutdown(); }

Status TesteeProcess::Launch() {
  if (!lp::SpawnPiped(argv_, env_, working_directory_, child_)) return Failed(kTesteeSpawnFailed);
  reader_.emplace(child_.from_child, lp::kMaxLineBytes);
  const Clock::time_point deadline = Clock::now() + deadlines_.hello;
  // A testee that already agreed on a version (before a restart) is offered that one alone.
  std::vector<Version> offers = {Version::kV4, Version::kV3, Version::kV2};
  if (version_) offers = {*version_};
  for (Version offer : offers) {
    ASSIGN_OR_RETURN(bool agreed, Hello(offer, deadline));
    if (agreed) return OkStatus();
  }
  lp::KillAndReap(child_);
  return StatusForReason(Outcome::kFailed, kProtocolMismatch);
}

StatusOr<bool> TesteeProcess::Hello(Version offer, Clock::time_point deadline) {
  const int64_t seq = ++seq_;
  const GateMessage hello{.seq = seq, .op = GateOp::kHello, .protocol = std::string(VersionName(offer))};
  RETURN_IF_ERROR(Send(LineDirection::kRequestSent, kOpHello, EncodeGateMessage(hello), deadline));
  ASSIGN_OR_RETURN(std::string line, ReadLine(deadline));
  Observe(LineDirection::kAnswerReceived, kOpHello, line);
  StatusOr<TesteeAnswer> answer = DecodeAnswer(line, GateOp::kHello);
  if (!answer.ok()) {
    lp::KillAndReap(child_);
    return answer.status();
  }
  if (answer->seq != seq) {
    (void)Kill(kTesteeProtocolError);  // killed and reaped; the error names the member at fault
    return WrongSeq();
  }
  // Refused: the next version on offer, if any, is tried on the same pipe.
  if (answer->error.reason() == kProtocolMismatch) return false;
  if (!answer->error.ok()) {
    lp::KillAndReap(child_);
    return answer->error;
  }
  // A testee may answer with an older version it speaks (DecodeAnswer refused any other), as a
  // version 2 testee that does not read the offer does; the gate then speaks that one.
  version_ = VersionNamed(answer->protocol);
  implementation_ = answer->implementation;
  return true;
}

// Stop, then EOF, then the deadline, then SIGKILL to the group; reaped on every path.
void TesteeProcess::Shutdown() {
  if (child_.process.pid() == 0) return;
  const Clock::time_point deadline = Clock::now() + deadlines_.stop;
  const GateMessage stop{.seq = ++seq_, .op = GateOp::kStop};
  const std::string line = EncodeGateMessage(stop);
  Observe(LineDirection::kRequestSent, kOpStop, line);
  if (lp::WriteAll(child_.to_child, line, deadline)) {
    std::string answer;
    // Whatever it says, the testee ends now.
    if (reader_->Next(answer, deadline) == lp::ReadResult::kLine) {
      Observe(LineDirection::kAnswerReceived, kOpStop, answer);
    }
  }
  lp::CloseFd(child_.to_child);  // EOF, for a testee that did not take stop as its cue
  (void)child_.process.ExitedBy(deadline);
  lp::KillAndReap(child_);
  reader_.reset();
}

Status TesteeProcess::Kill(Reason reason) {
  lp::KillAndReap(child_);
  reader_.reset();
  return Failed(reason);
}

StatusOr<std::string> TesteeProcess::ReadLine(Clock::time_point deadline) {
  std::string line;
  switch (reader_->Next(line, deadline)) {
    case lp::ReadResult::kLine:
      return line;
    case lp::ReadResult::kTimeout:
      return Kill(kTesteeTimeout);
    case lp::ReadResult::kTooLong:
      (void)Kill(kTesteeProtocolError);
      return TesteeProtocolError("the line: longer than the protocol's 16 MiB");
    case lp::ReadResult::kEof:
    case lp::ReadResult::kError:
      break;
  }
  return Kill(kTesteeExited);
}

Status TesteeProcess::Send(LineDirection direction, std::string_view op, const std::string& line,
                           Clock::time_point deadline) {
  Observe(direction, op, line);
  if (lp::WriteAll(child_.to_child, line, deadline)) return OkStatus();
  return Kill(Clock::now() >= deadline ? kTesteeTimeout : kTesteeExited);
}

void TesteeProcess::Observe(LineDirection direction, std::string_view op,
                            std::string_view line) const {
  if (!observer_) return;
  // Encoded lines end in '\n'; observers get lines as they are read, without it.
  if (line.ends_with('\n')) line.remove_suffix(1);
  observer_(direction, op, line);
}

StatusOr<CallReport> TesteeProcess::RunCall(const ScriptedCall& call) {
  // A further call of the same host keeps the gate's backend too, so the testee's sandboxes
  // for the whole conversation are on one record.
  if (call.same_host && backend_ != nullptr) {
    for (const fakes::sandbox::CallScript& script : call.scripts) backend_->Script(script);
  } else {
    ASSIGN_OR_RETURN(backend_, conformance::host::MakeScriptedBackend(call));
  }
  const conformance::host::SandboxMark mark = conformance::host::MarkOf(*backend_);
  // A testee killed by an earlier case is replaced, so one bad case does not fail the rest.
  if (child_.process.pid() == 0) {
    RETURN_IF_ERROR(Launch());
  }
  CaseSession session(*backend_);
  const Clock::time_point deadline = Clock::now() + deadlines_.call;
  GateMessage message{.seq = ++seq_, .op = GateOp::kCase, .call = call};
  message.call.scripts.clear();  // the CLI's behaviour stays with the gate
  RETURN_IF_ERROR(Send(LineDirection::kRequestSent, kOpCase,
                       EncodeGateMessage(message, version()), deadline));
  for (;;) {
    ASSIGN_OR_RETURN(std::string line, ReadLine(deadline));
    if (IsCallback(line)) {
      Observe(LineDirection::kRequestReceived, "", line);
      const std::string answer = session.Answer(line);
      RETURN_IF_ERROR(Send(LineDirection::kAnswerSent, session.answered_op(), answer, deadline));
      continue;
    }
    Observe(LineDirection::kAnswerReceived, kOpCase, line);
    StatusOr<TesteeAnswer> answer = DecodeAnswer(line, GateOp::kCase, version());
    // Killed and reaped either way; the error names the member or line at fault.
    if (!answer.ok()) {
      (void)Kill(kTesteeProtocolError);
      return answer.status();
    }
    if (answer->seq != message.seq) {
      (void)Kill(kTesteeProtocolError);
      return WrongSeq();
    }
    if (session.bad_callback()) return Failed(kTesteeBadCallback);
    if (!answer->error.ok()) return answer->error;
    CallReport report = std::move(answer->report);
    conformance::host::CollectSandboxCounts(*backend_, report, mark);
    return report;
  }
}

}  // namespace azure_pricing::conformance::testee
