// System.Text.Json as the real azmcp meets a price page: JsonDocument.Parse (Utf8JsonReader with
// default options and MaxDepth 256, the Azure SDK's setting) and the JsonElement getters the
// generated model calls. What matters is what the CLI prints when a page is malformed, so a
// parse failure carries the reader's exact text ("'N' is an invalid start of a value.
// LineNumber: 0 | BytePositionInLine: 72.") and a getter failure carries .NET's exception type
// and message. Like the real reader, Parse does not validate UTF-8 inside strings; GetString
// does, so a bad byte in a field the model skips goes unnoticed. Each behaviour here was observed
// on the real CLI; the differential scenarios (fakes/azmcp/scenarios.json) keep it so.
#ifndef FAKES_AZMCP_STJ_DOCUMENT_H_
#define FAKES_AZMCP_STJ_DOCUMENT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace azure_pricing::fakes::azmcp::stj {

enum class Kind { kObject, kArray, kString, kNumber, kTrue, kFalse, kNull };

// JsonValueKind's member name, as .NET prints it in InvalidOperationException messages.
const char* KindName(Kind kind);

struct Property;

struct Element {
  Kind kind = Kind::kNull;
  // kString: the bytes between the quotes, escapes not yet processed; kNumber: the literal text.
  std::string raw;
  // kObject: every property in document order, duplicates kept (the model reads them in turn,
  // so the last one wins but every one is converted). Names are unescaped; invalid UTF-8 in a
  // name is kept as bytes, since NameEquals only compares.
  std::vector<Property> properties;
  std::vector<Element> items;  // kArray
};

// A pair would need Element complete where Element declares its properties.
struct Property {
  std::string first;  // the name
  Element second;     // the value
};

// A .NET exception as the CLI reports it: results.type and results.message.
struct DotnetError {
  std::string type;
  std::string message;
};

struct ParseResult {
  std::optional<Element> root;
  std::string error;  // JsonReaderException's message when root is empty
};

inline constexpr int kMaxDepth = 256;

ParseResult Parse(std::string_view utf8);

// The JsonElement getters. Each returns the error .NET would throw, or nothing and sets `out`.
// GetString on Null gives an empty optional (C# null).
std::optional<DotnetError> GetString(const Element& e, std::optional<std::string>& out);
std::optional<DotnetError> GetDouble(const Element& e, double& out);
std::optional<DotnetError> GetInt64(const Element& e, int64_t& out);
std::optional<DotnetError> GetBoolean(const Element& e, bool& out);
// EnumerateObject / EnumerateArray's kind check.
std::optional<DotnetError> RequireKind(const Element& e, Kind kind);

}  // namespace azure_pricing::fakes::azmcp::stj

#endif  // FAKES_AZMCP_STJ_DOCUMENT_H_
