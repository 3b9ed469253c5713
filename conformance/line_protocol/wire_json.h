// JSON for the two line protocols (backend, testee): what both mean by a line, a readable
// message, an integer, a request's head and an error answer. Included only by their codecs,
// which use nlohmann anyway.
#ifndef CONFORMANCE_LINE_PROTOCOL_WIRE_JSON_H_
#define CONFORMANCE_LINE_PROTOCOL_WIRE_JSON_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "ref/status/status.h"

namespace azure_pricing::conformance::line_protocol {

// One message as one '\n'-terminated line; text that is not UTF-8 is replaced, never thrown.
std::string Line(const nlohmann::ordered_json& message);

// Parses one line without exceptions; a member name repeated within one object makes the line
// unreadable, since two readers could take different ones.
std::optional<nlohmann::ordered_json> ParseStrict(std::string_view line);

// A JSON integer within int64 (no fraction, no exponent, no unsigned value past INT64_MAX).
std::optional<int64_t> AsInt64(const nlohmann::ordered_json& v);

// A request as far as both protocols read it alike: the parsed line, its seq and its op name.
struct RequestHead {
  nlohmann::ordered_json doc;
  int64_t seq = 0;
  std::string op;
};

// Reads a request's head. `seq` (when given) holds the seq as soon as it is read, so that even a
// refusal can name it. Fails with the refusal kMalformedMessage when the line is not a JSON
// object with an integer seq and a string op; the op's name and the body are the protocol's.
StatusOr<RequestHead> ReadRequestHead(std::string_view line, std::optional<int64_t>* seq);

// An error answer, {"seq":N or null,"ok":false,"error":{"outcome","reason","message"}}, with
// `outcome` as the protocol spells it.
nlohmann::ordered_json ErrorAnswer(std::optional<int64_t> seq, std::string_view outcome,
                                   const Status& error);

}  // namespace azure_pricing::conformance::line_protocol

#endif  // CONFORMANCE_LINE_PROTOCOL_WIRE_JSON_H_
