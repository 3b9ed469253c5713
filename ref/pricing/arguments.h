// The tool's arguments as a model sends them, and every rule that refuses them before any
// sandbox is acquired. Refusal messages name the argument and the rule, never the value.
#ifndef REF_PRICING_ARGUMENTS_H_
#define REF_PRICING_ARGUMENTS_H_

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "ref/status/status.h"

namespace azure_pricing::json {
class Value;
}

namespace azure_pricing {

struct ToolArguments {
  std::optional<std::string> sku;
  std::optional<std::string> service;
  std::optional<std::string> region;
  std::optional<std::string> service_family;
  std::optional<std::string> price_type;
  std::string currency = "USD";
  bool include_savings_plan = false;
  std::optional<std::string> filter;  // raw OData, passed on parenthesized and otherwise as is
};

// Argument names in the order the tool documents them (and builds argv).
inline constexpr std::array<std::string_view, 8> kArgumentNames = {"sku",
                                                                   "service",
                                                                   "region",
                                                                   "service_family",
                                                                   "price_type",
                                                                   "currency",
                                                                   "include_savings_plan",
                                                                   "filter"};

inline constexpr std::array<std::string_view, 3> kPriceTypes = {"Consumption", "Reservation",
                                                                "DevTestConsumption"};

// The service families azmcp 3.0.0-beta.46 knows, as price-list (filter) values. Read from the
// user strings of Azure.Mcp.Tools.Pricing.dll inside the npm package's azmcp binary on
// 2026-11-29 (`strings -n 2 -el azmcp`, the 26 lines between "RetailPricesResponse" and
// "Unknown ServiceFamily value."; the default minimum length of 4 hides "Web"). Rows of any other
// family make the CLI drop the whole result. Output rows carry the enum member name instead
// (spaces removed: "Management and Governance" -> "ManagementAndGovernance").
inline constexpr std::array<std::string_view, 26> kServiceFamilies = {
    "Analytics",
    "Azure Arc",
    "Azure Communication Services",
    "Azure Security",
    "Azure Stack",
    "Compute",
    "Containers",
    "Data",
    "Databases",
    "Developer Tools",
    "Dynamics",
    "Gaming",
    "Integration",
    "Internet Of Things",
    "Management and Governance",
    "Microsoft Syntex",
    "Mixed Reality",
    "Networking",
    "Other",
    "Power Platform",
    "Quantum Computing",
    "Security",
    "Storage",
    "Telecommunications",
    "Web",
    "Windows Virtual Desktop"};

// Bounds in Unicode code points (what JSON Schema's maxLength counts).
inline constexpr size_t kMaxTypedValueLength = 256;
inline constexpr size_t kMaxFilterLength = 2048;
// The whole arguments object, in bytes, before it is parsed.
// Room for every value at its bound even when fully \u-escaped (12 bytes per astral character).
inline constexpr size_t kMaxArgumentsJsonBytes = 64 * 1024;

// Parses the JSON text of a tool call's arguments and validates it.
StatusOr<ToolArguments> ParseToolArguments(std::string_view arguments_json);
// Validates an already parsed arguments object.
StatusOr<ToolArguments> ValidateToolArguments(const json::Value& arguments);

// The filter with the contents of every OData string literal ('...' with '' escapes), quotes
// included, blanked to spaces, so lexical checks see only what lies outside literals.
// `literals_closed` is false when the last literal never ends.
struct OutsideLiterals {
  std::string text;
  bool literals_closed = true;
};
OutsideLiterals BlankLiterals(std::string_view filter);

// True when the filter's parentheses balance outside OData string literals ('...' with ''
// escapes) and every literal is closed: only then does wrapping it in parentheses keep it ANDed
// with the typed filters. A lexical scan, not a parse: fields and syntax are the API's business.
bool FilterStaysParenthesized(std::string_view filter);

// What the character rule found (ForbiddenCharacterReason below).
inline constexpr char kCharInvalidUtf8[] = "invalid_utf8";
inline constexpr char kCharLineSeparator[] = "line_separator";
inline constexpr char kCharBidiControl[] = "bidi_control";
inline constexpr char kCharControl[] = "control_character";

// The character rule on its own (for tests and other hosts): one of the kChar* values above,
// or an empty view when the text is acceptable. Checks UTF-8, C0 and C1 controls, DEL, U+2028,
// U+2029 and the bidirectional controls.
std::string_view ForbiddenCharacterReason(std::string_view text);

// For showing untrusted text on a terminal: every character the rule above forbids becomes '?',
// as does any byte that is not UTF-8, and the text is cut after `max_chars` characters (a cut
// is marked with '~').
std::string TerminalSafe(std::string_view text, size_t max_chars);

}  // namespace azure_pricing

#endif  // REF_PRICING_ARGUMENTS_H_
