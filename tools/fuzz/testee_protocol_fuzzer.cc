// libFuzzer target: any bytes as one line of the testee protocol, read as a gate message (the
// testee's side) and as an answer to each gate op (the gate's side). Invariants: nothing crashes
// or throws; what decodes, encoded again, is one line that decodes to the same message (the
// encoding of a decoded message is a fixed point); a gate message the testee cannot serve is
// refused, an answer the gate cannot read is a protocol failure, and no error keeps the peer's
// message text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "conformance/testee/protocol.h"

namespace {

namespace testee = azure_pricing::conformance::testee;

void Require(bool condition) {
  if (!condition) std::abort();
}

std::string_view WithoutNewline(const std::string& line) {
  Require(!line.empty() && line.back() == '\n' && line.find('\n') == line.size() - 1);
  return std::string_view(line.data(), line.size() - 1);
}

void CheckGateMessage(std::string_view line) {
  std::optional<int64_t> seq;
  const azure_pricing::StatusOr<testee::GateMessage> message =
      testee::DecodeGateMessage(line, &seq);
  if (!message.ok()) {
    Require(message.status().outcome() == azure_pricing::Outcome::kRefused);
    return;
  }
  Require(seq == message->seq);
  const std::string encoded = testee::EncodeGateMessage(*message);
  const azure_pricing::StatusOr<testee::GateMessage> again =
      testee::DecodeGateMessage(WithoutNewline(encoded), nullptr);
  Require(again.ok() && again->seq == message->seq && again->op == message->op);
  Require(testee::EncodeGateMessage(*again) == encoded);
}

// The answer as the testee would have written it.
std::string Encode(const testee::TesteeAnswer& answer, testee::GateOp answered) {
  if (!answer.error.ok()) return testee::EncodeErrorAnswer(answer.seq, answer.error);
  Require(answer.seq.has_value());
  switch (answered) {
    case testee::GateOp::kHello:
      return testee::EncodeHelloAnswer(*answer.seq, answer.implementation);
    case testee::GateOp::kCase:
      return testee::EncodeCaseAnswer(*answer.seq, answer.report);
    case testee::GateOp::kStop:
      break;
  }
  return testee::EncodeStopAnswer(*answer.seq);
}

void CheckAnswer(std::string_view line, testee::GateOp answered) {
  const azure_pricing::StatusOr<testee::TesteeAnswer> answer = testee::DecodeAnswer(line, answered);
  if (!answer.ok()) {
    Require(answer.status().outcome() == azure_pricing::Outcome::kFailed);
    return;
  }
  if (!answer->error.ok()) {
    // The error's text is the gate's fixed message for its reason, never the testee's.
    const azure_pricing::Status fixed =
        testee::StatusForReason(answer->error.outcome(), answer->error.reason());
    Require(answer->error.message() == fixed.message());
  } else if (!answer->seq.has_value()) {
    return;  // an ok answer without a seq cannot be written back; the gate refuses it anyway
  }
  const std::string encoded = Encode(*answer, answered);
  const azure_pricing::StatusOr<testee::TesteeAnswer> again =
      testee::DecodeAnswer(WithoutNewline(encoded), answered);
  Require(again.ok() && again->seq == answer->seq);
  Require(again->error.ok() == answer->error.ok() &&
          again->error.reason() == answer->error.reason());
  Require(Encode(*again, answered) == encoded);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  CheckGateMessage(line);
  for (testee::GateOp op : {testee::GateOp::kHello, testee::GateOp::kCase, testee::GateOp::kStop}) {
    CheckAnswer(line, op);
  }
  (void)testee::IsCallback(line);
  return 0;
}
