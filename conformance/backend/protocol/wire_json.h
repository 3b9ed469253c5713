// JSON for the two line protocols (backend, conformance/testee): what both mean by a line, a
// readable message and an integer. Included only by their codecs, which use nlohmann anyway.
#ifndef CONFORMANCE_BACKEND_PROTOCOL_WIRE_JSON_H_
#define CONFORMANCE_BACKEND_PROTOCOL_WIRE_JSON_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace azure_pricing::backend_protocol {

// One message as one '\n'-terminated line; text that is not UTF-8 is replaced, never thrown.
std::string Line(const nlohmann::ordered_json& message);

// Parses one line without exceptions; a member name repeated within one object makes the line
// unreadable, since two readers could take different ones.
std::optional<nlohmann::ordered_json> ParseStrict(std::string_view line);

// A JSON integer within int64 (no fraction, no exponent, no unsigned value past INT64_MAX).
std::optional<int64_t> AsInt64(const nlohmann::ordered_json& v);

}  // namespace azure_pricing::backend_protocol

#endif  // CONFORMANCE_BACKEND_PROTOCOL_WIRE_JSON_H_
