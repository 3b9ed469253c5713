// Properties of envelope acceptance, truncation at 5,000 rows, and failing closed.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string_view>
#include <utility>

#include "conformance/citations/cites.h"
#include "conformance/properties/generators.h"
#include "ref/pricing/lookup.h"
#include "ref/pricing/reasons.h"

namespace azure_pricing::conformance::properties {
CITES("INTRO-006", "BOUND-005", "BOUND-006", "BOUND-008", "BOUND-009", "BOUND-010", "BOUND-013",
      "BOUND-014", "BOUND-015", "BOUND-016", "BOUND-017", "BOUND-018", "BOUND-019", "BOUND-020",
      "BOUND-021", "BOUND-022");
namespace {

class FixedRunner : public CliRunner {
 public:
  explicit FixedRunner(CliResult r) : result_(std::move(r)) {}
  StatusOr<CliResult> Run(const std::vector<std::string>&, const std::vector<std::string>&,
                          const HostBounds&) override {
    return result_;
  }

 private:
  CliResult result_;
};

LookupOutcome Replay(const CliResult& result, const HostBounds& bounds) {
  FixedRunner runner(result);
  return RunLookup(R"({"sku":"Standard_D4s_v5"})", bounds, runner);
}

// Row counts around the CLI's ceiling are drawn often; the rest anywhere in 0..6,000.
rc::Gen<int> GenRowCount() {
  return rc::gen::oneOf(rc::gen::element(0, 1, 99, 100, 101, 4999, 5000, 5001, 6000),
                        rc::gen::inRange(0, 6001));
}

// received_rows = N, returned_rows = min(N, max_rows), upstream_limit_reached = N >= 5,000,
// truncated = N > max_rows or N >= 5,000; the returned rows are the first ones, in order, with
// only the keys the tool forwards.
RC_GTEST_PROP(EnvelopeProperties, RowCountsAndTruncation, ()) {
  const int n = *GenRowCount();
  const int64_t max_rows =
      *rc::gen::oneOf(rc::gen::element<int64_t>(1, 100, 5000), rc::gen::inRange<int64_t>(1, 5001));
  const std::vector<Json> rows = RepeatRows(*rc::gen::container<std::vector<Json>>(3, GenRow()), n);
  CliResult result;
  result.stdout_bytes = PrintEnvelope(rows, 313);
  HostBounds bounds;
  bounds.max_rows = max_rows;
  const LookupOutcome outcome = Replay(result, bounds);
  RC_ASSERT(outcome.status.ok());
  const Report& r = *outcome.report;
  RC_ASSERT(r.received_rows == n);
  RC_ASSERT(r.returned_rows == std::min<int64_t>(n, max_rows));
  RC_ASSERT(r.upstream_limit_reached == (n >= 5000));
  RC_ASSERT(r.truncated == (n > max_rows || n >= 5000));
  const Json report = Json::parse(ReportToJson(r));
  RC_ASSERT(report["prices"].size() == static_cast<size_t>(r.returned_rows));
  // Spot-check order and projection on the first, a middle and the last returned row.
  for (const int64_t i : {int64_t{0}, r.returned_rows / 2, r.returned_rows - 1}) {
    if (i < 0 || i >= r.returned_rows) continue;
    const Json& got = report["prices"][static_cast<size_t>(i)];
    const Json want = ForwardedRow(rows[static_cast<size_t>(i)]);
    RC_ASSERT(got == want);  // numbers compare by value (0 == 0.0)
    std::vector<std::string> got_keys, want_keys;
    for (const auto& item : got.items()) got_keys.push_back(item.key());
    for (const auto& item : want.items()) want_keys.push_back(item.key());
    RC_ASSERT(got_keys == want_keys);  // and the CLI's key order is kept
  }
}

enum class Corruption {
  kDuplicateKey,
  kNaN,
  kHugeNumber,
  kInvalidUtf8Byte,
  kMissingRowKey,
  kMistypedRowKey,
  kStderrByte,
  kNonZeroExit,
  kStatusNot200,
  kTrailingBytes,
};

const char* const kRequiredRowKeys[] = {
    "armSkuName",         "skuName",      "productName",   "serviceName",
    "serviceFamily",      "region",       "location",      "retailPrice",
    "unitPrice",          "currencyCode", "unitOfMeasure", "priceType",
    "effectiveStartDate", "meterName",    "meterId",       "isPrimaryMeterRegion"};

// Repeats one scalar member line of the printed envelope: top level, row or plan item.
std::string DuplicateOneMember(std::string text) {
  std::vector<size_t> starts;
  size_t pos = 0;
  while ((pos = text.find('\n', pos)) != std::string::npos) {
    ++pos;
    const size_t end = text.find('\n', pos);
    if (end == std::string::npos) break;
    const std::string line = text.substr(pos, end - pos);
    if (line.find("\": ") != std::string::npos && line.back() != '{' && line.back() != '[') {
      starts.push_back(pos);
    }
  }
  RC_PRE(!starts.empty());
  const size_t at = starts[*rc::gen::inRange<size_t>(0, starts.size())];
  std::string line = text.substr(at, text.find('\n', at) - at);
  if (line.back() == ',') line.pop_back();
  text.insert(at, line + ",\n");
  return text;
}

// Replaces one printed price of the chosen row's position in the text.
std::string ReplaceOnePrice(std::string text, size_t target, bool not_a_number) {
  const std::string key = *rc::gen::element<std::string>("\"retailPrice\": ", "\"unitPrice\": ");
  size_t at = 0;
  for (size_t i = 0; i <= target; ++i) at = text.find(key, at) + key.size();
  const size_t end = text.find_first_of(",\n", at);
  text.replace(at, end - at,
               not_a_number ? *rc::gen::element<std::string>("NaN", "Infinity", "-Infinity")
                            : *rc::gen::element<std::string>("1e999", "-1e400", "1.8e308"));
  return text;
}

std::string RequiredRowKey() {
  return *rc::gen::elementOf(
      std::vector<std::string>(std::begin(kRequiredRowKeys), std::end(kRequiredRowKeys)));
}

void MistypeOneKey(Json& row) {
  Json& value = row[RequiredRowKey()];
  if (value.is_string()) {
    value = *rc::gen::element(Json(1), Json(true), Json(nullptr), Json::array());
  } else if (value.is_number()) {
    value = *rc::gen::element(Json("0.192"), Json(false), Json(nullptr));
  } else {
    value = *rc::gen::element(Json("true"), Json(1), Json(nullptr));
  }
}

std::string WithStatus(const std::string& text) {
  Json envelope = Json::parse(text);
  int status = *rc::gen::inRange(0, 600);
  if (status == 200) status = 201;
  envelope["status"] = status;
  return envelope.dump(2);
}

// The CLI's result after one corruption of an envelope of `rows`, and the reason it must fail.
std::pair<CliResult, std::string_view> Corrupt(Corruption corruption, std::vector<Json>& rows,
                                               size_t target) {
  CliResult result;
  if (corruption == Corruption::kMissingRowKey) rows[target].erase(RequiredRowKey());
  if (corruption == Corruption::kMistypedRowKey) MistypeOneKey(rows[target]);
  const std::string text = PrintEnvelope(rows, 313);
  result.stdout_bytes = text;
  switch (corruption) {
    case Corruption::kDuplicateKey:
      result.stdout_bytes = DuplicateOneMember(text);
      return {result, reasons::kDuplicateKey};
    case Corruption::kNaN:
    case Corruption::kHugeNumber:
      result.stdout_bytes = ReplaceOnePrice(text, target, corruption == Corruption::kNaN);
      return {result, reasons::kNonFiniteNumber};
    case Corruption::kInvalidUtf8Byte:
      result.stdout_bytes.insert(*rc::gen::inRange<size_t>(0, text.size()), *GenInvalidUtf8());
      return {result, reasons::kInvalidUtf8};
    case Corruption::kMissingRowKey:
    case Corruption::kMistypedRowKey:
      return {result, reasons::kMalformedRow};
    case Corruption::kStderrByte:
      result.stderr_bytes = std::string(1, static_cast<char>(*rc::gen::inRange(0, 256)));
      return {result, reasons::kStderrNotEmpty};
    case Corruption::kNonZeroExit:
      result.exit_code = *rc::gen::inRange(1, 256);
      return {result, reasons::kCliFailed};
    case Corruption::kStatusNot200:
      result.stdout_bytes = WithStatus(text);
      return {result, reasons::kCliFailed};
    case Corruption::kTrailingBytes:
      result.stdout_bytes += *rc::gen::element<std::string>("x", "{}", "[]", "\"\"", "0");
      return {result, reasons::kMalformedEnvelope};
  }
  return {result, ""};
}

// Any single corruption of a valid envelope fails closed with the reason that names it, and the
// message quotes nothing the CLI printed.
RC_GTEST_PROP(EnvelopeProperties, AnySingleCorruptionFailsClosed, ()) {
  std::vector<Json> rows = *rc::gen::container<std::vector<Json>>(
      static_cast<size_t>(*rc::gen::inRange(1, 12)), GenRow());
  const auto corruption = static_cast<Corruption>(*rc::gen::inRange(0, 10));
  const size_t target = static_cast<size_t>(*rc::gen::inRange<size_t>(0, rows.size()));
  const auto [result, want] = Corrupt(corruption, rows, target);
  const LookupOutcome outcome = Replay(result, HostBounds{});
  RC_ASSERT(outcome.outcome() == Outcome::kFailed);
  RC_ASSERT(!outcome.report.has_value());
  RC_ASSERT(outcome.reason() == want);
  const std::string message = outcome.message();
  for (const Json& row : rows) {
    for (const auto& item : row.items()) {
      if (item.value().is_string() && item.value().get<std::string>().size() >= 6) {
        RC_ASSERT(message.find(item.value().get<std::string>()) == std::string::npos);
      }
    }
  }
}

}  // namespace
}  // namespace azure_pricing::conformance::properties

