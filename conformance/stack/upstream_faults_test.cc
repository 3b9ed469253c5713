// Every fault the fake price API offers (POST /_admin/faults), through the whole local stack:
// the CLI in the real sandbox, the egress proxy, the fake API. Each ends with its expected
// outcome and reason, a failure carries no report, the sandbox is disposed and nothing is left on
// this machine. Run with the fake CLI, and with the real azmcp where AZURE_PRICING_AZMCP names
// it (the BUILD rule sets it to @azmcp). The last case kills the upstream while the CLI waits for
// its second page: the lookup fails closed, without the first page's rows.
//
// Two tests link this file; UPSTREAM_FAULTS_CLI (set by the BUILD rule) says which CLI runs.
// //conformance/stack:upstream_faults_test (the fast tier) runs the fake CLI. The real azmcp is
// pinned by sha256, so //conformance/stack:upstream_faults_real_cli_test re-proves what only a
// pin change can change and is in the exhaustive tier; the fast tier still meets the real CLI
// under each kind of fault in //fakes/azmcp:differential_sample_test.
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "conformance/backend/price_api_process.h"
#include "conformance/citations/cites.h"
#include "conformance/stack/host_leaks.h"
#include "conformance/stack/local_stack.h"
#include "fakes/prices_server/catalog_generator.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/pricing/reasons.h"
#include "ref/sandbox/bwrap/bwrap_backend.h"

namespace azure_pricing::conformance::stack {
namespace {

using ::testing::IsEmpty;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr char kPostgres[] = R"({"filter":"serviceName eq 'Azure Database for PostgreSQL'"})";
constexpr int kPostgresRows = 6;  // the bundled catalog's recorded PostgreSQL page
constexpr char kConsumption[] = R"({"price_type":"Consumption"})";
constexpr auto kCleanWithin = std::chrono::seconds(30);

// The bundled catalog and the stack suite's generated one: more than 6,000 Consumption rows.
std::string Catalog() {
  StatusOr<std::string> bundled = BundledCatalog();
  std::string text = bundled.ok() ? *bundled : "";
  fakes::prices::GenerateCatalog(12, 7000, [&text](const std::string& line) { text += line + "\n"; });
  return text;
}

// The egress proxy's decision lines, kept for the cases that look at them.
struct EgressLog {
  std::mutex mu;
  std::vector<std::string> lines;
  void Add(const std::string& line) {
    std::lock_guard<std::mutex> lock(mu);
    lines.push_back(line);
  }
  std::vector<std::string> Take() {
    std::lock_guard<std::mutex> lock(mu);
    return std::exchange(lines, {});
  }
};

// Declared in the order they must outlive each other: the proxy logs until the stack stops.
struct Stack {
  std::unique_ptr<EgressLog> egress = std::make_unique<EgressLog>();
  std::unique_ptr<PrivateTmpDir> tmp = std::make_unique<PrivateTmpDir>();
  std::unique_ptr<LocalStack> stack;
};

Stack Start(const CliChoice& cli) {
  Stack s;
  EgressLog* log = s.egress.get();
  StatusOr<std::unique_ptr<LocalStack>> started =
      LocalStack::Start({.cli = cli,
                         .catalog_jsonl = Catalog(),
                         .egress_log = [log](const std::string& line) { log->Add(line); }});
  EXPECT_TRUE(started.ok()) << started.status().message();
  if (started.ok()) s.stack = std::move(*started);
  return s;
}

// The CLIs to run every case with: the fake always, the real one when tools/bazel named it.
// "fake", or "real": the real CLI must then be there (the test fails, never skips, without it).
std::vector<CliChoice> Clis() {
  const char* which = std::getenv("UPSTREAM_FAULTS_CLI");
  if (which != nullptr && std::string(which) == "real") {
    const CliChoice real = DefaultCli();
    EXPECT_TRUE(real.real) << "AZURE_PRICING_AZMCP names no real azmcp; the BUILD rule sets it";
    return real.real ? std::vector<CliChoice>{real} : std::vector<CliChoice>{};
  }
  EXPECT_TRUE(which != nullptr && std::string(which) == "fake")
      << "UPSTREAM_FAULTS_CLI is fake or real; the BUILD rule sets it";
  return {FakeCli()};
}

HostSnapshot Snapshot(const Stack& s) {
  return TakeSnapshot({.dirs = {s.stack->backend().state_dir()},
                       .shared_dir = s.tmp->path(),
                       .ignore = {s.stack->price_api()->pid}});
}

struct FaultCase {
  std::string name;
  std::string faults;     // the admin API's JSON array
  std::string arguments;  // the tool's
  int64_t fake_timeout_seconds = 20;
  int64_t real_timeout_seconds = 40;
  Outcome outcome = Outcome::kFailed;
  std::string reason;
  int rows = -1;    // received_rows of a completed lookup; -1: not checked
  int gets = -1;    // GETs the fake API answered; -1: not checked
  std::string egress_decision;  // one decision the proxy must have logged; empty: none
};

// Faults that outlast the CLI's retries are queued many times; a fault the CLI recovers from
// once.
std::vector<FaultCase> Cases() {
  return {
      {.name = "status_400", .faults = R"([{"status":400,"times":10}])", .arguments = kPostgres,
       .reason = reasons::kUpstreamFilterRejected, .gets = 1},
      {.name = "status_404", .faults = R"([{"status":404,"times":10}])", .arguments = kPostgres,
       .reason = reasons::kUpstreamNotFound, .gets = 1},
      {.name = "status_429_always", .faults = R"([{"status":429,"retry_after":1,"times":10}])",
       .arguments = kPostgres, .reason = reasons::kCliFailed},
      {.name = "status_429_once", .faults = R"([{"status":429,"retry_after":1}])",
       .arguments = kPostgres, .outcome = Outcome::kCompleted, .rows = kPostgresRows, .gets = 2},
      {.name = "status_500", .faults = R"([{"status":500,"times":10}])", .arguments = kPostgres,
       .reason = reasons::kCliFailed},
      {.name = "latency_beyond_timeout", .faults = R"([{"latency_ms":12000,"times":10}])",
       .arguments = kPostgres, .fake_timeout_seconds = 3, .real_timeout_seconds = 6,
       .reason = reasons::kTimeout},
      {.name = "reset", .faults = R"([{"reset":true,"times":10}])", .arguments = kPostgres,
       .reason = reasons::kCliFailed},
      // A reset before any byte is retried by the real CLI's HTTP stack as well as by its
      // retry policy (16 GETs where `reset` takes 4): queued well past that.
      {.name = "drop", .faults = R"([{"drop":true,"times":100}])", .arguments = kPostgres,
       .reason = reasons::kCliFailed},
      {.name = "truncate", .faults = R"([{"truncate":100,"times":10}])", .arguments = kPostgres,
       .reason = reasons::kCliFailed},
      {.name = "bad_body", .faults = R"([{"body":"{\"Items\": [tru","times":10}])",
       .arguments = kPostgres, .reason = reasons::kCliFailed},
      {.name = "foreign_next_page_link",
       .faults = R"([{"page_size":2,"next_page_link":"https://evil.example/api/retail/prices?p=2"}])",
       .arguments = kPostgres, .reason = reasons::kCliFailed, .gets = 1,
       .egress_decision = "decision=host_not_allowed"},
      {.name = "endless_empty_pages", .faults = R"([{"endless_empty_pages":true}])",
       .arguments = kPostgres, .fake_timeout_seconds = 3, .real_timeout_seconds = 8,
       .reason = reasons::kTimeout},
      {.name = "page_size_2", .faults = R"([{"page_size":2,"times":10}])", .arguments = kPostgres,
       .outcome = Outcome::kCompleted, .rows = kPostgresRows, .gets = 3},
      {.name = "page_size_6000", .faults = R"([{"page_size":6000}])", .arguments = kConsumption,
       .outcome = Outcome::kCompleted, .rows = 5000, .gets = 1},
  };
}

