#include "ref/pricing/arguments.h"

#include <cstdint>
#include <string>
#include <vector>

#include "ref/json/json.h"
#include "ref/json/reader.h"
#include "ref/pricing/messages.h"
#include "ref/pricing/reasons.h"
#include "ref/status/status_macros.h"
#include "ref/zones/location_values.h"

namespace azure_pricing {
namespace {

Status Refuse(Reason reason, std::string message) {
  return Status(Outcome::kRefused, reason, std::move(message));
}

// The message `text` about the argument `name`.
std::string About(std::string_view text, std::string_view name) {
  return messages::Fill(text, messages::kArgument, name);
}

// Decodes one code point; the input was already checked to be UTF-8.
uint32_t DecodeAt(std::string_view s, size_t& i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) {
    ++i;
    return c;
  }
  int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
  uint32_t cp = c & (0x3F >> extra);
  ++i;
  for (int k = 0; k < extra; ++k, ++i) cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3F);
  return cp;
}

bool IsBidiControl(uint32_t cp) {
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

bool IsForbiddenCodePoint(uint32_t cp) {
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
         IsBidiControl(cp);
}

// Unicode White_Space characters that the character rule does not already forbid (it forbids
// the controls among them, U+0085, U+2028 and U+2029).
bool IsSpace(uint32_t cp) {
  // U+FEFF is not White_Space, but JSON Schema's ECMAScript \s counts it, and the schema's
  // patterns must agree with this rule.
  return cp == 0x20 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) ||
         cp == 0x202F || cp == 0x205F || cp == 0x3000 || cp == 0xFEFF;
}

// True when every character is a space; the text was already checked to be UTF-8.
bool IsBlank(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    if (!IsSpace(DecodeAt(s, i))) return false;
  }
  return true;
}

template <size_t N>
bool OneOf(const std::string& value, const std::array<std::string_view, N>& allowed) {
  for (std::string_view a : allowed) {
    if (value == a) return true;
  }
  return false;
}

size_t CodePointCount(std::string_view s) {
  size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

Status CheckText(std::string_view name, const std::string& value, size_t max_length) {
  if (value.empty()) {
    return Refuse(reasons::kEmptyValue, About(messages::kEmpty, name));
  }
  const std::string_view why = ForbiddenCharacterReason(value);
  if (why.empty() && IsBlank(value)) {
    return Refuse(reasons::kEmptyValue, About(messages::kBlank, name));
  }
  if (why == kCharInvalidUtf8) {
    return Refuse(reasons::kInvalidUtf8, About(messages::kArgumentNotUtf8, name));
  }
  if (!why.empty()) {
    return Refuse(reasons::kForbiddenCharacter, About(messages::kForbiddenCharacter, name));
  }
  if (CodePointCount(value) > max_length) {
    return Refuse(reasons::kValueTooLong,
                  messages::Fill(About(messages::kTooLong, name), messages::kMaximum,
                                 std::to_string(max_length)));
  }
  return OkStatus();
}

Status CheckTypedValue(std::string_view name, const std::string& value) {
  RETURN_IF_ERROR(CheckText(name, value, kMaxTypedValueLength));
  // The CLI's parser reads a leading '@' as a response file to expand and "--" as the end of
  // options; neither may reach it as a value.
  if (value.front() == '@' || value.front() == '-') {
    return Refuse(reasons::kOptionLikeValue, About(messages::kOptionLike, name));
  }
  return OkStatus();
}

}  // namespace

OutsideLiterals BlankLiterals(std::string_view filter) {
  OutsideLiterals out{std::string(filter), true};
  bool in_literal = false;
  for (size_t i = 0; i < out.text.size(); ++i) {
    if (out.text[i] != '\'') {
      if (in_literal) out.text[i] = ' ';
      continue;
    }
    out.text[i] = ' ';
    if (!in_literal) {
      in_literal = true;
    } else if (i + 1 < out.text.size() && out.text[i + 1] == '\'') {
      out.text[++i] = ' ';  // '' is a quote inside the literal
    } else {
      in_literal = false;
    }
  }
  out.literals_closed = !in_literal;
  return out;
}

bool FilterStaysParenthesized(std::string_view filter) {
  const OutsideLiterals outside = BlankLiterals(filter);
  int depth = 0;
  for (const char c : outside.text) {
    if (c == '(') {
      ++depth;
    } else if (c == ')' && --depth < 0) {
      return false;
    }
  }
  return depth == 0 && outside.literals_closed;
}

