#include "conformance/stack/stack_suite.h"

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "conformance/backend/price_api_process.h"
#include "conformance/console/check_line.h"
#include "fakes/prices_server/catalog_generator.h"
#include "ref/pricing/reasons.h"

namespace azure_pricing::conformance::stack {
namespace {

using Json = nlohmann::json;

// The generated part of the served catalog: enough Consumption rows (6,628 of 7,000 for this
// seed) to reach the CLI's 5,000-row ceiling, and Virtual Network rows in westeurope, Global and
// every billing zone.
constexpr uint64_t kGeneratedSeed = 12;
constexpr int64_t kGeneratedItems = 7000;

constexpr char kPostgresService[] = "Azure Database for PostgreSQL";
constexpr char kExpandedService[] = "Virtual Network";
constexpr char kExpandedRegion[] = "westeurope";
constexpr char kExpandedZone[] = "Zone 1";  // westeurope's network zone (ref/zones' mapping)
// No price-list field has this name, so the API refuses it; the guidance names real fields
// (osType among them, as one that does not exist), never this one.
constexpr char kUnknownField[] = "stackSuiteField4711";
constexpr int kCliRowCeiling = 5000;
constexpr int kCliPageCeiling = 5;

struct Context {
  LocalStack& stack;
  std::vector<Json> catalog;  // what the cases expect the fake API to serve
  const char* case_id = "";   // the running case's id, from kCases
};

// A case's verdict being built: the first failed check sets `detail`.
struct Verdict {
  StackCaseResult r;
  bool Check(bool ok, const std::string& why) {
    if (!ok && r.passed) {
      r.passed = false;
      r.detail = why;
    }
    return ok;
  }
};

Verdict Begin(const Context& ctx, std::vector<std::string> requirements, std::string expected) {
  Verdict v;
  v.r = {.id = ctx.case_id, .requirements = std::move(requirements), .passed = true,
         .expected = std::move(expected)};
  return v;
}

std::string Describe(const host::CallReport& report) {
  std::string out(OutcomeName(report.outcome));
  if (!report.reason.empty()) out += " (" + report.reason + ")";
  out += ", " + std::to_string(report.sandbox_acquisitions) + " sandbox acquired, " +
         std::to_string(report.sandbox_disposals) + " disposed";
  return out;
}

// One call through the stack; the report JSON parsed into `out` when there is one.
std::optional<host::CallReport> Call(Context& ctx, Verdict& v, const std::string& arguments,
                                     Json* out) {
  StatusOr<host::CallReport> report = ctx.stack.Call({.arguments = arguments});
  if (!v.Check(report.ok(), "the host did not run the call")) {
    v.r.actual = "no call: " + report.status().message();
    return std::nullopt;
  }
  v.r.actual = Describe(*report);
  if (out != nullptr && report->output.has_value()) {
    *out = Json::parse(*report->output, nullptr, false);
  }
  return std::move(report).value();
}

int64_t Int(const Json& report, const char* key) {
  const auto it = report.find(key);
  return it != report.end() && it->is_number_integer() ? it->get<int64_t>() : -1;
}

bool Flag(const Json& report, const char* key) {
  const auto it = report.find(key);
  return it != report.end() && it->is_boolean() && it->get<bool>();
}

const Json& Prices(const Json& report) {
  static const Json kNone = Json::array();
  const auto it = report.is_object() ? report.find("prices") : report.end();
  return it != report.end() && it->is_array() ? *it : kNone;
}

std::string Str(const Json& row, const char* key) {
  const auto it = row.find(key);
  return it != row.end() && it->is_string() ? it->get<std::string>() : "";
}

Status PriceApiCall(Context& ctx, const std::function<Status(const backend::PriceApi&)>& f) {
  const backend::PriceApi* api = ctx.stack.price_api();
  if (api == nullptr) return Status(Outcome::kFailed, "no_price_api", "the stack has no fake API");
  return f(*api);
}

int GetsReceived(Context& ctx) {
  const backend::PriceApi* api = ctx.stack.price_api();
  if (api == nullptr) return -1;
  StatusOr<std::vector<std::string>> methods = backend::ReceivedMethods(*api);
  if (!methods.ok()) return -1;
  int gets = 0;
  for (const std::string& m : *methods) gets += m == "GET" ? 1 : 0;
  return gets;
}

bool ResetApi(Context& ctx, Verdict& v) {
  return v.Check(PriceApiCall(ctx, backend::ResetRequestLog).ok(),
                 "the fake price API did not reset its request log and faults");
}

bool OneSandboxDisposed(Verdict& v, const host::CallReport& report) {
  return v.Check(report.sandbox_acquisitions == 1 && report.sandbox_disposals == 1 &&
                     report.sandbox_live == 0,
                 "the call did not acquire exactly one sandbox and dispose it");
}


// The recorded real page's rows come back whole: the CLI ran in the sandbox, reached the fake
// API through the egress proxy with the proxy's CA, and the tool accepted every row.
StackCaseResult CompletedLookup(Context& ctx) {
  Verdict v = Begin(ctx,
                    {"INTRO-002", "INTRO-004", "INTRO-006", "INTRO-007", "HOST-013", "BOUND-016",
                     "BOUND-018"},
                    "completed with every catalog row of serviceName 'Azure Database for "
                    "PostgreSQL', prices unchanged, one sandbox acquired and disposed");
  std::map<std::string, double> want;
  for (const Json& row : ctx.catalog) {
    if (Str(row, "serviceName") == kPostgresService) want[Str(row, "meterId")] = row.value("retailPrice", -1.0);
  }
  Json report;
  const std::optional<host::CallReport> call = Call(
      ctx, v, std::string(R"({"filter":"serviceName eq ')") + kPostgresService + R"('"})", &report);
  if (!call) return v.r;
  if (!v.Check(call->outcome == Outcome::kCompleted, "the lookup did not complete")) return v.r;
  OneSandboxDisposed(v, *call);
  const int64_t received = Int(report, "received_rows");
  v.Check(received == static_cast<int64_t>(want.size()),
          "received_rows " + std::to_string(received) + ", the catalog has " +
              std::to_string(want.size()));
  for (const Json& row : Prices(report)) {
    const auto it = want.find(Str(row, "meterId"));
    const bool same = it != want.end() && row.value("retailPrice", -2.0) == it->second;
    v.Check(same, "meter " + Str(row, "meterId") + " is not in the catalog at that price");
  }
  if (v.r.passed) {
    v.r.detail = std::to_string(received) + " recorded rows came back unchanged through " +
                 ctx.stack.cli().description;
  }
  return v.r;
}

// westeurope expands to one CLI query over the region, Global and every billing zone; the tool
// keeps the regional rows and the network zone westeurope bills in, and labels each row.
StackCaseResult RegionExpansion(Context& ctx) {
  Verdict v = Begin(ctx,
                    {"REGION-001", "REGION-002", "SELECT-003", "SELECT-004", "SELECT-009",
                     "SELECT-011", "SELECT-012"},
                    "completed; received_rows = the catalog's Virtual Network rows (primary or not) in "
                    "westeurope, Global and every zone; Zone 1 rows selected as network zone rows");
  const std::set<std::string> expanded = {
      kExpandedRegion, "Global", "Zone 1", "Zone 2", "Zone 3", "Zone 4", "Zone 5", "Zone 6",
      "Zone 7", "Zone 8", "Zone 9", "US Gov Zone 1", "US Gov Zone 2"};
  int64_t want = 0;
  for (const Json& row : ctx.catalog) {
    want += Str(row, "serviceName") == kExpandedService &&
            expanded.count(Str(row, "armRegionName")) > 0;
  }
  Json report;
  const std::optional<host::CallReport> call =
      Call(ctx, v,
           std::string(R"({"filter":"serviceName eq ')") + kExpandedService + R"('","region":")" +
               kExpandedRegion + R"("})",
           &report);
  if (!call) return v.r;
  if (!v.Check(call->outcome == Outcome::kCompleted, "the lookup did not complete")) return v.r;
  v.Check(Int(report, "received_rows") == want,
          "received_rows " + std::to_string(Int(report, "received_rows")) + ", the catalog has " +
              std::to_string(want));
  v.Check(Str(report, "requested_region") == kExpandedRegion, "no requested_region in the report");
  int zone_rows = 0;
  for (const Json& row : Prices(report)) {
    const std::string by = Str(row, "matched_by");
    if (by == "zone") {
      ++zone_rows;
      v.Check(Str(row, "zone") == kExpandedZone && Str(row, "zone_family") == "network" &&
                  Str(row, "region") == kExpandedZone,
              "a zone row other than westeurope's network zone was selected");
    } else {
      v.Check(by == "region" || by == "global", "a row without matched_by region, zone or global");
    }
  }
  v.Check(zone_rows > 0, "no Zone 1 row was selected");
  if (v.r.passed) {
    v.r.detail = std::to_string(want) + " rows received, " + std::to_string(zone_rows) +
                 " Zone 1 rows selected as network zone rows";
  }
  return v.r;
}

// The API's 400 for an unknown field fails the whole lookup with fixed guidance that repeats
// neither the CLI's text nor the argument.
StackCaseResult UpstreamRejects(Context& ctx) {
  Verdict v = Begin(ctx, {"UPSTREAM-001", "UPSTREAM-002", "BOUND-015"},
                    "failed (upstream_filter_rejected), no rows, fixed messages without the "
                    "unknown field's name, after the fake API answered 400");
  if (!ResetApi(ctx, v)) return v.r;
  Json report;
  const std::optional<host::CallReport> call =
      Call(ctx, v, std::string(R"({"filter":")") + kUnknownField + R"( eq 'x'"})", &report);
  if (!call) return v.r;
  v.Check(call->outcome == Outcome::kFailed && call->reason == reasons::kUpstreamFilterRejected,
          "not failed as upstream_filter_rejected");
  v.Check(!call->output.has_value(), "a failed lookup carried a report");
  for (const std::string& m : call->trusted_messages) {
    v.Check(m.find(kUnknownField) == std::string::npos, "a message echoes the filter");
  }
  v.Check(GetsReceived(ctx) >= 1, "the fake API received no GET: the 400 did not come from it");
  OneSandboxDisposed(v, *call);
  if (v.r.passed) v.r.detail = "the API's 400 became upstream_filter_rejected with fixed guidance";
  return v.r;
}

// The fake API's reset fault: every answer's head goes out and the connection closes before the
// body. The CLI's transport error fails the lookup closed and the sandbox is still disposed.
StackCaseResult UpstreamReset(Context& ctx) {
  Verdict v = Begin(ctx, {"BOUND-011", "BOUND-012", "INTRO-007"},
                    "failed (cli_failed) with no rows and the sandbox disposed, while the fake "
                    "API closes every connection after the answer's head");
  if (!ResetApi(ctx, v)) return v.r;
  const Status faulted = PriceApiCall(ctx, [](const backend::PriceApi& api) {
    return backend::AddFaults(api, R"([{"reset":true,"times":16}])");
  });
  if (!v.Check(faulted.ok(), "the fake API did not take the reset fault")) return v.r;
  const std::optional<host::CallReport> call = Call(ctx, v, R"({"sku":"B1MS"})", nullptr);
  ResetApi(ctx, v);
  if (!call) return v.r;
  v.Check(call->outcome == Outcome::kFailed && call->reason == reasons::kCliFailed,
          "not failed as cli_failed");
  v.Check(!call->output.has_value(), "a failed lookup carried a report");
  OneSandboxDisposed(v, *call);
  if (v.r.passed) v.r.detail = "answers cut after their head failed the lookup closed (cli_failed)";
  return v.r;
}

// More matching rows than the CLI fetches: it stops after five pages of 1,000 and the report
// says the result is incomplete. Load must not decide it: the fake API answers every page at
// once (2.5 s for the lookup idle, about 6 s beside two busy loops, against the 60 s exec
// timeout), and what load did change, the real CLI's spare address space, the backend's 16 GiB
// limit now leaves ample (//conformance/stack:address_space_test).
StackCaseResult PagingCeiling(Context& ctx) {
  Verdict v = Begin(ctx, {"BOUND-003", "BOUND-017", "BOUND-018", "BOUND-021"},
                    "completed; received_rows 5000 after 5 pages, truncated and "
                    "upstream_limit_reached, returned_rows 100");
  if (!ResetApi(ctx, v)) return v.r;
  Json report;
  const std::optional<host::CallReport> call =
      Call(ctx, v, R"({"price_type":"Consumption"})", &report);
  if (!call) return v.r;
  if (!v.Check(call->outcome == Outcome::kCompleted, "the lookup did not complete")) return v.r;
  const int gets = GetsReceived(ctx);
  v.Check(Int(report, "received_rows") == kCliRowCeiling,
          "received_rows " + std::to_string(Int(report, "received_rows")) + ", not 5000");
  v.Check(Flag(report, "upstream_limit_reached") && Flag(report, "truncated"),
          "the ceiling did not set truncated and upstream_limit_reached");
  v.Check(Int(report, "returned_rows") == 100, "returned_rows is not the default max_rows 100");
  v.Check(gets == kCliPageCeiling, "the fake API served " + std::to_string(gets) + " pages, not 5");
  if (v.r.passed) {
    v.r.detail = "5000 rows in 5 pages: truncated, upstream_limit_reached, 100 returned";
  }
  return v.r;
}

// A refusal happens before the router is asked for anything.
StackCaseResult RefusalWithoutSandbox(Context& ctx) {
  Verdict v = Begin(ctx, {"ARG-009", "ARG-010"},
                    "refused (service_without_sku), no sandbox acquired, no request to the API");
  if (!ResetApi(ctx, v)) return v.r;
  const std::optional<host::CallReport> call =
      Call(ctx, v, R"({"service":"Virtual Machines"})", nullptr);
  if (!call) return v.r;
  v.Check(call->outcome == Outcome::kRefused && call->reason == reasons::kServiceWithoutSku,
          "not refused as service_without_sku");
  v.Check(call->sandbox_acquisitions == 0, "a sandbox was acquired for a refused call");
  v.Check(GetsReceived(ctx) == 0, "the fake API received a request for a refused call");
  if (v.r.passed) v.r.detail = "refused before any sandbox; the API saw nothing";
  return v.r;
}

struct StackCase {
  const char* id;  // the id its result carries (Begin reads it from the Context)
  StackCaseResult (*run)(Context&);
};

constexpr StackCase kCases[] = {
    {"stack.completed_lookup", CompletedLookup},
    {"stack.region_expansion", RegionExpansion},
    {"stack.upstream_400", UpstreamRejects},
    {"stack.upstream_reset", UpstreamReset},
    {"stack.paging_ceiling", PagingCeiling},
    {"stack.refusal_no_sandbox", RefusalWithoutSandbox},
};


std::vector<Json> ParseCatalog(const std::string& jsonl) {
  std::vector<Json> rows;
  std::istringstream in(jsonl);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    Json row = Json::parse(line, nullptr, false);
    if (row.is_object()) rows.push_back(std::move(row));
  }
  return rows;
}

StackSuiteResult NotRun(StackSuiteResult result, std::string problem) {
  result.problem = std::move(problem);
  result.failed = 1;
  return result;
}

}  // namespace

