// The reference testee: the C++ reference behind the testee protocol (PROTOCOL.md). It builds
// the host exactly as the in-process run does (host::ScriptedHost), but the backend behind its
// router is the gate: every acquire, exec_bounded and dispose is a callback line on stdout,
// answered on stdin. The gate then sees every sandbox it asks for, as it would from any testee.
//
//   reference_testee    (no flags; reads the gate's lines on stdin until stop or EOF)
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "conformance/backend/protocol/protocol.h"
#include "conformance/host/scripted_host.h"
#include "conformance/line_protocol/core.h"
#include "conformance/line_protocol/line_io.h"
#include "conformance/testee/protocol.h"
#include "ref/base/main_guard.h"
#include "ref/pricing/package.h"
#include "ref/status/status_macros.h"

namespace azure_pricing::conformance::testee {
namespace {

using line_protocol::Clock;
namespace bp = ::azure_pricing::conformance::backend::protocol;
namespace lp = ::azure_pricing::conformance::line_protocol;
namespace host = ::azure_pricing::conformance::host;

// The gate answers a callback at once from its scripted backend; this bounds a gate that died.
constexpr std::chrono::seconds kCallbackDeadline{60};

// stdin and stdout, and the callback seq (the testee's own numbering, increasing for the
// whole session; the gate's seq numbers its own messages).
class GateChannel {
 public:
  GateChannel() : reader_(0, lp::kMaxLineBytes) {}

  lp::LineReader& reader() { return reader_; }

  bool Write(const std::string& line) {
    return lp::WriteAll(1, line, Clock::now() + kCallbackDeadline);
  }

  StatusOr<bp::Response> Call(bp::RequestBody body) {
    const bp::Op op = bp::OpOf(body);
    const int64_t seq = ++seq_;
    if (!Write(bp::EncodeRequest(bp::Request{seq, std::move(body)}))) return Lost();
    std::string line;
    if (reader_.Next(line, Clock::now() + kCallbackDeadline) != lp::ReadResult::kLine) {
      return Lost();
    }
    ASSIGN_OR_RETURN(bp::Response response, bp::DecodeResponse(line, op));
    if (response.seq != seq) return Lost();
    return response;
  }

 private:
  static Status Lost() { return bp::StatusForReason(Outcome::kFailed, bp::kAdapterExited); }

  lp::LineReader reader_;
  int64_t seq_ = 0;
};

class GateSandbox : public sandbox::Sandbox, public sandbox::BoundedExec {
 public:
  GateSandbox(GateChannel& gate, std::string id, bool bounded)
      : gate_(gate), id_(std::move(id)), bounded_(bounded) {}

  // The protocol carries bounded exec only; the reference never execs unbounded, and a testee
  // that did would show up in the gate's record as no exec at all.
  StatusOr<sandbox::ExecResult> Exec(const sandbox::ExecRequest&) override {
    return bp::StatusForReason(Outcome::kRefused, bp::kBoundedExecUnavailable);
  }
  StatusOr<sandbox::ExecResult> ExecBounded(const sandbox::ExecRequest& request) override {
    ASSIGN_OR_RETURN(bp::Response response, gate_.Call(bp::ExecBoundedRequest{id_, request}));
    if (!response.error.ok()) return response.error;
    return std::get<sandbox::ExecResult>(std::move(response).body);
  }
  sandbox::BoundedExec* bounded_exec() override { return bounded_ ? this : nullptr; }
  Status WriteFile(const std::string&, const std::string&) override {
    return bp::StatusForReason(Outcome::kRefused, bp::kAdapterFilesUnsupported);
  }
  StatusOr<std::string> ReadFile(const std::string&) override {
    return bp::StatusForReason(Outcome::kRefused, bp::kAdapterFilesUnsupported);
  }
  const std::string& id() const { return id_; }

 private:
  GateChannel& gate_;
  std::string id_;
  bool bounded_;
};

// Declares what the case's backend JSON declares; its sandboxes are the gate's.
class GateBackend : public sandbox::Backend {
 public:
  GateBackend(GateChannel& gate, const host::BackendSetup& setup)
      : gate_(gate), setup_(setup) {}

  const sandbox::BackendDeclaration& declaration() const override { return setup_.declaration; }
  StatusOr<std::unique_ptr<sandbox::Sandbox>> Acquire(const sandbox::Spec& spec,
                                                      const sandbox::SandboxKey& key) override {
    ASSIGN_OR_RETURN(bp::Response response,
                     gate_.Call(bp::AcquireRequest{spec, key, std::nullopt}));
    if (!response.error.ok()) return response.error;
    const bool bounded = setup_.declaration.bounded_exec && !setup_.withhold_bounded_exec;
    return std::unique_ptr<sandbox::Sandbox>(std::make_unique<GateSandbox>(
        gate_, std::get<bp::AcquireResponse>(response.body).sandbox, bounded));
  }
  Status Dispose(std::unique_ptr<sandbox::Sandbox> sandbox) override {
    const auto* ours = dynamic_cast<const GateSandbox*>(sandbox.get());
    if (ours == nullptr) return bp::StatusForReason(Outcome::kRefused, bp::kUnknownSandbox);
    ASSIGN_OR_RETURN(bp::Response response, gate_.Call(bp::DisposeRequest{ours->id()}));
    return response.error;
  }

