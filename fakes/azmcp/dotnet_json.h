// Output the way azmcp (.NET, System.Text.Json) prints it: 2-space indentation, "key": value,
// relaxed escaping, doubles in .NET's shortest round-trip form (1000, 0.192, 1.2E-05) and
// DateTimeOffset with an explicit offset (2023-07-01T00:00:00+00:00). Independent of ref/.
#ifndef FAKES_AZMCP_DOTNET_JSON_H_
#define FAKES_AZMCP_DOTNET_JSON_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace azure_pricing::fakes::azmcp {

std::string FormatDouble(double value);
// DateTimeOffset.Parse of the ISO 8601 forms the price list uses, written back as System.Text.Json
// writes a DateTimeOffset: "2023-07-01T00:00:00Z" -> "2023-07-01T00:00:00+00:00", "2024-01-01"
// -> "2024-01-01T00:00:00+00:00", fractions without trailing zeros. Nothing for other text.
std::optional<std::string> FormatDateTimeOffset(std::string_view text);
std::string WriteIndented(const nlohmann::ordered_json& value);

}  // namespace azure_pricing::fakes::azmcp

#endif  // FAKES_AZMCP_DOTNET_JSON_H_
