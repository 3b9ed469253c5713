// The message of every refusal and failure the pricing kind makes itself, declared once. The
// reference builds each message from these texts, and docs/wording.md's table of the reference's
// exact wording is held to them (//conformance/cases:wording_test), so what a port reads there is
// what the reference says. A «placeholder» stands for what the call fills in (Fill below); it is
// never a value the caller sent, only a constant of the tool (an argument's name, a maximum, a
// location value).
#ifndef REF_PRICING_MESSAGES_H_
#define REF_PRICING_MESSAGES_H_

#include <array>
#include <string>
#include <string_view>

#include "ref/pricing/reasons.h"

namespace azure_pricing::messages {

inline constexpr char kArgument[] = "\u00ABargument\u00BB";
inline constexpr char kMaximum[] = "\u00ABmaximum\u00BB";
inline constexpr char kLocationValue[] = "\u00ABlocation value\u00BB";
inline constexpr char kLocationValues[] = "\u00ABlocation values\u00BB";

// Arguments (ref/pricing/arguments.cc).
inline constexpr char kArgumentsTooLarge[] =
    "The arguments object is larger than \u00ABmaximum\u00BB bytes.";
inline constexpr char kMalformedArguments[] = "The arguments are not one JSON object.";
inline constexpr char kArgumentNotUtf8[] = "Argument '\u00ABargument\u00BB' is not valid UTF-8.";
inline constexpr char kArgumentsNotUtf8[] = "The arguments are not valid UTF-8.";
inline constexpr char kArgumentRepeated[] =
    "Argument '\u00ABargument\u00BB' is given more than once.";
inline constexpr char kKeyRepeated[] = "The arguments name the same key twice.";
inline constexpr char kUnknownArgument[] =
    "The arguments contain a name that is not one of: sku, service, region, service_family, "
    "price_type, currency, include_savings_plan, filter.";
inline constexpr char kNotAString[] = "Argument '\u00ABargument\u00BB' must be a string.";
inline constexpr char kNotABoolean[] = "Argument 'include_savings_plan' must be true or false.";
inline constexpr char kEmpty[] =
    "Argument '\u00ABargument\u00BB' must not be empty; leave it out instead.";
inline constexpr char kBlank[] =
    "Argument '\u00ABargument\u00BB' must not be blank (only spaces); leave it out instead.";
inline constexpr char kForbiddenCharacter[] =
    "Argument '\u00ABargument\u00BB' contains a control, line-separator or "
    "bidirectional-control character.";
inline constexpr char kTooLong[] =
    "Argument '\u00ABargument\u00BB' is longer than \u00ABmaximum\u00BB characters.";
inline constexpr char kOptionLike[] =
    "Argument '\u00ABargument\u00BB' must not start with '-' or '@' (the CLI would read it as an "
    "option or a file to expand).";
inline constexpr char kUnbalancedFilter[] =
    "Argument 'filter' must balance its parentheses and close its quoted strings: it is wrapped "
    "in parentheses so that it stays ANDed with the other filters.";
inline constexpr char kInvalidPriceType[] =
    "Argument 'price_type' must be exactly Consumption, Reservation or DevTestConsumption "
    "(case-sensitive); savings plans come from include_savings_plan.";
inline constexpr char kInvalidServiceFamily[] =
    "Argument 'service_family' must be one of the price list's service families, spelled exactly "
    "as in the parameter schema (case-sensitive).";
inline constexpr char kInvalidCurrency[] =
    "Argument 'currency' must be three upper-case letters, such as USD or EUR.";
inline constexpr char kRegionCase[] =
    "Argument 'region' differs only in letter case from the price-list location value "
    "'\u00ABlocation value\u00BB'; location values are exact and case-sensitive. Give it exactly "
    "as '\u00ABlocation value\u00BB', or give an ARM region name such as eastus. The location "
    "values are \u00ABlocation values\u00BB.";
inline constexpr char kRegionSpacing[] =
    "Argument 'region' matches the price-list location value '\u00ABlocation value\u00BB' only "
    "with its spaces changed; location values are exact. Give it exactly as "
    "'\u00ABlocation value\u00BB'.";
inline constexpr char kRegionEnds[] =
    "Argument 'region' must not start or end with a space: ARM region names (such as eastus) and "
    "the price-list location values are exact.";
inline constexpr char kMissingFilter[] =
    "At least one of sku, service, region, service_family, price_type or filter is required; "
    "currency and include_savings_plan do not count.";
inline constexpr char kServiceWithoutSku[] =
    "Argument 'service' requires 'sku': the pinned CLI rejects a service without a SKU, even with "
    "a filter. Instead, omit both service and sku and filter on serviceName, productName or "
    "meterName instead. For Private Endpoint pricing use region=\"eastus\" with "
    "filter=\"serviceName eq 'Virtual Network' and productName eq 'Virtual Network Private Link' "
    "and meterName eq 'Standard Private Endpoint'\"; those rows have an empty ARM SKU and return "
    "as a Global fallback.";

// The host's configuration and its sandbox (ref/pricing/bounds.cc, host.cc).
inline constexpr char kInvalidExecTimeout[] =
    "Host bound exec_timeout_seconds must be between 1 and 600.";
inline constexpr char kInvalidOutputBytes[] =
    "Host bound max_output_bytes must be between 1024 and 67108864.";
inline constexpr char kInvalidMaxRows[] = "Host bound max_rows must be between 1 and 5000.";
inline constexpr char kImageRequired[] =
    "make_azure_pricing_tools needs an image that provides /usr/local/bin/azmcp.";
inline constexpr char kAgentIdRequired[] =
    "make_azure_pricing_tools needs the agent id that keys its sandboxes.";
inline constexpr char kInvalidOutboundCap[] =
    "outbound_max_confidentiality must be public, private or user_identity.";
inline constexpr char kBackendWithoutBoundedExec[] =
    "The sandbox backend does not offer bounded execution, which this tool requires.";
inline constexpr char kSandboxWithoutBoundedExec[] =
    "The sandbox does not offer bounded execution, which this tool requires; the CLI was not "
    "run.";
inline constexpr char kDisposeFailed[] =
    "The sandbox could not be disposed after the call; any result was discarded.";
inline constexpr char kExecFailed[] = "The sandbox failed to execute the pricing CLI.";

// The CLI's result (ref/pricing/envelope.cc). The upstream 400's text is the spec's "fixed
// filter-correction guidance" (UPSTREAM-002).
inline constexpr char kFilterCorrectionGuidance[] =
    "The price API rejected the filter (HTTP 400). Filters may use only these fields: "
    "armRegionName, location, meterId, meterName, productId, skuId, productName, skuName, "
    "serviceName, serviceId, serviceFamily, priceType, armSkuName and reservationTerm, with eq, "
    "and, or, parentheses and contains(meterName, 'Spot') for substrings. Values are "
    "case-sensitive and quoted with single quotes. There is no operating-system field such as "
    "osType: Windows virtual-machine meters have Windows at the end of productName. skuName is a "
    "price-list value, not a portal display name. The API accepts at most 20 comparisons per "
    "query, and a region argument that names an ARM region uses 13 of them. Correct the filter "
    "and try again.";
inline constexpr char kTimeout[] =
    "The pricing lookup did not finish within the host's time limit; no prices were returned. "
    "Narrow the query or try again later.";
inline constexpr char kOutputLimit[] =
    "The pricing CLI produced more output than the host allows; no prices were returned. Narrow "
    "the query.";
inline constexpr char kStderrNotEmpty[] =
    "The pricing CLI wrote to its error stream; its result was not accepted.";
inline constexpr char kOutputNotUtf8[] =
    "The pricing CLI's output is not valid UTF-8; it was not accepted.";
inline constexpr char kDuplicateKey[] =
    "The pricing CLI's output repeats a key in a JSON object; it was not accepted.";
inline constexpr char kNonFiniteNumber[] =
    "The pricing CLI's output holds a non-finite or out-of-range number; it was not accepted.";
inline constexpr char kMalformedEnvelope[] =
    "The pricing CLI's output is not the expected result envelope; it was not accepted.";
inline constexpr char kMalformedRow[] =
    "A price row from the pricing CLI is malformed; no prices were returned.";
inline constexpr char kCliFailed[] =
    "The pricing lookup failed: the CLI reported an error (for example the price API was "
    "unreachable or answered with an error). Try again later or narrow the query.";
inline constexpr char kUpstreamNotFound[] =
    "The price API answered 404 (Not Found). It does so when the request URL is longer than about "
    "2,048 characters: shorten the filter or use fewer arguments.";
inline constexpr char kUpstreamValueUnknown[] =
    "The price list returned a service family or price type that the pinned CLI does not know, "
    "so the CLI dropped every row. Narrow the query (for example with serviceName or "
    "serviceFamily) to avoid those meters.";

// `text` with every occurrence of `placeholder` replaced by `value`.
inline std::string Fill(std::string_view text, std::string_view placeholder,
                        std::string_view value) {
  std::string out;
  size_t at = 0;
  for (size_t hit = text.find(placeholder); hit != std::string_view::npos;
       hit = text.find(placeholder, at)) {
    out.append(text.substr(at, hit - at)).append(value);
    at = hit + placeholder.size();
  }
  out.append(text.substr(at));
  return out;
}

struct Message {
  Reason reason;
  const char* text;
};

// Every message above with the reason it goes with, in the order of docs/profile.md's reason
// table (a reason with several messages lists them together).
inline constexpr std::array kAll = {
    Message{reasons::kArgumentsTooLarge, kArgumentsTooLarge},
    Message{reasons::kMalformedArguments, kMalformedArguments},
    Message{reasons::kUnknownArgument, kUnknownArgument},
    Message{reasons::kWrongType, kNotAString},
    Message{reasons::kWrongType, kNotABoolean},
    Message{reasons::kDuplicateArgument, kArgumentRepeated},
    Message{reasons::kDuplicateArgument, kKeyRepeated},
    Message{reasons::kEmptyValue, kEmpty},
    Message{reasons::kEmptyValue, kBlank},
    Message{reasons::kInvalidUtf8, kArgumentNotUtf8},
    Message{reasons::kInvalidUtf8, kArgumentsNotUtf8},
    Message{reasons::kForbiddenCharacter, kForbiddenCharacter},
    Message{reasons::kValueTooLong, kTooLong},
    Message{reasons::kOptionLikeValue, kOptionLike},
    Message{reasons::kUnbalancedFilter, kUnbalancedFilter},
    Message{reasons::kInvalidPriceType, kInvalidPriceType},
    Message{reasons::kInvalidServiceFamily, kInvalidServiceFamily},
    Message{reasons::kInvalidCurrency, kInvalidCurrency},
    Message{reasons::kMissingFilter, kMissingFilter},
    Message{reasons::kServiceWithoutSku, kServiceWithoutSku},
    Message{reasons::kRegionCaseMismatch, kRegionCase},
    Message{reasons::kRegionWhitespace, kRegionSpacing},
    Message{reasons::kRegionWhitespace, kRegionEnds},
    Message{reasons::kInvalidHostBounds, kInvalidExecTimeout},
    Message{reasons::kInvalidHostBounds, kInvalidOutputBytes},
    Message{reasons::kInvalidHostBounds, kInvalidMaxRows},
    Message{reasons::kImageRequired, kImageRequired},
    Message{reasons::kAgentIdRequired, kAgentIdRequired},
    Message{reasons::kInvalidOutboundCap, kInvalidOutboundCap},
    Message{reasons::kBoundedExecMissing, kBackendWithoutBoundedExec},
    Message{reasons::kBoundedExecMissing, kSandboxWithoutBoundedExec},
    Message{sandbox::kDisposeFailed, kDisposeFailed},
    Message{reasons::kExecFailed, kExecFailed},
    Message{reasons::kTimeout, kTimeout},
    Message{reasons::kOutputLimit, kOutputLimit},
    Message{reasons::kStderrNotEmpty, kStderrNotEmpty},
    Message{reasons::kInvalidUtf8, kOutputNotUtf8},
    Message{reasons::kDuplicateKey, kDuplicateKey},
    Message{reasons::kNonFiniteNumber, kNonFiniteNumber},
    Message{reasons::kMalformedEnvelope, kMalformedEnvelope},
    Message{reasons::kMalformedRow, kMalformedRow},
    Message{reasons::kCliFailed, kCliFailed},
    Message{reasons::kUpstreamFilterRejected, kFilterCorrectionGuidance},
    Message{reasons::kUpstreamNotFound, kUpstreamNotFound},
    Message{reasons::kUpstreamValueUnknown, kUpstreamValueUnknown},
};

}  // namespace azure_pricing::messages

#endif  // REF_PRICING_MESSAGES_H_
