#include "ref/pricing/envelope.h"

#include <algorithm>

#include <cmath>
#include <string_view>

#include "ref/json/json.h"
#include "ref/json/reader.h"
#include "ref/pricing/messages.h"
#include "ref/pricing/reasons.h"

namespace azure_pricing {

namespace {

Status Fail(Reason reason, const char* message) {
  return Status(Outcome::kFailed, reason, message);
}

Status Timeout() {
  return Fail(reasons::kTimeout, messages::kTimeout);
}
Status OutputLimit() {
  return Fail(reasons::kOutputLimit, messages::kOutputLimit);
}
Status MalformedEnvelope() {
  return Fail(reasons::kMalformedEnvelope, messages::kMalformedEnvelope);
}
Status MalformedRow() {
  return Fail(reasons::kMalformedRow, messages::kMalformedRow);
}
Status CliFailed() {
  return Fail(reasons::kCliFailed, messages::kCliFailed);
}

Status ForParseError(json::ParseError error) {
  switch (error) {
    case json::ParseError::kInvalidUtf8:
      return Fail(reasons::kInvalidUtf8, messages::kOutputNotUtf8);
    case json::ParseError::kDuplicateKey:
      return Fail(reasons::kDuplicateKey, messages::kDuplicateKey);
    case json::ParseError::kNonFiniteNumber:
      return Fail(reasons::kNonFiniteNumber, messages::kNonFiniteNumber);
    default:
      return MalformedEnvelope();
  }
}

bool IsWholeNumber(const json::Value* v) {
  return v != nullptr && v->is_number() && std::floor(v->as_number()) == v->as_number();
}

// The CLI's own failure envelopes: upstream HTTP errors arrive as status 500 with the upstream
// status only inside the message text, which is matched here and never passed on.
Status ClassifyFailureEnvelope(const json::Value& envelope) {
  const json::Value* results = envelope.Find("results");
  if (results != nullptr && results->is_object()) {
    const json::Value* type = results->Find("type");
    const json::Value* message = results->Find("message");
    if (type != nullptr && type->is_string() && message != nullptr && message->is_string()) {
      const std::string& t = type->as_string();
      const std::string& m = message->as_string();
      if (t == "ClientResultException" &&
          m.rfind("Service request failed.\nStatus: 400 ", 0) == 0) {
        return Fail(reasons::kUpstreamFilterRejected, kFilterCorrectionGuidance);
      }
      if (t == "ClientResultException" &&
          m.rfind("Service request failed.\nStatus: 404 ", 0) == 0) {
        return Fail(reasons::kUpstreamNotFound, messages::kUpstreamNotFound);
      }
      if (t == "ArgumentOutOfRangeException" && (m.rfind("Unknown ServiceFamily value.", 0) == 0 ||
                                                 m.rfind("Unknown PriceType value.", 0) == 0)) {
        return Fail(reasons::kUpstreamValueUnknown, messages::kUpstreamValueUnknown);
      }
    }
  }
  return CliFailed();
}

// One row, whichever reader reads it. The document reader and the streaming reader differ only
// in where a value comes from; the fields a row holds, the kind of each and every rule its values
// must meet are written once below and called by both, so the two cannot drift apart on a rule.

enum RowField : uint32_t {
  kArmSkuName,
  kSkuName,
  kProductName,
  kServiceName,
  kServiceFamily,
  kRegion,
  kLocation,
  kRetailPrice,
  kUnitPrice,
  kCurrencyCode,
  kUnitOfMeasure,
  kPriceType,
  kEffectiveStartDate,
  kMeterName,
  kMeterId,
  kIsPrimaryMeterRegion,
  kRequiredFieldCount,
  kReservationTerm = kRequiredFieldCount,
  kSavingsPlan,
  kUnknownField
};

constexpr std::string_view kRowFieldNames[] = {
    "armSkuName",         "skuName",      "productName",   "serviceName",
    "serviceFamily",      "region",       "location",      "retailPrice",
    "unitPrice",          "currencyCode", "unitOfMeasure", "priceType",
    "effectiveStartDate", "meterName",    "meterId",       "isPrimaryMeterRegion",
    "reservationTerm",    "savingsPlan"};

// The fewest bytes a row can take: its required members with empty strings, one-digit prices,
// an 11-letter price type and `true`, its braces and the comma after it. The text's size over
// this bounds the row count, so the rows are reserved once and never move; capacity that no row
// fills is never touched, so it costs address space, not memory.
constexpr size_t MinRowBytes() {
  size_t n = 2 + 1 + (kRequiredFieldCount - 1);  // braces, the comma after, the members' commas
  for (uint32_t f = 0; f < kRequiredFieldCount; ++f) n += kRowFieldNames[f].size() + 3;  // "k":
  return n + 12 * 2 + (2 + 11) + 2 * 1 + 4;  // 12 strings, priceType, 2 prices, the bool
}
static_assert(MinRowBytes() == 283);

// The CLI prints fields in a fixed order, so the field after the previous one is tried first.
inline RowField FieldOf(std::string_view key, uint32_t expected) {
  if (expected < kUnknownField && kRowFieldNames[expected] == key) {
    return static_cast<RowField>(expected);
  }
  for (uint32_t i = 0; i < kUnknownField; ++i) {
    if (kRowFieldNames[i].size() == key.size() && kRowFieldNames[i] == key) {
      return static_cast<RowField>(i);
    }
  }
  return kUnknownField;
}

// The row's text members by field; nullptr for the fields that are not plain strings.
constexpr std::string PriceRow::*kStringMembers[kRequiredFieldCount] = {
    &PriceRow::arm_sku_name,
    &PriceRow::sku_name,
    &PriceRow::product_name,
    &PriceRow::service_name,
    &PriceRow::service_family,
    &PriceRow::region,
    &PriceRow::location,
    nullptr,
    nullptr,
    &PriceRow::currency_code,
    &PriceRow::unit_of_measure,
    &PriceRow::price_type,
    &PriceRow::effective_start_date,
    &PriceRow::meter_name,
    &PriceRow::meter_id,
    nullptr};

bool IsPrice(double value) { return std::isfinite(value) && value >= 0; }

// Every rule a row's values must meet once a reader has read them; `seen` holds a bit per
// RowField the row held. The readers check only that each value is of its field's kind. Every
// rule is reported as malformed_row, so a bool says it all and keeps the streaming path free of
// Status.
bool RowRulesHold(const PriceRow& row, uint32_t seen) {
  constexpr uint32_t kRequired = (1u << kRequiredFieldCount) - 1;
  if ((seen & kRequired) != kRequired) return false;
  if (!IsPrice(row.retail_price) || !IsPrice(row.unit_price)) return false;
  if (row.price_type != "Consumption" && row.price_type != "Reservation" &&
      row.price_type != "DevTestConsumption") {
    return false;
  }
  if (row.reservation_term.has_value() && row.reservation_term->empty()) return false;
  // A reservation price is meaningless without its term: retailPrice covers the whole term.
  if (row.price_type == "Reservation" && !row.reservation_term.has_value()) return false;
  if ((seen & (1u << kSavingsPlan)) != 0) {
    // The CLI leaves the key out when there is no plan, so an empty array is not its shape.
    if (row.savings_plan.empty()) return false;
    for (const SavingsPlanPrice& plan : row.savings_plan) {
      if (plan.term.empty() || !IsPrice(plan.unit_price) || !IsPrice(plan.retail_price)) {
        return false;
      }
    }
  }
  return true;
}

// A parsed value read through the streaming reader's calls, so that one set of field readers
// serves both paths. Each call refuses a value of another kind, as the reader's do.
class ValueSource {
 public:
  explicit ValueSource(const json::Value& value) : value_(value) {}
  const json::Value& value() const { return value_; }