std::vector<std::string> StackCaseIds() {
  std::vector<std::string> ids;
  for (const StackCase& c : kCases) ids.push_back(c.id);
  return ids;
}

StackSuiteResult RunStackSuite(const StackSuiteOptions& options) {
  StackSuiteResult result;
  const CliChoice cli = options.cli.value_or(DefaultCli());
  result.cli = cli.description;
  result.real_cli = cli.real;
  StatusOr<std::string> bundled = BundledCatalog();
  if (!bundled.ok()) return NotRun(std::move(result), bundled.status().message());
  std::string expected = *bundled;
  fakes::prices::GenerateCatalog(kGeneratedSeed, kGeneratedItems,
                                 [&expected](const std::string& line) { expected += line + "\n"; });
  StatusOr<std::unique_ptr<LocalStack>> stack = LocalStack::Start(
      {.cli = cli,
       .catalog_jsonl = options.served_catalog_for_testing.value_or(expected),
       .bwrap = options.bwrap});
  if (!stack.ok()) {
    return NotRun(std::move(result), "the stack did not start: " + stack.status().message());
  }
  Context ctx{**stack, ParseCatalog(expected)};
  for (const StackCase& c : kCases) {
    if (options.selected && !options.selected(c.id)) continue;
    ctx.case_id = c.id;
    StackCaseResult r = c.run(ctx);
    ++(r.passed ? result.passed : result.failed);
    if (options.progress) options.progress(r);
    result.cases.push_back(std::move(r));
  }
  return result;
}

std::string FormatStackCase(const StackCaseResult& r) {
  if (r.passed) return CheckLine(true, r.id, r.detail);
  std::string ids;
  for (const std::string& id : r.requirements) ids += (ids.empty() ? "" : ", ") + id;
  return "  FAIL " + r.id + " [" + ids + "]: expected " + r.expected + "; got " + r.actual +
         " (" + r.detail + ")";
}

}  // namespace azure_pricing::conformance::stack
