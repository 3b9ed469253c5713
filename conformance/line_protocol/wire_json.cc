#include "conformance/line_protocol/wire_json.h"

#include <set>
#include <utility>
#include <vector>

#include "conformance/line_protocol/core.h"

namespace azure_pricing::conformance::line_protocol {

using Json = nlohmann::ordered_json;

std::string Line(const Json& message) {
  return message.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::optional<Json> ParseStrict(std::string_view line) {
  std::vector<std::set<std::string>> open;
  bool repeated = false;
  Json::parser_callback_t note_keys = [&](int, Json::parse_event_t event, Json& parsed) {
    if (event == Json::parse_event_t::object_start) open.emplace_back();
    if (event == Json::parse_event_t::object_end && !open.empty()) open.pop_back();
    if (event == Json::parse_event_t::key && !open.empty() && parsed.is_string() &&
        !open.back().insert(parsed.get<std::string>()).second) {
      repeated = true;
    }
    return true;
  };
  Json doc = Json::parse(line.begin(), line.end(), note_keys, /*allow_exceptions=*/false);
  if (doc.is_discarded() || repeated) return std::nullopt;
  return doc;
}

std::optional<int64_t> AsInt64(const Json& v) {
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<int64_t>(u);
  }
  if (v.is_number_integer()) return v.get<int64_t>();
  return std::nullopt;
}

StatusOr<RequestHead> ReadRequestHead(std::string_view line, std::optional<int64_t>* seq) {
  if (seq != nullptr) seq->reset();
  std::optional<Json> doc = ParseStrict(line);
  if (!doc || !doc->is_object()) return Refusal(kMalformedMessage);
  auto seq_member = doc->find("seq");
  const std::optional<int64_t> n = seq_member == doc->end() ? std::nullopt : AsInt64(*seq_member);
  if (!n) return Refusal(kMalformedMessage);
  if (seq != nullptr) *seq = n;
  auto op_member = doc->find("op");
  if (op_member == doc->end() || !op_member->is_string()) return Refusal(kMalformedMessage);
  std::string op = op_member->get<std::string>();
  return RequestHead{std::move(*doc), *n, std::move(op)};
}

Json ErrorAnswer(std::optional<int64_t> seq, std::string_view outcome, const Status& error) {
  return Json{{"seq", seq ? Json(*seq) : Json(nullptr)},
              {"ok", false},
              {"error",
               {{"outcome", outcome}, {"reason", error.reason()}, {"message", error.message()}}}};
}

}  // namespace azure_pricing::conformance::line_protocol