  bool ReadString(std::string& out) const {
    if (!value_.is_string()) return false;
    out = value_.as_string();
    return true;
  }
  bool ReadNumber(double& out) const {
    if (!value_.is_number()) return false;
    out = value_.as_number();
    return true;
  }
  bool ReadBool(bool& out) const {
    if (!value_.is_bool()) return false;
    out = value_.as_bool();
    return true;
  }
  bool SkipValue() const { return true; }  // the parser has already checked it

 private:
  const json::Value& value_;
};

// Array items and object members, handed to `fn` as sources of the same kind; false when the
// value is not an array (an object), a member's value fails `fn`, or the text breaks off.
template <class Fn>
bool ForEachItem(json::Reader& r, Fn fn) {
  if (r.Peek() != json::Reader::Next::kArray || !r.BeginArray()) return false;
  while (r.NextItem()) {
    if (!fn(r)) return false;
  }
  return r.ok();
}
template <class Fn>
bool ForEachItem(const ValueSource& source, Fn fn) {
  if (!source.value().is_array()) return false;
  for (const json::Value& item : source.value().items()) {
    ValueSource value(item);
    if (!fn(value)) return false;
  }
  return true;
}
template <class Fn>
bool ForEachMember(json::Reader& r, std::string& key, Fn fn) {
  if (r.Peek() != json::Reader::Next::kObject || !r.BeginObject()) return false;
  while (r.NextMember(key)) {
    if (!fn(std::string_view(key), r)) return false;
  }
  return r.ok();
}
template <class Fn>
bool ForEachMember(const ValueSource& source, std::string&, Fn fn) {
  if (!source.value().is_object()) return false;
  for (const json::Member& m : source.value().members()) {
    ValueSource value(m.value);
    if (!fn(std::string_view(m.key), value)) return false;
  }
  return true;
}

// The savings plans as read; RowRules judges their values. False when an item is not an object
// or lacks one of its three members.
template <class Source>
bool ReadSavingsPlan(Source& source, std::vector<SavingsPlanPrice>& out, std::string& key) {
  return ForEachItem(source, [&](auto& item) {
    SavingsPlanPrice plan;
    bool term = false, unit = false, retail = false;
    const bool read = ForEachMember(item, key, [&](std::string_view name, auto& value) {
      if (name == "term") return term = value.ReadString(plan.term);
      if (name == "unitPrice") return unit = value.ReadNumber(plan.unit_price);
      if (name == "retailPrice") return retail = value.ReadNumber(plan.retail_price);
      return value.SkipValue();
    });
    if (!read || !term || !unit || !retail) return false;
    out.push_back(std::move(plan));
    return true;
  });
}

// Reads one member's value into the row; false when it is not of the field's kind.
template <class Source>
bool ReadField(Source& value, RowField field, PriceRow& row, std::string& key) {
  if (field < kRequiredFieldCount && kStringMembers[field] != nullptr) {
    return value.ReadString(row.*kStringMembers[field]);
  }
  switch (field) {
    case kRetailPrice:
      return value.ReadNumber(row.retail_price);
    case kUnitPrice:
      return value.ReadNumber(row.unit_price);
    case kIsPrimaryMeterRegion:
      return value.ReadBool(row.is_primary_meter_region);
    case kReservationTerm:
      return value.ReadString(row.reservation_term.emplace());
    case kSavingsPlan:
      return ReadSavingsPlan(value, row.savings_plan, key);
    default:
      return value.SkipValue();  // an unknown field: read, not forwarded
  }
}

// One row's members as a reader meets them, then its rules.
class RowBuilder {
 public:
  explicit RowBuilder(PriceRow& row) : row_(row) {}

