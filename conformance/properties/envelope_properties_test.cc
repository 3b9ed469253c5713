// Properties of envelope acceptance, truncation at 5,000 rows, and failing closed.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "conformance/citations/cites.h"
#include "conformance/properties/generators.h"
#include "ref/pricing/lookup.h"

namespace azure_pricing::properties {
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

// Any single corruption of a valid envelope fails closed with the reason that names it, and the
// message quotes nothing the CLI printed.
RC_GTEST_PROP(EnvelopeProperties, AnySingleCorruptionFailsClosed, ()) {
  std::vector<Json> rows = *rc::gen::container<std::vector<Json>>(
      static_cast<size_t>(*rc::gen::inRange(1, 12)), GenRow());
  const auto corruption = static_cast<Corruption>(*rc::gen::inRange(0, 10));
  const size_t target = static_cast<size_t>(*rc::gen::inRange<size_t>(0, rows.size()));
  CliResult result;
  std::string want;
  std::string text;
  switch (corruption) {
    case Corruption::kDuplicateKey: {
      // Repeat one scalar member line of the printed envelope: top level, row or plan item.
      text = PrintEnvelope(rows, 313);
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
      want = "duplicate_key";
      break;
    }
    case Corruption::kNaN:
    case Corruption::kHugeNumber: {
      text = PrintEnvelope(rows, 313);
      // Replace one printed price of the chosen row's position in the text.
      const std::string key =
          *rc::gen::element<std::string>("\"retailPrice\": ", "\"unitPrice\": ");
      size_t at = 0;
      for (size_t i = 0; i <= target; ++i) at = text.find(key, at) + key.size();
      const size_t end = text.find_first_of(",\n", at);
      text.replace(at, end - at,
                   corruption == Corruption::kNaN
                       ? *rc::gen::element<std::string>("NaN", "Infinity", "-Infinity")
                       : *rc::gen::element<std::string>("1e999", "-1e400", "1.8e308"));
      want = "non_finite_number";
      break;
    }
    case Corruption::kInvalidUtf8Byte: {
      text = PrintEnvelope(rows, 313);
      const size_t at = *rc::gen::inRange<size_t>(0, text.size());
      text.insert(at, *GenInvalidUtf8());
      want = "invalid_utf8";
      break;
    }
    case Corruption::kMissingRowKey: {
      const std::string key = *rc::gen::elementOf(
          std::vector<std::string>(std::begin(kRequiredRowKeys), std::end(kRequiredRowKeys)));
      rows[target].erase(key);
      text = PrintEnvelope(rows, 313);
      want = "malformed_row";
      break;
    }
    case Corruption::kMistypedRowKey: {
      const std::string key = *rc::gen::elementOf(
          std::vector<std::string>(std::begin(kRequiredRowKeys), std::end(kRequiredRowKeys)));
      Json& value = rows[target][key];
      if (value.is_string()) {
        value = *rc::gen::element(Json(1), Json(true), Json(nullptr), Json::array());
      } else if (value.is_number()) {
        value = *rc::gen::element(Json("0.192"), Json(false), Json(nullptr));
      } else {
        value = *rc::gen::element(Json("true"), Json(1), Json(nullptr));
      }
      text = PrintEnvelope(rows, 313);
      want = "malformed_row";
      break;
    }
    case Corruption::kStderrByte:
      text = PrintEnvelope(rows, 313);
      result.stderr_bytes = std::string(1, static_cast<char>(*rc::gen::inRange(0, 256)));
      want = "stderr_not_empty";
      break;
    case Corruption::kNonZeroExit:
      text = PrintEnvelope(rows, 313);
      result.exit_code = *rc::gen::inRange(1, 256);
      want = "cli_failed";
      break;
    case Corruption::kStatusNot200: {
      Json envelope = Json::parse(PrintEnvelope(rows, 313));
      int status = *rc::gen::inRange(0, 600);
      if (status == 200) status = 201;
      envelope["status"] = status;
      text = envelope.dump(2);
      want = "cli_failed";
      break;
    }
    case Corruption::kTrailingBytes:
      text =
          PrintEnvelope(rows, 313) + *rc::gen::element<std::string>("x", "{}", "[]", "\"\"", "0");
      want = "malformed_envelope";
      break;
  }
  result.stdout_bytes = text;
  const LookupOutcome outcome = Replay(result, HostBounds{});
  RC_ASSERT(outcome.outcome() == Outcome::kFailed);
  RC_ASSERT(!outcome.report.has_value());
  RC_ASSERT(std::string(outcome.reason()) == want);
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
}  // namespace azure_pricing::properties

namespace azure_pricing::properties {
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
}  // namespace azure_pricing::properties

namespace azure_pricing::properties {
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
}  // namespace azure_pricing::properties
