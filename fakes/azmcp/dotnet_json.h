// Output the way azmcp (.NET, System.Text.Json) prints it: 2-space indentation, "key": value,
// relaxed escaping, doubles in .NET's shortest round-trip form (1000, 0.192, 1.2E-05) and
// DateTimeOffset with an explicit offset (2023-07-01T00:00:00+00:00). Independent of ref/.
#ifndef FAKES_AZMCP_DOTNET_JSON_H_
#define FAKES_AZMCP_DOTNET_JSON_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace fakes::azmcp {

std::string FormatDouble(double value);
// "2023-07-01T00:00:00Z" -> "2023-07-01T00:00:00+00:00"; text with an offset stays as is.
std::string FormatDate(std::string_view iso);
std::string WriteIndented(const nlohmann::ordered_json& value);

}  // namespace fakes::azmcp

#endif  // FAKES_AZMCP_DOTNET_JSON_H_
