// libFuzzer target: any bytes as CLI stdout. Invariants: nothing crashes; the streaming reader
// accepts exactly what the document path accepts, with the same rows; an accepted result
// projects to a report that reads back strictly.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "ref/json/json.h"
#include "ref/pricing/envelope.h"
#include "ref/pricing/report.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  azure_pricing::CliResult result;
  result.stdout_bytes.assign(reinterpret_cast<const char*>(data), size);
  std::vector<azure_pricing::PriceRow> streamed;
  const bool accepted = azure_pricing::internal::ReadSuccessEnvelope(result.stdout_bytes, streamed);
  const auto document = azure_pricing::internal::ValidateByDocument(result);
  if (accepted != document.ok()) std::abort();
  if (accepted && !(streamed == *document)) std::abort();
  if (accepted) {
    const std::string report =
        azure_pricing::ReportToJson(azure_pricing::BuildReport(std::move(streamed), 100));
    if (azure_pricing::json::ParseStrict(report).error != azure_pricing::json::ParseError::kNone) {
      std::abort();
    }
  }
  return 0;
}
