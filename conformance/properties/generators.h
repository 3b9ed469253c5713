// RapidCheck generators for arguments and CLI envelopes (testonly). Envelopes are built with
// nlohmann::json and printed the way the CLI prints them (2-space indent), independently of the
// reference library's own reader and writer.
#ifndef CONFORMANCE_PROPERTIES_GENERATORS_H_
#define CONFORMANCE_PROPERTIES_GENERATORS_H_

#include <rapidcheck.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace azure_pricing::conformance::properties {

using Json = nlohmann::ordered_json;

// A value every argument accepts: 8 to 48 characters, printable, starting with a letter, with
// a distinctive random core so that an echo in a message can be detected.
rc::Gen<std::string> GenSafeValue();

// A valid arguments object (at least one filter; service only with sku).
rc::Gen<Json> GenValidArguments();

// Text that breaks the spec's character rule (ARG-008): one C0/C1 control, DEL or a
// bidirectional control, as UTF-8. Not U+2028/U+2029: refusing those is only RECOMMENDED
// (PROFILE-008), so a property an outside implementation must pass cannot draw them.
rc::Gen<std::string> GenForbiddenCharacter();

// U+2028 or U+2029 as UTF-8: what the reference also refuses (PROFILE-008).
rc::Gen<std::string> GenLineOrParagraphSeparator();

// A byte sequence that is not UTF-8.
rc::Gen<std::string> GenInvalidUtf8();

// The non-ARM location values of the price list (Global and every billing zone), written out
// here from the specification and the price-list evidence, independently of the reference's
// own list.
const std::vector<std::string>& LocationValuesForTests();

// 1 to 6 whitespace characters (space, no-break space, en/em/ideographic spaces, ...), none of
// them a control: text that is blank but passes the character rule.
rc::Gen<std::string> GenBlankValue();

// A spelling of `exact` that differs from it only in ASCII letter case (never `exact` itself).
rc::Gen<std::string> GenCaseVariant(const std::string& exact);

// One valid CLI row, keys in the CLI's order; sometimes with reservationTerm, savingsPlan or a
// key the tool does not know (which must not be forwarded).
rc::Gen<Json> GenRow();

// The row as the report must forward it: unknown keys removed, order kept.
Json ForwardedRow(const Json& row);

// `n` rows cycling through `templates`, each with its own meterId, so that large envelopes stay
// cheap to generate.
std::vector<Json> RepeatRows(const std::vector<Json>& templates, int n);

// {"status":200,"message":"Success","results":{"prices":rows},"duration":d} as the CLI prints it.
std::string PrintEnvelope(const std::vector<Json>& rows, int duration);

// Arguments JSON text with values spliced in verbatim (bytes not escaped beyond JSON's needs),
// so invalid UTF-8 can reach the parser.
std::string ArgumentsText(const Json& arguments, const std::string& raw_key,
                          const std::string& raw_value);

// Whether the arguments' region is an ARM region, which the tool expands into a region set.
bool RegionExpands(const Json& arguments);

// What is wrong with `argv` as the fixed command for `arguments` (written out here from the
// spec, independently of the planner), or "" when nothing is: azmcp pricing get; every typed
// value its own element right after its option, each option once, in the fixed order; currency
// defaulting to USD; the raw filter in parentheses; an ARM region replaced by the region set
// ANDed before the raw filter; --include-savings-plan only when asked for.
std::string ArgvProblem(const Json& arguments, const std::vector<std::string>& argv);

}  // namespace azure_pricing::conformance::properties

namespace nlohmann {
// Counterexamples print as JSON text; found by RapidCheck through argument-dependent lookup.
inline void showValue(const ordered_json& value, std::ostream& os) { os << value.dump(); }
}  // namespace nlohmann

#endif  // CONFORMANCE_PROPERTIES_GENERATORS_H_