 private:
  GateChannel& gate_;
  host::BackendSetup setup_;
};

struct Session {
  bool started = false;
  Version version = Version::kV4;  // the one hello agreed to
  lp::SeqOrder order;
  // The host of the last case and its backend, for a case that continues it (same_host).
  std::unique_ptr<GateBackend> backend;
  std::unique_ptr<host::ScriptedHost> host;
};

std::string AnswerCase(GateChannel& gate, Session& session, const GateMessage& message) {
  if (!message.call.same_host) {
    session.host.reset();
    session.backend.reset();
    std::unique_ptr<GateBackend> backend;
    StatusOr<std::unique_ptr<host::ScriptedHost>> built =
        host::ScriptedHost::Build(message.call, [&](const host::BackendSetup& setup) {
          backend = std::make_unique<GateBackend>(gate, setup);
          return backend.get();
        });
    if (!built.ok()) return EncodeErrorAnswer(message.seq, built.status());
    session.backend = std::move(backend);
    session.host = std::move(*built);
  } else if (session.host == nullptr) {
    return EncodeErrorAnswer(
        message.seq, Status(Outcome::kRefused, host::kInvalidConfiguration,
                            "A same_host case arrived with no host before it."));
  }
  StatusOr<host::CallReport> report = session.host->Call(message.call);
  if (!report.ok()) return EncodeErrorAnswer(message.seq, report.status());
  return EncodeCaseAnswer(message.seq, *report, session.version);
}

// The answer to one line from the gate; `stop` is set once stop was answered.
std::string Serve(GateChannel& gate, Session& session, const std::string& line, bool& stop) {
  std::optional<int64_t> seq;
  StatusOr<GateMessage> message = DecodeGateMessage(line, &seq, session.version);
  if (!message.ok() && !session.started) {
    // No version is agreed before hello: a case of either version is answered not_started.
    if (StatusOr<GateMessage> v2 = DecodeGateMessage(line, &seq, Version::kV2); v2.ok()) {
      message = std::move(v2);
    }
  }
  if (!message.ok()) return EncodeErrorAnswer(seq, message.status());
  auto refuse = [&seq](Reason reason) {
    return EncodeErrorAnswer(seq, StatusForReason(Outcome::kRefused, reason));
  };
  if (!session.order.Accept(message->seq)) return refuse(kOutOfOrder);
  if (message->op == GateOp::kHello) {
    if (session.started) return refuse(kAlreadyStarted);
    const std::optional<Version> version = VersionNamed(message->protocol);
    if (!version) return refuse(kProtocolMismatch);
    session.started = true;
    session.version = *version;
    return EncodeHelloAnswer(message->seq, {kPackageName, kPackageVersion}, *version);
  }
  if (!session.started) return refuse(kNotStarted);
  if (message->op == GateOp::kStop) {
    stop = true;
    return EncodeStopAnswer(message->seq);
  }
  return AnswerCase(gate, session, *message);
}

int Main() {
  GateChannel gate;
  Session session;
  for (bool stop = false; !stop;) {
    std::string line;
    // No deadline here: the gate's EOF (or stop) ends the testee.
    const lp::ReadResult read = gate.reader().Next(line, std::nullopt);
    if (read == lp::ReadResult::kEof || read == lp::ReadResult::kError) return 0;
    const std::string answer =
        read == lp::ReadResult::kTooLong
            ? EncodeErrorAnswer(std::nullopt, lp::Refusal(kMessageTooLong))
            : Serve(gate, session, line, stop);
    if (!gate.Write(answer)) return 1;
  }
  return 0;
}

}  // namespace
}  // namespace azure_pricing::conformance::testee

// It takes no arguments: the gate starts it as `--testee "reference_testee"`. Anything on its
// command line is a mistake worth naming, not something to ignore.
static int UnguardedMain(int argc, char** argv) {
  constexpr char kUsage[] =
      "usage: reference_testee\n"
      "Serves the C++ reference over the testee protocol on stdin/stdout\n"
      "(conformance/testee/PROTOCOL.md); the gate starts it with --testee. It takes no options.\n";
  if (argc == 2 && std::string_view(argv[1]) == "--help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (argc > 1) {
    std::fprintf(stderr, "reference_testee: %s %s\n%s",
                 argv[1][0] == '-' ? "unknown option" : "unexpected argument", argv[1], kUsage);
    return 64;
  }
  return azure_pricing::conformance::testee::Main();
}

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("reference_testee", [&] { return UnguardedMain(argc, argv); });
}