namespace azure_pricing::conformance::properties {
namespace {

// The streaming reader and the document path are two implementations of one acceptance rule:
// on valid and corrupted envelopes alike, the streaming reader accepts exactly what the document
// path accepts, with the same rows. (The document path alone names failures.)
RC_GTEST_PROP(EnvelopeProperties, StreamingAndDocumentPathsAgree, ()) {
  std::vector<Json> rows = *rc::gen::container<std::vector<Json>>(
      static_cast<size_t>(*rc::gen::inRange(0, 6)), GenRow());
  std::string text = PrintEnvelope(rows, 313);
  // Mutate a few bytes, or not at all, so both accepted and rejected inputs are covered.
  const int mutations = *rc::gen::inRange(0, 3);
  for (int i = 0; i < mutations && !text.empty(); ++i) {
    const size_t at = *rc::gen::inRange<size_t>(0, text.size());
    const int kind = *rc::gen::inRange(0, 3);
    const char byte = *rc::gen::elementOf(std::string("{}[]\",:0-eE. ntfa\\\x01\xff"));
    if (kind == 0) {
      text[at] = byte;
    } else if (kind == 1) {
      text.insert(at, 1, byte);
    } else {
      text.erase(at, 1);
    }
  }
  CliResult result;
  result.stdout_bytes = text;
  std::vector<PriceRow> streamed;
  const bool accepted = internal::ReadSuccessEnvelope(text, streamed);
  const StatusOr<std::vector<PriceRow>> document = internal::ValidateByDocument(result);
  RC_ASSERT(accepted == document.ok());
  if (accepted) RC_ASSERT(streamed == *document);
}

}  // namespace
}  // namespace azure_pricing::conformance::properties

