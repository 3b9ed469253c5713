// A testee that misbehaves on cue, for runner_test: it answers hello like any testee, then does
// what --mode says with the first case. Every mode must fail that case with its named reason
// within the runner's deadline and leave no process behind.
//   hang             never answers the case
//   exit             asks for a sandbox, then exits before answering
//   garbage          answers the case with a line that is not JSON
//   no_dispose       acquires a sandbox, never disposes it, answers "completed"
//   bad_callback     sends a callback for a sandbox that does not exist, then answers
//   wrong_seq        answers the case with another seq
//   ok               answers every case "completed" with a fixed report (a trivial testee)
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <optional>
#include <string>
#include <thread>

#include "conformance/backend/protocol/line_io.h"
#include "conformance/testee/protocol.h"

namespace azure_pricing::testee {
namespace {

namespace bp = ::azure_pricing::backend_protocol;

bool Write(const std::string& line) { return bp::WriteAll(1, line, std::nullopt); }

std::string Read(bp::LineReader& reader) {
  std::string line;
  if (reader.Next(line, std::nullopt) != bp::ReadResult::kLine) _exit(0);
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
  return report;
}

// What the mode does with one case; false ends the testee.
bool Misbehave(const std::string& mode, bp::LineReader& reader, int64_t seq) {
  if (mode == "hang") {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  if (mode == "exit") {
    Write(kAcquire);
    (void)Read(reader);
    _exit(3);
  }
  if (mode == "garbage") return Write("this is not JSON\n");
  if (mode == "wrong_seq") return Write(EncodeCaseAnswer(seq + 7, Completed()));
  if (mode == "no_dispose") {
    Write(kAcquire);
    (void)Read(reader);
  }
  if (mode == "bad_callback") {
    Write(R"({"seq":1,"op":"dispose","sandbox":"no-such-sandbox"})"
          "\n");
    (void)Read(reader);
  }
  return Write(EncodeCaseAnswer(seq, Completed()));
}

int Main(int argc, char** argv) {
  const std::string mode = argc == 3 && std::strcmp(argv[1], "--mode") == 0 ? argv[2] : "ok";
  bp::LineReader reader(0, size_t{1} << 24);
  for (;;) {
    const std::string line = Read(reader);
    std::optional<int64_t> seq;
    StatusOr<GateMessage> message = DecodeGateMessage(line, &seq);
    if (!message.ok()) {
      Write(EncodeErrorAnswer(seq, message.status()));
    } else if (message->op == GateOp::kHello) {
      Write(EncodeHelloAnswer(message->seq, {"fake-testee", "0.1"}));
    } else if (message->op == GateOp::kStop) {
      Write(EncodeStopAnswer(message->seq));
      return 0;
    } else if (!Misbehave(mode, reader, message->seq)) {
      return 1;
    }
  }
}

}  // namespace
}  // namespace azure_pricing::testee

int main(int argc, char** argv) { return azure_pricing::testee::Main(argc, argv); }
