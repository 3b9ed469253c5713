// A testee that misbehaves on cue, for runner_test: it answers hello like any testee, then does
// what --mode says with the first case. Every mode must fail that case with its named reason
// within the runner's deadline and leave no process behind.
//   hang             never answers the case
//   exit             asks for a sandbox, then exits before answering
//   garbage          answers the case with a line that is not JSON
//   no_dispose       acquires a sandbox, never disposes it, answers "completed"
//   bad_callback     sends a callback for a sandbox that does not exist, then answers
//   wrong_seq        answers the case with another seq
//   seq_per_case     in every case acquires and disposes a sandbox with callback seq 1 and 2,
//                    then answers "completed" (PROTOCOL.md: callbacks count per case)
//   ok               answers every case "completed" with a fixed report (a trivial testee)
// With --speaks N (2 or 3) it speaks only version N of the protocol, as a testee written before
// version N+1 does: it refuses the hellos offering newer versions with protocol_mismatch.
// --speaks 2-anyway answers any hello with version 2, as a version 2 testee that does not read
// the offer does. --speaks none refuses every version.
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <variant>

#include "conformance/backend/protocol/protocol.h"
#include "conformance/line_protocol/line_io.h"
#include "conformance/testee/protocol.h"

namespace azure_pricing::conformance::testee {
namespace {

namespace bp = ::azure_pricing::conformance::backend::protocol;
namespace lp = ::azure_pricing::conformance::line_protocol;

bool Write(const std::string& line) { return lp::WriteAll(1, line, std::nullopt); }

// The version the hello agreed to; a case answer is written as it says.
Version g_version = Version::kV4;

std::string Read(lp::LineReader& reader) {
  std::string line;
  if (reader.Next(line, std::nullopt) != lp::ReadResult::kLine) _exit(0);
  return line;
}

constexpr char kAcquire[] =
    R"({"seq":1,"op":"acquire","spec":{"os_family":"posix","min_isolation":"container",)"
    R"("requires":["EXEC"],"egress":"allowlist","egress_allow":[{"host":"prices.azure.com",)"
    R"("methods":["GET"]}],"isolation_scope":"call","cleanup":"dispose","image":"fake"},)"
    R"("key":{"agent_id":"a","session_id":"s","call_id":"c"}})"
    "\n";

conformance::host::CallReport Completed() {
  conformance::host::CallReport report;
  report.tools = 1;
  report.output = R"({"prices":[]})";
  report.conversation_label = labels::ContentLabel{};
  return report;
}

// Acquires a sandbox and disposes it, with callback seq 1 and 2 whatever case this is.
bool AcquireAndDispose(lp::LineReader& reader) {
  Write(kAcquire);
  const StatusOr<bp::Response> acquired = bp::DecodeResponse(Read(reader), bp::Op::kAcquire);
  if (!acquired.ok() || !acquired->error.ok()) return false;
  const std::string& id = std::get<bp::AcquireResponse>(acquired->body).sandbox;
  Write(bp::EncodeRequest({.seq = 2, .body = bp::DisposeRequest{id}}));
  const StatusOr<bp::Response> disposed = bp::DecodeResponse(Read(reader), bp::Op::kDispose);
  return disposed.ok() && disposed->error.ok();
}

// What the mode does with one case; false ends the testee.
bool Misbehave(const std::string& mode, lp::LineReader& reader, int64_t seq) {
  if (mode == "hang") {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  if (mode == "exit") {
    Write(kAcquire);
    (void)Read(reader);
    _exit(3);
  }
  if (mode == "garbage") return Write("this is not JSON\n");
  if (mode == "wrong_seq") return Write(EncodeCaseAnswer(seq + 7, Completed(), g_version));
  // A refused callback ends the testee: the case fails as the gate sees it, never as "completed".
  if (mode == "seq_per_case" && !AcquireAndDispose(reader)) return false;
  if (mode == "no_dispose") {
    Write(kAcquire);
    (void)Read(reader);
  }
  if (mode == "bad_callback") {
    Write(R"({"seq":1,"op":"dispose","sandbox":"no-such-sandbox"})"
          "\n");
    (void)Read(reader);
  }
  return Write(EncodeCaseAnswer(seq, Completed(), g_version));
}

// The flag's value after `name` ("--mode", "--speaks"), or `fallback`.
std::string Flag(int argc, char** argv, const char* name, const char* fallback) {
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], name) == 0) return argv[i + 1];
  }
  return fallback;
}

std::string Hello(const GateMessage& hello, const std::string& speaks, Version& version) {
  if (speaks == "2-anyway") {
    version = Version::kV2;
    return EncodeHelloAnswer(hello.seq, {"fake-testee", "0.1"}, version);
  }
  const std::optional<Version> offered = VersionNamed(hello.protocol);
  const bool spoken =
      offered && (speaks == "all" || VersionName(*offered) == "azure-pricing-testee/" + speaks);
  if (!spoken) {
    return EncodeErrorAnswer(hello.seq, StatusForReason(Outcome::kRefused, kProtocolMismatch));
  }
  version = *offered;
  return EncodeHelloAnswer(hello.seq, {"fake-testee", "0.1"}, version);
}

int Main(int argc, char** argv) {
  const std::string mode = Flag(argc, argv, "--mode", "ok");
  const std::string speaks = Flag(argc, argv, "--speaks", "all");
  Version& version = g_version;
  lp::LineReader reader(0, size_t{1} << 24);
  for (;;) {
    const std::string line = Read(reader);
    std::optional<int64_t> seq;
    StatusOr<GateMessage> message = DecodeGateMessage(line, &seq, version);
    if (!message.ok()) {
      Write(EncodeErrorAnswer(seq, message.status()));
    } else if (message->op == GateOp::kHello) {
      Write(Hello(*message, speaks, version));
    } else if (message->op == GateOp::kStop) {
      Write(EncodeStopAnswer(message->seq));
      return 0;
    } else if (!Misbehave(mode, reader, message->seq)) {
      return 1;
    }
  }
}

}  // namespace
}  // namespace azure_pricing::conformance::testee

int main(int argc, char** argv) { return azure_pricing::conformance::testee::Main(argc, argv); }
