#include "conformance/protocol_schema/transcript.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace azure_pricing::conformance::protocol_schema {
namespace {

// The op a line names, "" when it names none.
std::string OpOf(const std::string& line) {
  const nlohmann::json doc = nlohmann::json::parse(line, nullptr, false);
  if (!doc.is_object() || !doc.contains("op") || !doc["op"].is_string()) return "";
  return doc["op"].get<std::string>();
}

// A line that is not an answer: it names an op, or is no JSON object at all.
bool IsRequest(const std::string& line) {
  const nlohmann::json doc = nlohmann::json::parse(line, nullptr, false);
  return !doc.is_object() || doc.contains("op");
}

}  // namespace

std::vector<TranscriptLine> TranscriptLines(std::string_view protocol_md) {
  std::vector<TranscriptLine> out;
  bool in_block = false;
  size_t start = 0;
  while (start < protocol_md.size()) {
    const size_t end = std::min(protocol_md.find('\n', start), protocol_md.size());
    const std::string_view line = protocol_md.substr(start, end - start);
    start = end + 1;
    if (line.starts_with("```")) in_block = !in_block;
    if (in_block && (line.starts_with("> ") || line.starts_with("< "))) {
      out.push_back({line[0], std::string(line.substr(2))});
    }
  }
  return out;
}

std::vector<DirectedLine> Directed(Protocol protocol, const std::vector<TranscriptLine>& lines) {
  std::vector<DirectedLine> out;
  std::string in_flight, callback;  // the ops an answer answers
  for (const TranscriptLine& line : lines) {
    const bool ours = line.side == '>';
    const bool request = protocol == Protocol::kBackend ? ours : IsRequest(line.text);
    DirectedLine directed{line, LineDirection::kRequestSent, ""};
    if (request) {
      directed.direction = ours ? LineDirection::kRequestSent : LineDirection::kRequestReceived;
      (ours ? in_flight : callback) = OpOf(line.text);
    } else {
      directed.direction = ours ? LineDirection::kAnswerSent : LineDirection::kAnswerReceived;
      directed.op = ours ? callback : in_flight;
    }
    out.push_back(std::move(directed));
  }
  return out;
}

}  // namespace azure_pricing::conformance::protocol_schema