namespace azure_pricing::conformance::properties {
namespace {

// BOUND-019, BOUND-020, BOUND-021, BOUND-022: with selection, upstream_limit_reached depends only
// on the rows received; truncation means max_rows cut the selected rows or the CLI hit its
// ceiling, never that locations were left out.
RC_GTEST_PROP(EnvelopeProperties, SelectionKeepsTruncationMeaning, ()) {
  const int n =
      *rc::gen::oneOf(rc::gen::element(0, 3, 4999, 5000, 5001), rc::gen::inRange(0, 6001));
  const int64_t max_rows = *rc::gen::inRange<int64_t>(1, 5001);
  const std::vector<Json> rows = RepeatRows(*rc::gen::container<std::vector<Json>>(4, GenRow()), n);
  CliResult result;
  result.stdout_bytes = PrintEnvelope(rows, 313);
  HostBounds bounds;
  bounds.max_rows = max_rows;
  FixedRunner runner(result);
  const std::string region = *rc::gen::element<std::string>("eastus", "westus", "marsnorth");
  const LookupOutcome outcome =
      RunLookup(R"({"sku":"Standard_D4s_v5","region":")" + region + "\"}", bounds, runner);
  RC_ASSERT(outcome.status.ok());
  const Report& r = *outcome.report;
  RC_ASSERT(r.expansion.has_value());
  RC_ASSERT(r.received_rows == n);
  RC_ASSERT(r.upstream_limit_reached == (n >= 5000));
  RC_ASSERT(r.expansion->selected_rows <= n);
  RC_ASSERT(r.returned_rows == std::min<int64_t>(r.expansion->selected_rows, max_rows));
  RC_ASSERT(r.truncated == (r.expansion->selected_rows > max_rows || n >= 5000));
}

}  // namespace
}  // namespace azure_pricing::conformance::properties