std::string_view ForbiddenCharacterReason(std::string_view text) {
  if (!json::IsValidUtf8(text)) return kCharInvalidUtf8;
  size_t i = 0;
  while (i < text.size()) {
    const uint32_t cp = DecodeAt(text, i);
    if (!IsForbiddenCodePoint(cp)) continue;
    if (cp == 0x2028 || cp == 0x2029) return kCharLineSeparator;
    if (IsBidiControl(cp)) return kCharBidiControl;
    return kCharControl;
  }
  return {};
}

std::string TerminalSafe(std::string_view text, size_t max_chars) {
  std::string out;
  size_t chars = 0;
  size_t i = 0;
  while (i < text.size()) {
    if (chars == max_chars) {
      out.push_back('~');
      break;
    }
    const size_t start = i;
    // Decode only sequences that are valid on their own; anything else is one '?' per byte.
    const size_t n = json::IsValidUtf8(text.substr(i, 1))                             ? 1
                     : (i + 2 <= text.size() && json::IsValidUtf8(text.substr(i, 2))) ? 2
                     : (i + 3 <= text.size() && json::IsValidUtf8(text.substr(i, 3))) ? 3
                     : (i + 4 <= text.size() && json::IsValidUtf8(text.substr(i, 4))) ? 4
                                                                                      : 0;
    ++chars;
    if (n == 0) {
      out.push_back('?');
      ++i;
      continue;
    }
    const uint32_t cp = DecodeAt(text, i);
    if (IsForbiddenCodePoint(cp)) {
      out.push_back('?');
    } else {
      out.append(text.substr(start, n));
    }
  }
  return out;
}

StatusOr<ToolArguments> ParseToolArguments(std::string_view arguments_json) {
  if (arguments_json.size() > kMaxArgumentsJsonBytes) {
    return Refuse(reasons::kArgumentsTooLarge,
                  messages::Fill(messages::kArgumentsTooLarge, messages::kMaximum,
                                 std::to_string(kMaxArgumentsJsonBytes)));
  }
  // Read member by member so that a bad byte or a repeated name can be pinned on its argument.
  json::Reader reader(arguments_json, /*max_depth=*/4, json::Reader::Utf8Check::kPerString);
  if (reader.Peek() != json::Reader::Next::kObject || !reader.BeginObject()) {
    return Refuse(reasons::kMalformedArguments, messages::kMalformedArguments);
  }
  json::Value arguments = json::Value::Object();
  std::string key;
  bool key_complete = false;
  while (true) {
    key_complete = false;
    if (!reader.NextMember(key)) break;
    key_complete = true;
    json::Value value;
    if (!reader.ReadValue(value)) break;
    arguments.Add(key, std::move(value));
  }
  // A fault met while reading an argument's value lies in that value; a repeated name met
  // before its value is the argument's own name given twice. A name repeated deeper, inside a
  // value, is not the argument given twice, so that message names no argument.
  const bool in_value = OneOf(key, kArgumentNames) && key_complete;
  const bool name_repeated = OneOf(key, kArgumentNames) && !key_complete;
  switch (reader.error()) {
    case json::ParseError::kNone:
      break;
    case json::ParseError::kInvalidUtf8:
      return Refuse(reasons::kInvalidUtf8, in_value ? About(messages::kArgumentNotUtf8, key)
                                                    : messages::kArgumentsNotUtf8);
    case json::ParseError::kDuplicateKey:
      return Refuse(reasons::kDuplicateArgument, name_repeated
                                                     ? About(messages::kArgumentRepeated, key)
                                                     : messages::kKeyRepeated);
    default:
      return Refuse(reasons::kMalformedArguments, messages::kMalformedArguments);
  }
  if (!reader.Finish()) {
    return Refuse(reasons::kMalformedArguments, messages::kMalformedArguments);
  }
  return ValidateToolArguments(arguments);
}

