#include "ref/pricing/arguments.h"

#include <cstdint>
#include <string>

#include "ref/json/json.h"
#include "ref/json/reader.h"

namespace azure_pricing {
namespace {

Status Refuse(std::string_view reason, std::string message) {
  return Status(Outcome::kRefused, reason, std::move(message));
}

std::string Named(std::string_view name) { return "Argument '" + std::string(name) + "'"; }

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

size_t CodePointCount(std::string_view s) {
  size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

Status CheckText(std::string_view name, const std::string& value, size_t max_length) {
  if (value.empty()) {
    return Refuse("empty_value", Named(name) + " must not be empty; leave it out instead.");
  }
  const std::string_view why = ForbiddenCharacterReason(value);
  if (why == "invalid_utf8") {
    return Refuse("invalid_utf8", Named(name) + " is not valid UTF-8.");
  }
  if (!why.empty()) {
    return Refuse(
        "forbidden_character",
        Named(name) + " contains a control, line-separator or bidirectional-control character.");
  }
  if (CodePointCount(value) > max_length) {
    return Refuse("value_too_long",
                  Named(name) + " is longer than " + std::to_string(max_length) + " characters.");
  }
  return OkStatus();
}

Status CheckTypedValue(std::string_view name, const std::string& value) {
  if (Status s = CheckText(name, value, kMaxTypedValueLength); !s.ok()) return s;
  // The CLI's parser reads a leading '@' as a response file to expand and "--" as the end of
  // options; neither may reach it as a value.
  if (value.front() == '@' || value.front() == '-') {
    return Refuse("option_like_value",
                  Named(name) +
                      " must not start with '-' or '@' (the CLI would read it as an "
                      "option or a file to expand).");
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
  if (!json::IsValidUtf8(text)) return "invalid_utf8";
  size_t i = 0;
  while (i < text.size()) {
    const uint32_t cp = DecodeAt(text, i);
    if (!IsForbiddenCodePoint(cp)) continue;
    if (cp == 0x2028 || cp == 0x2029) return "line_separator";
    if (IsBidiControl(cp)) return "bidi_control";
    return "control_character";
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
    return Refuse("arguments_too_large", "The arguments object is larger than " +
                                             std::to_string(kMaxArgumentsJsonBytes) + " bytes.");
  }
  // Read member by member so that a bad byte or a repeated name can be pinned on its argument.
  json::Reader reader(arguments_json, /*max_depth=*/4, json::Reader::Utf8Check::kPerString);
  if (reader.Peek() != json::Reader::Next::kObject || !reader.BeginObject()) {
    return Refuse("malformed_arguments", "The arguments are not one JSON object.");
  }
  auto is_argument = [](const std::string& name) {
    for (std::string_view n : kArgumentNames) {
      if (name == n) return true;
    }
    return false;
  };
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
  const bool named =
      is_argument(key) && (key_complete || reader.error() == json::ParseError::kDuplicateKey);
  switch (reader.error()) {
    case json::ParseError::kNone:
      break;
    case json::ParseError::kInvalidUtf8:
      return named ? Refuse("invalid_utf8", Named(key) + " is not valid UTF-8.")
                   : Refuse("invalid_utf8", "The arguments are not valid UTF-8.");
    case json::ParseError::kDuplicateKey:
      return named ? Refuse("duplicate_argument", Named(key) + " is given more than once.")
                   : Refuse("duplicate_argument", "The arguments name the same key twice.");
    default:
      return Refuse("malformed_arguments", "The arguments are not one JSON object.");
  }
  if (!reader.Finish()) {
    return Refuse("malformed_arguments", "The arguments are not one JSON object.");
  }
  return ValidateToolArguments(arguments);
}

StatusOr<ToolArguments> ValidateToolArguments(const json::Value& arguments) {
  if (!arguments.is_object()) {
    return Refuse("malformed_arguments", "The arguments are not one JSON object.");
  }
  for (const json::Member& m : arguments.members()) {
    bool known = false;
    for (std::string_view name : kArgumentNames) known = known || m.key == name;
    if (!known) {
      return Refuse("unknown_argument",
                    "The arguments contain a name that is not one of: sku, service, region, "
                    "service_family, price_type, currency, include_savings_plan, filter.");
    }
  }
  ToolArguments args;
  // Strings in documented order; null means "not supplied", as a host's optional parameter.
  struct StringSlot {
    std::string_view name;
    std::optional<std::string>* slot;
  };
  std::optional<std::string> currency;
  const StringSlot slots[] = {{"sku", &args.sku},
                              {"service", &args.service},
                              {"region", &args.region},
                              {"service_family", &args.service_family},
                              {"price_type", &args.price_type},
                              {"currency", &currency},
                              {"filter", &args.filter}};
  for (const StringSlot& s : slots) {
    const json::Value* v = arguments.Find(s.name);
    if (v == nullptr || v->is_null()) continue;
    if (!v->is_string()) {
      return Refuse("wrong_type", Named(s.name) + " must be a string.");
    }
    *s.slot = v->as_string();
  }
  if (const json::Value* v = arguments.Find("include_savings_plan");
      v != nullptr && !v->is_null()) {
    if (!v->is_bool()) {
      return Refuse("wrong_type", Named("include_savings_plan") + " must be true or false.");
    }
    args.include_savings_plan = v->as_bool();
  }
  for (const StringSlot& s : slots) {
    if (!s.slot->has_value()) continue;
    const Status status = s.name == "filter" ? CheckText(s.name, **s.slot, kMaxFilterLength)
                                             : CheckTypedValue(s.name, **s.slot);
    if (!status.ok()) return status;
  }
  if (args.filter.has_value() && !FilterStaysParenthesized(*args.filter)) {
    return Refuse("unbalanced_filter",
                  "Argument 'filter' must balance its parentheses and close its quoted strings: it "
                  "is wrapped in parentheses so that it stays ANDed with the other filters.");
  }
  if (args.price_type.has_value()) {
    bool known = false;
    for (std::string_view t : kPriceTypes) known = known || *args.price_type == t;
    if (!known) {
      return Refuse("invalid_price_type",
                    "Argument 'price_type' must be exactly Consumption, Reservation or "
                    "DevTestConsumption (case-sensitive); savings plans come from "
                    "include_savings_plan.");
    }
  }
  if (args.service_family.has_value()) {
    bool known = false;
    for (std::string_view f : kServiceFamilies) known = known || *args.service_family == f;
    if (!known) {
      return Refuse("invalid_service_family",
                    "Argument 'service_family' must be one of the price list's service families, "
                    "spelled exactly as in the parameter schema (case-sensitive).");
    }
  }
  if (currency.has_value()) {
    const std::string& c = *currency;
    const bool upper3 = c.size() == 3 && c[0] >= 'A' && c[0] <= 'Z' && c[1] >= 'A' && c[1] <= 'Z' &&
                        c[2] >= 'A' && c[2] <= 'Z';
    if (!upper3) {
      return Refuse("invalid_currency",
                    "Argument 'currency' must be three upper-case letters, such as USD or EUR.");
    }
    args.currency = c;
  }
  const bool any_filter = args.sku || args.service || args.region || args.service_family ||
                          args.price_type || args.filter;
  if (!any_filter) {
    return Refuse("missing_filter",
                  "At least one of sku, service, region, service_family, price_type or filter is "
                  "required; currency and include_savings_plan do not count.");
  }
  if (args.service.has_value() && !args.sku.has_value()) {
    return Refuse(
        "service_without_sku",
        "Argument 'service' requires 'sku': the pinned CLI rejects a service without a SKU, "
        "even with a filter. Instead, omit both service and sku and filter on serviceName, "
        "productName "
        "or meterName instead. For Private Endpoint pricing use region=\"eastus\" with "
        "filter=\"serviceName eq 'Virtual Network' and productName eq 'Virtual Network Private "
        "Link' and meterName eq 'Standard Private Endpoint'\"; those rows have an empty ARM SKU "
        "and return as a Global fallback.");
  }
  return args;
}

}  // namespace azure_pricing
