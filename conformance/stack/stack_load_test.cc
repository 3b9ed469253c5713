// Load through the whole local stack: 1,000 lookups, 16 at a time, through one router over the
// bubblewrap backend with the fake CLI, each asking for its own SKU of a generated catalog whose
// rows all differ. Every result must be the row its arguments ask for (no cross-talk), and
// afterwards nothing may be left: no process, descriptor, mount or file. Then LocalStack::Call
// from 16 threads: each report and its executions must be that call's own. The test stops by
// itself at a deadline and prints its figures (wall time, lookups/s, p50/p99 per lookup).
//
// Two tests link this file; STACK_LOAD_LOOKUPS (set by the BUILD rule) says how many lookups.
// //conformance/stack:stack_load_test runs 1,000 (tier: exhaustive: the count buys no new fact
// per change); //conformance/stack:stack_concurrency_test runs 64 at the same concurrency, with
// the same checks, in the fast tier.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "conformance/citations/cites.h"
#include "conformance/stack/host_leaks.h"
#include "conformance/stack/local_stack.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/labels/middleware.h"
#include "ref/pricing/host.h"
#include "ref/sandbox/bwrap/bwrap_backend.h"
#include "ref/sandbox/router.h"

namespace azure_pricing::conformance::stack {
namespace {

using ::testing::IsEmpty;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr int kSkus = 1000;
constexpr int kThreads = 16;

// STACK_LOAD_LOOKUPS lookups (at least kThreads, at most kSkus), or 0 when it is not that.
int Lookups() {
  const char* text = std::getenv("STACK_LOAD_LOOKUPS");
  const int n = text == nullptr ? 0 : std::atoi(text);
  return n >= kThreads && n <= kSkus ? n : 0;
}
// LocalStack::Call from kThreads threads: about a tenth as many, and at least kThreads.
int StackCalls() { return std::max(kThreads, Lookups() / 10); }
// Fails the test rather than letting it hang, well inside the medium size's 300 s; the lookups
// take ~15 s on this 2-core machine.
constexpr auto kDeadline = std::chrono::minutes(3);

std::string Sku(int i) {
  char name[32];
  std::snprintf(name, sizeof name, "Load_Sku_%04d", i);
  return name;
}

// Each SKU's one row: its own meter id and price, so a row answering another call shows.
double Price(int i) { return 0.5 + 0.001 * (i + 1); }
std::string MeterId(int i) { return "load-meter-" + std::to_string(i); }

std::string GeneratedCatalog() {
  std::string out;
  for (int i = 0; i < kSkus; ++i) {
    const Json row = {{"currencyCode", "USD"},      {"tierMinimumUnits", 0.0},
                      {"retailPrice", Price(i)},    {"unitPrice", Price(i)},
                      {"armRegionName", "westeurope"}, {"location", "EU West"},
                      {"effectiveStartDate", "2024-01-01T00:00:00Z"},
                      {"meterId", MeterId(i)},      {"meterName", Sku(i) + " Hours"},
                      {"productId", "LOADPRODUCT"}, {"skuId", "LOADPRODUCT/" + std::to_string(i)},
                      {"productName", "Load Test Machines"}, {"skuName", Sku(i)},
                      {"serviceName", "Virtual Machines"},   {"serviceId", "LOADSERVICE"},
                      {"serviceFamily", "Compute"},  {"unitOfMeasure", "1 Hour"},
                      {"type", "Consumption"},       {"isPrimaryMeterRegion", true},
                      {"armSkuName", Sku(i)}};
    out += row.dump() + "\n";
  }
  return out;
}

std::string Arguments(int i) { return R"({"sku":")" + Sku(i) + R"(","region":"westeurope"})"; }

// Empty when the report is exactly SKU i's one row; otherwise what is wrong.
std::string Judge(int i, const std::string& report_json) {
  const Json report = Json::parse(report_json, nullptr, false);
  if (!report.is_object()) return "no report";
  const Json& prices = report["prices"];
  if (report.value("received_rows", -1) != 1 || !prices.is_array() || prices.size() != 1) {
    return "not exactly one row";
  }
  const Json& row = prices[0];
  if (row.value("meterId", "") != MeterId(i) || row.value("armSkuName", "") != Sku(i) ||
      row.value("retailPrice", -1.0) != Price(i)) {
    return "another row: " + row.dump();
  }
  return "";
}

struct Figures {
  std::vector<double> ms;  // per lookup
  double wall_seconds = 0;
};

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

void Print(const std::string& what, const Figures& f) {
  std::cout << what << ": " << f.ms.size() << " lookups, " << kThreads << " at a time, wall "
            << f.wall_seconds << " s, " << static_cast<double>(f.ms.size()) / f.wall_seconds
            << " lookups/s, p50 " << Percentile(f.ms, 0.50) << " ms, p99 "
            << Percentile(f.ms, 0.99) << " ms, max " << Percentile(f.ms, 1.0) << " ms\n";
}

// Runs `one(i)` for i in [0, count) on kThreads threads until done or the deadline; `one`
// returns "" or what went wrong. Every thread is joined before this returns.
Figures RunConcurrently(int count, const std::function<std::string(int)>& one,
                        std::vector<std::string>& problems) {
  std::atomic<int> next{0};
  std::mutex mu;
  Figures f;
  const auto began = Clock::now();
  const auto deadline = began + kDeadline;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = next++; i < count && Clock::now() < deadline; i = next++) {
        const auto start = Clock::now();
        const std::string problem = one(i);
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        std::lock_guard<std::mutex> lock(mu);
        f.ms.push_back(ms);
        if (!problem.empty()) problems.push_back(Sku(i) + ": " + problem);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  f.wall_seconds = std::chrono::duration<double>(Clock::now() - began).count();
  return f;
}

class NullLogger : public Logger {
 public:
  void Warning(std::string_view, std::string_view) override {}
};

// One lookup through the shared tool: completed with SKU i's row and nothing else.
std::string LookupThroughTool(const labels::Tool& tool, int i) {
  labels::InvocationContext ctx;
  ctx.arguments = Arguments(i);
  ctx.call_id = "load-" + std::to_string(i);
  labels::InvokeFunction(tool, ctx, {});
  if (!ctx.result.has_value()) return "the tool did not run";
  if (ctx.result->outcome != "completed") {
    return ctx.result->outcome + " (" + ctx.result->reason + ")";
  }
  for (const labels::Content& item : ctx.result->items) {
    if (item.name == kOutputItem) return Judge(i, item.text);
  }
  return "no output";
}

// One LocalStack::Call: its report and its one execution are its own.
std::string LookupThroughStack(LocalStack& stack, int i) {
  std::vector<StackExec> execs;
  StatusOr<host::CallReport> report = stack.Call({.arguments = Arguments(i)}, &execs);
  if (!report.ok()) return "no call: " + report.status().message();
  if (report->outcome != Outcome::kCompleted) return "not completed: " + report->reason;
  if (report->sandbox_acquisitions != 1 || report->sandbox_disposals != 1 ||
      report->sandbox_live != 0) {
    return "sandbox counts of other calls";
  }
  if (execs.size() != 1 || !execs[0].result.ok()) return "executions of other calls";
  const std::vector<std::string>& argv = execs[0].argv;
  if (std::find(argv.begin(), argv.end(), Sku(i)) == argv.end()) return "another call's argv";
  if (execs[0].result->stdout_bytes.find(MeterId(i) + "\"") == std::string::npos) {
    return "another call's output";
  }
  return Judge(i, report->output.value_or(""));
}

CITES("INTRO-003", "INTRO-004", "INTRO-007", "HOST-008", "BOUND-004", "BOUND-018");
TEST(StackLoadTest, ConcurrentLookupsLeaveNothingAndNeverCrossTalk) {
  const int lookups = Lookups(), stack_calls = StackCalls();
  ASSERT_GT(lookups, 0) << "STACK_LOAD_LOOKUPS is a count from 16 to 1000; the BUILD rule sets it";
  const PrivateTmpDir tmp;  // outlives the stack
  // The proxy's tunnel cap (16) equals the concurrency: a refused tunnel would show here.
  std::atomic<int> refused_tunnels{0}, forwarded{0};
  StatusOr<std::unique_ptr<LocalStack>> started = LocalStack::Start(
      {.cli = FakeCli(),
       .catalog_jsonl = GeneratedCatalog(),
       .egress_log = [&](const std::string& line) {
         refused_tunnels += line.find("decision=too_many_tunnels") != std::string::npos;
         forwarded += line.find("decision=request_forwarded") != std::string::npos;
       }});
  ASSERT_TRUE(started.ok()) << started.status().message();
  LocalStack& stack = **started;
  sandbox::Router router({&stack.backend()}, {.min_isolation = sandbox::Isolation::kContainer});
  NullLogger logger;
  ToolOptions options{.image = "local-stack"};
  options.bounds.exec_timeout_seconds = 120;  // a loaded machine, 16 sandboxes at once
  StatusOr<std::vector<labels::Tool>> tools =
      MakeAzurePricingTools(&router, "load-agent", {"load-session"}, options, &logger);
  ASSERT_TRUE(tools.ok() && tools->size() == 1);
  const labels::Tool& tool = tools->front();
  // One lookup first, so whatever is made once (the proxy's leaf certificate) is in the baseline.
  ASSERT_EQ(LookupThroughTool(tool, 0), "");
  const HostSnapshot before = TakeSnapshot({.dirs = {stack.backend().state_dir()},
                                            .shared_dir = tmp.path(),
                                            .ignore = {stack.price_api()->pid}});

  std::vector<std::string> problems;
  const Figures f = RunConcurrently(
      lookups, [&tool](int i) { return LookupThroughTool(tool, i % kSkus); }, problems);
  Print("one router", f);
  std::cout << "egress: " << forwarded.load() << " requests forwarded, " << refused_tunnels.load()
            << " tunnels refused (too_many_tunnels)\n";
  EXPECT_EQ(f.ms.size(), static_cast<size_t>(lookups)) << "the deadline stopped the run";
  EXPECT_THAT(problems, IsEmpty());
  EXPECT_EQ(stack.backend().live_sandboxes(), 0);

  std::vector<std::string> stack_problems;
  const Figures g = RunConcurrently(
      stack_calls, [&stack](int i) { return LookupThroughStack(stack, (i * 7) % kSkus); },
      stack_problems);
  Print("LocalStack::Call", g);
  EXPECT_EQ(g.ms.size(), static_cast<size_t>(stack_calls));
  EXPECT_THAT(stack_problems, IsEmpty());
  EXPECT_THAT(WaitUntilClean(before, std::chrono::seconds(30)), IsEmpty());
}

}  // namespace
}  // namespace azure_pricing::conformance::stack