namespace {

Status CheckArgumentNames(const json::Value& arguments) {
  for (const json::Member& m : arguments.members()) {
    if (!OneOf(m.key, kArgumentNames)) {
      return Refuse(reasons::kUnknownArgument, messages::kUnknownArgument);
    }
  }
  return OkStatus();
}

// The string arguments in documented order, and where each one lands.
struct StringSlot {
  std::string_view name;
  std::optional<std::string>* slot;
};

// Reads the values with their JSON types; null means "not supplied", as a host's optional
// parameter.
Status ReadValues(const json::Value& arguments, const std::vector<StringSlot>& slots,
                  bool& include_savings_plan) {
  for (const StringSlot& s : slots) {
    const json::Value* v = arguments.Find(s.name);
    if (v == nullptr || v->is_null()) continue;
    if (!v->is_string()) return Refuse(reasons::kWrongType, About(messages::kNotAString, s.name));
    *s.slot = v->as_string();
  }
  if (const json::Value* v = arguments.Find("include_savings_plan");
      v != nullptr && !v->is_null()) {
    if (!v->is_bool()) {
      return Refuse(reasons::kWrongType, messages::kNotABoolean);
    }
    include_savings_plan = v->as_bool();
  }
  return OkStatus();
}

bool IsCurrencyCode(const std::string& c) {
  return c.size() == 3 && c[0] >= 'A' && c[0] <= 'Z' && c[1] >= 'A' && c[1] <= 'Z' && c[2] >= 'A' &&
         c[2] <= 'Z';
}

// Price-list location values and ARM region names are exact: "global", "zone 1" or "eastus "
// would otherwise be expanded as unknown ARM regions, silently losing their rows or mislabelling
// them. A near miss is refused, naming the value it was meant to be (a constant, never the input).
Status CheckRegionSpelling(const std::optional<std::string>& region) {
  if (!region.has_value()) return OkStatus();
  const std::string& r = *region;
  if (const std::optional<std::string_view> exact = zones::LocationValueDifferingInCase(r)) {
    return Refuse(reasons::kRegionCaseMismatch,
                  messages::Fill(messages::Fill(messages::kRegionCase, messages::kLocationValue,
                                                *exact),
                                 messages::kLocationValues, zones::LocationValueList()));
  }
  if (const std::optional<std::string_view> exact = zones::LocationValueDifferingInSpacing(r)) {
    return Refuse(reasons::kRegionWhitespace,
                  messages::Fill(messages::kRegionSpacing, messages::kLocationValue, *exact));
  }
  // The value is non-empty UTF-8 by now: decode its first and its last character.
  size_t first = 0;
  const uint32_t head = DecodeAt(r, first);
  size_t last = r.size() - 1;
  while (last > 0 && (static_cast<unsigned char>(r[last]) & 0xC0) == 0x80) --last;
  const uint32_t tail = DecodeAt(r, last);
  if (IsSpace(head) || IsSpace(tail)) {
    return Refuse(reasons::kRegionWhitespace, messages::kRegionEnds);
  }
  return OkStatus();
}

Status CheckPriceListValues(const ToolArguments& args, const std::optional<std::string>& currency) {
  if (args.filter.has_value() && !FilterStaysParenthesized(*args.filter)) {
    return Refuse(reasons::kUnbalancedFilter, messages::kUnbalancedFilter);
  }
  if (args.price_type.has_value() && !OneOf(*args.price_type, kPriceTypes)) {
    return Refuse(reasons::kInvalidPriceType, messages::kInvalidPriceType);
  }
  if (args.service_family.has_value() && !OneOf(*args.service_family, kServiceFamilies)) {
    return Refuse(reasons::kInvalidServiceFamily, messages::kInvalidServiceFamily);
  }
  if (currency.has_value() && !IsCurrencyCode(*currency)) {
    return Refuse(reasons::kInvalidCurrency, messages::kInvalidCurrency);
  }
  return CheckRegionSpelling(args.region);
}

Status CheckCombination(const ToolArguments& args) {
  const bool any_filter = args.sku || args.service || args.region || args.service_family ||
                          args.price_type || args.filter;
  if (!any_filter) {
    return Refuse(reasons::kMissingFilter, messages::kMissingFilter);
  }
  if (args.service.has_value() && !args.sku.has_value()) {
    return Refuse(reasons::kServiceWithoutSku, messages::kServiceWithoutSku);
  }
  return OkStatus();
}

}  // namespace

StatusOr<ToolArguments> ValidateToolArguments(const json::Value& arguments) {
  if (!arguments.is_object()) {
    return Refuse(reasons::kMalformedArguments, messages::kMalformedArguments);
  }
  RETURN_IF_ERROR(CheckArgumentNames(arguments));
  ToolArguments args;
  std::optional<std::string> currency;
  const std::vector<StringSlot> slots = {{"sku", &args.sku},
                                         {"service", &args.service},
                                         {"region", &args.region},
                                         {"service_family", &args.service_family},
                                         {"price_type", &args.price_type},
                                         {"currency", &currency},
                                         {"filter", &args.filter}};
  RETURN_IF_ERROR(ReadValues(arguments, slots, args.include_savings_plan));
  for (const StringSlot& s : slots) {
    if (!s.slot->has_value()) continue;
    const Status status = s.name == "filter" ? CheckText(s.name, **s.slot, kMaxFilterLength)
                                             : CheckTypedValue(s.name, **s.slot);
    if (!status.ok()) return status;
  }
  RETURN_IF_ERROR(CheckPriceListValues(args, currency));
  if (currency.has_value()) args.currency = *currency;
  RETURN_IF_ERROR(CheckCombination(args));
  return args;
}

}  // namespace azure_pricing
