// The live check's run: the canonical queries (checks.h) through one whole stack, one at a
// time, each judged by the contract (contract.h). Live, the egress proxy reaches the real
// prices.azure.com with certificate verification on and the CLI must be the real azmcp; in a
// dry run the same list runs against the fake price API serving fixtures/live-check/catalog.jsonl.
//
//   StatusOr<std::vector<LiveCheck>> checks = LoadChecks(*BundledChecksJson());
//   StatusOr<LiveReport> report = RunLiveChecks(*checks, {.mode = LiveMode::kDryRun,
//                                                          .cli = stack::DefaultCli()});
//   std::cout << FormatLiveTable(*report);
//
// Rate: one query at a time (the CLI pages sequentially, so one request is in flight; the run
// measures it), options.pause_ms between queries, and a cap on the run's upstream requests. A
// dry run may spread its queries over several stacks (options.dry_run_stacks), as the gate does.
#ifndef CONFORMANCE_LIVE_LIVE_RUN_H_
#define CONFORMANCE_LIVE_LIVE_RUN_H_

#include <functional>
#include <string>
#include <vector>

#include "conformance/live/checks.h"
#include "conformance/live/contract.h"
#include "conformance/stack/local_stack.h"
#include "ref/status/status.h"

namespace azure_pricing::conformance::live {

// Program errors (ProgramError()): a run does not start.
inline constexpr Reason kLiveNeedsRealCli = "live_needs_real_cli";
inline constexpr Reason kDryRunCatalogMissing = "dry_run_catalog_missing";
inline constexpr Reason kUnknownCheck = "unknown_check";

// What the table, the progress line and the JSON say of a check whose expectation rests on no
// recorded real response (LiveCheck::unverified).
inline constexpr char kUnverifiedMark[] = "expectation unverified until recorded";

// Requests one query may make at most: five pages and the CLI's three retries.
inline constexpr int kRequestsPerQuery = 8;

struct CheckResult {
  LiveCheck check;
  bool ran = false;       // false: skipped, `skipped_because` says why
  std::string skipped_because;
  bool passed = false;    // every finding passed
  std::string outcome;    // the tool's outcome and reason
  std::vector<Finding> findings;
  int rows = 0;      // in the tool's report
  int cli_rows = 0;  // in the CLI's output
  Seen seen;              // what the query did: the CLI's execution, the report, the upstream
  double seconds = 0;
};

enum class LiveMode { kLive, kDryRun };

struct LiveRunOptions {
  LiveMode mode = LiveMode::kDryRun;
  stack::CliChoice cli;
  int pause_ms = 2000;    // between queries
  int max_requests = 40;  // upstream requests in the run; a query starts only with
                          // kRequestsPerQuery left under the cap
  std::vector<std::string> only;  // run only these check ids; empty: all
  std::string bwrap;      // empty: `bwrap` on PATH
  // A dry run may deal its queries round-robin to this many stacks, each with its own fake API
  // and egress proxy, run side by side; the report keeps the list's order, `requests` is their
  // sum and `max_in_flight` the most of any one stack. A live run always uses one.
  int dry_run_stacks = 1;
  std::function<void(const std::string&)> progress;  // one line per step and per query
};

struct LiveReport {
  std::string mode;         // "live" | "dry-run"
  std::string upstream;     // what the egress proxy reached
  std::string cli;          // which CLI the image held
  std::string cli_version;  // from the CLI's User-Agent as the proxy saw it; "" if none
  std::string started_at;   // UTC, ISO 8601
  int requests = 0;         // upstream requests forwarded
  int max_in_flight = 0;    // most upstream requests open at once
  int passed = 0, failed = 0, skipped = 0;
  std::vector<CheckResult> results;
};

StatusOr<LiveReport> RunLiveChecks(const std::vector<LiveCheck>& checks,
                                   const LiveRunOptions& options);

// The pass/fail table a person reads, and the JSON report (its shape: README.md here).
std::string FormatLiveTable(const LiveReport& report);
std::string LiveReportJson(const LiveReport& report);

}  // namespace azure_pricing::conformance::live

#endif  // CONFORMANCE_LIVE_LIVE_RUN_H_
