// The contract the gate encodes, judged on what one live query really did: the CLI's envelope
// and row shape, how it composed the filter into the request, the 5,000-row ceiling, the
// mapping of an upstream 400, and the billing-zone rows the mapping expects. Each judgement is a
// named finding; the live check passes a query only when all of its findings pass.
#ifndef CONFORMANCE_LIVE_CONTRACT_H_
#define CONFORMANCE_LIVE_CONTRACT_H_

#include <string>
#include <vector>

#include "conformance/host/scripted_host.h"
#include "conformance/live/checks.h"
#include "conformance/stack/local_stack.h"
#include "ref/status/status.h"

namespace azure_pricing::conformance::live {

// One request the egress proxy forwarded during a query, and what came back.
struct UpstreamExchange {
  std::string target;  // origin form: /api/retail/prices?...
  std::string user_agent;
  int status = 0;
  std::string body;        // the response body, de-chunked
  std::string body_error;  // why the body could not be read; then `body` is empty
};

// One judgement: "outcome", "envelope", "row_keys", "filter_composition", "zone_rows", ...
struct Finding {
  std::string name;
  bool passed = false;
  std::string detail;  // what was seen; names keys and counts, never price-list values
};

// Everything one query did, as the stack saw it.
struct Seen {
  std::vector<stack::StackExec> execs;  // the CLI's executions (one for a valid query)
  host::CallReport report;
  std::vector<UpstreamExchange> upstream;
};

// Rows in the tool's report and in the CLI's output, counted while judging.
struct RowCounts {
  int report = 0;
  int cli = 0;
};

std::vector<Finding> JudgeCheck(const LiveCheck& check, const Seen& seen,
                                RowCounts* counts = nullptr);

// "completed", or "failed (upstream_filter_rejected)": the tool's outcome and reason.
std::string OutcomeText(const host::CallReport& report);

// "name: detail; ..." of the findings that failed; empty when all passed.
std::string FailedFindings(const std::vector<Finding>& findings);

// The CLI version in a User-Agent such as "Azure.Mcp.Tools.Pricing/3.0.0-beta.46 (.NET ...)";
// empty when the header names none.
std::string CliVersionFromUserAgent(const std::string& user_agent);

// The body of a raw HTTP/1.1 response: by Content-Length, chunked, or to the end. A compressed
// body is not decoded (the CLI asks for none); that, a cut body or a malformed head is
// kUnreadableResponse, never a guess.
inline constexpr Reason kUnreadableResponse = "unreadable_response";
StatusOr<std::string> HttpResponseBody(const std::string& raw);

// The $filter the CLI must send for an argv of `azmcp pricing get`, and the query parameters in
// order: the contract observed on the real CLI (fixtures/azmcp-3.0.0-beta.46/requests-observed.txt).
struct ExpectedRequest {
  bool api_version = false;  // api-version=2023-01-01-preview, only with savings plans
  std::string currency = "USD";
  std::string filter;  // decoded
};
ExpectedRequest ExpectedRequestFor(const std::vector<std::string>& argv);

}  // namespace azure_pricing::conformance::live

#endif  // CONFORMANCE_LIVE_CONTRACT_H_