int GetsReceived(const backend::PriceApi& api) {
  StatusOr<std::vector<std::string>> methods = backend::ReceivedMethods(api);
  if (!methods.ok()) return -1;
  int gets = 0;
  for (const std::string& m : *methods) gets += m == "GET" ? 1 : 0;
  return gets;
}

bool Logged(const std::vector<std::string>& lines, const std::string& decision) {
  for (const std::string& line : lines) {
    if (line.find(decision) != std::string::npos) return true;
  }
  return false;
}

void ExpectCase(const FaultCase& c, const host::CallReport& report, int gets,
                const std::vector<std::string>& egress) {
  EXPECT_EQ(report.outcome, c.outcome) << report.reason;
  EXPECT_EQ(report.reason, c.reason);
  EXPECT_EQ(report.sandbox_acquisitions, 1);
  EXPECT_EQ(report.sandbox_disposals, 1);
  EXPECT_EQ(report.sandbox_live, 0);
  if (c.outcome != Outcome::kCompleted) {
    EXPECT_FALSE(report.output.has_value()) << "a failed lookup carried a report";
  } else if (c.rows >= 0) {
    const Json out = Json::parse(report.output.value_or(""), nullptr, false);
    ASSERT_TRUE(out.is_object());
    EXPECT_EQ(out.value("received_rows", -1), c.rows);
    EXPECT_EQ(out.value("upstream_limit_reached", false), c.rows == 5000);
  }
  if (c.gets >= 0) {
    EXPECT_EQ(gets, c.gets);
  }
  if (!c.egress_decision.empty()) {
    EXPECT_TRUE(Logged(egress, c.egress_decision));
  }
}

