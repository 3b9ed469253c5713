// libFuzzer target: any bytes as one line of the backend protocol, read as a request (the
// adapter's side) and as an answer to each op (the suite's side). Invariants: nothing crashes or
// throws; what decodes, encoded again, is one line that decodes to the same message (the encoding
// of a decoded message is a fixed point); a refused request is refused, not failed; and any bytes
// as an exec result's output survive the base64 round trip exactly.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "conformance/backend/protocol/protocol.h"

namespace {

namespace bp = azure_pricing::conformance::backend::protocol;

void Require(bool condition) {
  if (!condition) std::abort();
}

bool OneLine(const std::string& line) {
  return !line.empty() && line.back() == '\n' && line.find('\n') == line.size() - 1;
}

void CheckRequest(std::string_view line) {
  std::optional<int64_t> seq;
  const azure_pricing::StatusOr<bp::Request> request = bp::DecodeRequest(line, &seq);
  if (!request.ok()) {
    Require(request.status().outcome() == azure_pricing::Outcome::kRefused);
    return;
  }
  Require(seq == request->seq);
  const std::string encoded = bp::EncodeRequest(*request);
  Require(OneLine(encoded));
  const std::string_view body(encoded.data(), encoded.size() - 1);
  const azure_pricing::StatusOr<bp::Request> again = bp::DecodeRequest(body, nullptr);
  Require(again.ok() && again->seq == request->seq);
  Require(bp::OpOf(again->body) == bp::OpOf(request->body));
  Require(bp::EncodeRequest(*again) == encoded);
}

void CheckResponse(std::string_view line, bp::Op answered) {
  const azure_pricing::StatusOr<bp::Response> response = bp::DecodeResponse(line, answered);
  if (!response.ok()) {
    Require(!response.status().reason().empty());
    return;
  }
  const std::string encoded = bp::EncodeResponse(*response);
  Require(OneLine(encoded));
  const std::string_view body(encoded.data(), encoded.size() - 1);
  const azure_pricing::StatusOr<bp::Response> again = bp::DecodeResponse(body, answered);
  Require(again.ok() && again->seq == response->seq);
  Require(again->error.ok() == response->error.ok());
  Require(again->error.reason() == response->error.reason());
  Require(again->body.index() == response->body.index());
  Require(bp::EncodeResponse(*again) == encoded);
}

// Output is bytes, not text: whatever the program wrote arrives unchanged.
void CheckExecOutput(std::string_view bytes) {
  const size_t half = bytes.size() / 2;
  bp::Response response;
  response.seq = static_cast<int64_t>(bytes.size());
  response.body = azure_pricing::sandbox::ExecResult{std::string(bytes.substr(0, half)),
                                                     std::string(bytes.substr(half)),
                                                     static_cast<int>(bytes.size()) - 128};
  const std::string encoded = bp::EncodeResponse(response);
  const azure_pricing::StatusOr<bp::Response> decoded = bp::DecodeResponse(
      std::string_view(encoded.data(), encoded.size() - 1), bp::Op::kExecBounded);
  Require(decoded.ok() && decoded->seq == response.seq);
  const auto& result = std::get<azure_pricing::sandbox::ExecResult>(decoded->body);
  const auto& sent = std::get<azure_pricing::sandbox::ExecResult>(response.body);
  Require(result.stdout_bytes == sent.stdout_bytes && result.stderr_bytes == sent.stderr_bytes &&
          result.exit_code == sent.exit_code);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  CheckRequest(line);
  for (bp::Op op :
       {bp::Op::kHello, bp::Op::kAcquire, bp::Op::kExecBounded, bp::Op::kDispose, bp::Op::kStop}) {
    CheckResponse(line, op);
  }
  CheckExecOutput(line);
  return 0;
}