  // False on a repeated member or a value of the wrong kind. `name` is used up before the value
  // is read, so it may view `key`.
  template <class Source>
  bool Member(std::string_view name, Source& value, std::string& key) {
    const RowField field = FieldOf(name, expected_);
    // A bit per known key, and the names of any other keys (the CLI prints none, so the list
    // stays empty): cheaper than the streaming reader's own duplicate check. The document
    // parser has refused duplicates already.
    if (field == kUnknownField) {
      if (std::find(others_.begin(), others_.end(), name) != others_.end()) return false;
      others_.emplace_back(name);
    } else {
      if ((seen_ & (1u << field)) != 0) return false;
      seen_ |= 1u << field;
      expected_ = field + 1;
    }
    return ReadField(value, field, row_, key);
  }

  bool Finish() const { return RowRulesHold(row_, seen_); }

 private:
  PriceRow& row_;
  uint32_t seen_ = 0;
  uint32_t expected_ = kArmSkuName;
  std::vector<std::string> others_;
};

Status ReadRow(const json::Value& row, PriceRow& out) {
  if (!row.is_object()) return MalformedRow();
  RowBuilder builder(out);
  std::string key;
  for (const json::Member& m : row.members()) {
    ValueSource value(m.value);
    if (!builder.Member(m.key, value, key)) return MalformedRow();
  }
  return builder.Finish() ? OkStatus() : MalformedRow();
}

// No Peek before a read: each Read refuses a value of another kind itself, and any refusal
// here hands the text to the document path, which names it.
bool StreamRow(json::Reader& r, PriceRow& row, std::string& key) {
  if (!r.BeginObject()) return false;
  RowBuilder builder(row);
  std::string_view name;
  while (r.NextMemberUnchecked(name, key)) {
    if (!builder.Member(name, r, key)) return false;
  }
  return r.ok() && builder.Finish();
}

}  // namespace

namespace internal {

bool ReadSuccessEnvelope(std::string_view stdout_bytes, std::vector<PriceRow>& rows) {
  json::Reader r(stdout_bytes);
  rows.reserve(rows.size() + stdout_bytes.size() / MinRowBytes());
  if (r.Peek() != json::Reader::Next::kObject || !r.BeginObject()) return false;
  bool status = false, message = false, results = false;
  std::string key, scratch;
  while (r.NextMember(key)) {
    if (key == "status") {
      double value = 0;
      if (r.Peek() != json::Reader::Next::kNumber || !r.ReadNumber(value) || value != 200)
        return false;
      status = true;
    } else if (key == "message") {
      if (!r.ReadString(scratch)) return false;
      message = true;
    } else if (key == "duration") {
      double value = 0;
      if (r.Peek() != json::Reader::Next::kNumber || !r.ReadNumber(value)) return false;
    } else if (key == "results") {
      if (r.Peek() != json::Reader::Next::kObject || !r.BeginObject()) return false;
      if (!r.NextMember(key) || key != "prices") return false;
      if (r.Peek() != json::Reader::Next::kArray || !r.BeginArray()) return false;
      while (r.NextItem()) {
        rows.emplace_back();
        if (!StreamRow(r, rows.back(), key)) return false;
      }
      if (!r.ok() || r.NextMember(key)) return false;  // "prices" must be the only member
      if (!r.ok()) return false;
      results = true;
    } else {
      return false;
    }
  }
  return r.ok() && r.Finish() && status && message && results;
}

StatusOr<std::vector<PriceRow>> ValidateByDocument(const CliResult& result) {
  const json::ParseResult parsed = json::ParseStrict(result.stdout_bytes);
  if (parsed.error != json::ParseError::kNone) {
    // A CLI that exited with an error and printed no envelope failed; a successful exit with
    // bad output is reported by what is wrong with it.
    if (result.exit_code != 0) return CliFailed();
    return ForParseError(parsed.error);
  }
  const json::Value& envelope = parsed.value;
  if (!envelope.is_object()) return MalformedEnvelope();
  const json::Value* status = envelope.Find("status");
  const json::Value* message = envelope.Find("message");
  if (!IsWholeNumber(status) || message == nullptr || !message->is_string()) {
    return MalformedEnvelope();
  }
  if (status->as_number() != 200) return ClassifyFailureEnvelope(envelope);
  if (result.exit_code != 0) return CliFailed();

  const json::Value* results = envelope.Find("results");
  const json::Value* duration = envelope.Find("duration");
  if (results == nullptr || !results->is_object() || results->members().size() != 1) {
    return MalformedEnvelope();
  }
  if (duration != nullptr && !duration->is_number()) return MalformedEnvelope();
  for (const json::Member& m : envelope.members()) {
    if (m.key != "status" && m.key != "message" && m.key != "results" && m.key != "duration") {
      return MalformedEnvelope();
    }
  }
  const json::Value* prices = results->Find("prices");
  if (prices == nullptr || !prices->is_array()) return MalformedEnvelope();

  std::vector<PriceRow> rows;
  rows.reserve(prices->items().size());
  for (const json::Value& item : prices->items()) {
    PriceRow row;
    if (Status read = ReadRow(item, row); !read.ok()) return read;
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace internal

StatusOr<std::vector<PriceRow>> ValidateCliResult(const CliResult& result,
                                                  int64_t max_output_bytes) {
  if (result.timed_out) return Timeout();
  if (result.output_limit_exceeded ||
      static_cast<int64_t>(result.stdout_bytes.size() + result.stderr_bytes.size()) >
          max_output_bytes) {
    return OutputLimit();
  }
  if (!result.stderr_bytes.empty()) {
    return Fail(reasons::kStderrNotEmpty, messages::kStderrNotEmpty);
  }
  std::vector<PriceRow> rows;
  if (result.exit_code == 0 && internal::ReadSuccessEnvelope(result.stdout_bytes, rows)) {
    return rows;
  }
  return internal::ValidateByDocument(result);
}

}  // namespace azure_pricing