void RunCase(Stack& s, const FaultCase& c) {
  const backend::PriceApi& api = *s.stack->price_api();
  ASSERT_TRUE(backend::ResetRequestLog(api).ok());
  (void)s.egress->Take();
  const HostSnapshot before = Snapshot(s);
  ASSERT_TRUE(backend::AddFaults(api, c.faults).ok()) << c.faults;
  const bool real = s.stack->cli().real;
  const auto began = Clock::now();
  StatusOr<host::CallReport> report = s.stack->Call(
      {.arguments = c.arguments,
       .exec_timeout_seconds = real ? c.real_timeout_seconds : c.fake_timeout_seconds});
  const double seconds = std::chrono::duration<double>(Clock::now() - began).count();
  const int gets = GetsReceived(api);
  ASSERT_TRUE(backend::ResetRequestLog(api).ok());  // endless pages end only here
  ASSERT_TRUE(report.ok()) << report.status().message();
  std::cout << "  " << (real ? "real" : "fake") << " " << c.name << ": "
            << OutcomeName(report->outcome) << " (" << report->reason << "), " << gets
            << " GETs, " << seconds << " s\n";
  ExpectCase(c, *report, gets, s.egress->Take());
  EXPECT_THAT(WaitUntilClean(before, kCleanWithin), IsEmpty());
}

CITES("UPSTREAM-001", "UPSTREAM-002", "BOUND-004", "BOUND-005", "BOUND-011", "BOUND-012",
      "BOUND-017", "BOUND-021", "INTRO-007", "HOST-008", "HOST-013");
TEST(UpstreamFaultsTest, EveryFaultOfTheFakeApiThroughTheWholeStack) {
  for (const CliChoice& cli : Clis()) {
    SCOPED_TRACE(cli.description);
    std::cout << cli.description << "\n";
    Stack s = Start(cli);
    ASSERT_NE(s.stack, nullptr);
    for (const FaultCase& c : Cases()) {
      SCOPED_TRACE(c.name);
      RunCase(s, c);
    }
  }
}

// The API answers page 1 (2 of 6 rows) and holds page 2; the upstream dies while the CLI waits.
// (The egress proxy cannot be restarted instead: the backend refuses a redirect while a sandbox
// is live, which this case checks too.)
CITES("BOUND-011", "BOUND-012", "INTRO-007");
TEST(UpstreamFaultsTest, TheUpstreamDyingMidLookupFailsClosedWithoutPartialRows) {
  for (const CliChoice& cli : Clis()) {
    SCOPED_TRACE(cli.description);
    Stack s = Start(cli);
    ASSERT_NE(s.stack, nullptr);
    const backend::PriceApi& api = *s.stack->price_api();
    const HostSnapshot before = Snapshot(s);
    ASSERT_TRUE(backend::AddFaults(
                    api, R"([{"page_size":2},{"page_size":2,"latency_ms":30000,"times":10}])")
                    .ok());
    std::future<StatusOr<host::CallReport>> call = std::async(std::launch::async, [&s] {
      return s.stack->Call({.arguments = kPostgres, .exec_timeout_seconds = 60});
    });
    const auto deadline = Clock::now() + std::chrono::seconds(45);
    while (GetsReceived(api) < 2 && Clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_GE(GetsReceived(api), 2) << "the CLI never asked for the second page";
    // The proxy itself cannot be restarted under a live sandbox; its upstream can die.
    const Status redirect = s.stack->backend().RedirectEgress({"127.0.0.1", 1, api.ca_pem});
    EXPECT_EQ(redirect.reason(), sandbox::bwrap::kEgressRedirectBusy);
    ASSERT_EQ(kill(api.pid, SIGKILL), 0);
    ASSERT_EQ(call.wait_for(std::chrono::seconds(90)), std::future_status::ready);
    StatusOr<host::CallReport> report = call.get();
    ASSERT_TRUE(report.ok()) << report.status().message();
    std::cout << "  " << (cli.real ? "real" : "fake") << " upstream killed mid-lookup: "
              << OutcomeName(report->outcome) << " (" << report->reason << ")\n";
    EXPECT_EQ(report->outcome, Outcome::kFailed);
    EXPECT_EQ(report->reason, reasons::kCliFailed);
    EXPECT_FALSE(report->output.has_value()) << "page 1's rows came back";
    EXPECT_EQ(report->sandbox_disposals, 1);
    EXPECT_EQ(report->sandbox_live, 0);
    EXPECT_THAT(WaitUntilClean(before, kCleanWithin), IsEmpty());
  }
}

}  // namespace
}  // namespace azure_pricing::conformance::stack
