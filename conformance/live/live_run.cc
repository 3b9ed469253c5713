#include "conformance/live/live_run.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <utility>

#include "conformance/console/check_line.h"
#include "ref/base/files.h"
#include "ref/base/runfiles.h"
#include "ref/egress/proxy.h"
#include "ref/status/status_macros.h"

namespace azure_pricing::conformance::live {
namespace {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

// Every request the proxy forwarded in the run, in the order their responses ended.
struct ExchangeLog {
  std::mutex mu;
  std::vector<egress::ForwardedExchange> all;
  size_t taken = 0;

  void Add(const egress::ForwardedExchange& e) {
    std::lock_guard<std::mutex> lock(mu);
    all.push_back(e);
  }
  int Count() {
    std::lock_guard<std::mutex> lock(mu);
    return static_cast<int>(all.size());
  }
  // The exchanges since the last call, bodies read from the raw responses.
  std::vector<UpstreamExchange> TakeNew() {
    std::lock_guard<std::mutex> lock(mu);
    std::vector<UpstreamExchange> out;
    for (; taken < all.size(); ++taken) {
      const egress::ForwardedExchange& e = all[taken];
      UpstreamExchange u{.target = e.target, .user_agent = e.user_agent, .status = e.status};
      StatusOr<std::string> body = HttpResponseBody(e.response);
      if (!e.response_complete) {
        u.body_error = "the response exceeded the recorder's cap";
      } else if (body.ok()) {
        u.body = std::move(*body);
      } else {
        u.body_error = body.status().message();
      }
      out.push_back(std::move(u));
    }
    return out;
  }
  // The most requests whose [forwarded, ended] intervals overlap.
  int MaxInFlight() {
    std::lock_guard<std::mutex> lock(mu);
    std::vector<std::pair<Clock::time_point, int>> edges;
    for (const auto& e : all) {
      edges.emplace_back(e.forwarded, +1);
      edges.emplace_back(e.ended, -1);
    }
    std::sort(edges.begin(), edges.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second < b.second;
    });
    int now = 0, most = 0;
    for (const auto& [when, delta] : edges) most = std::max(most, now += delta);
    return most;
  }
};

std::string UtcNow() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

StatusOr<stack::LocalStackOptions> StackOptions(const LiveRunOptions& options, ExchangeLog* log) {
  stack::LocalStackOptions s{.cli = options.cli, .bwrap = options.bwrap,
                             .progress = options.progress};
  s.egress_observe = [log](const egress::ForwardedExchange& e) { log->Add(e); };
  if (options.mode == LiveMode::kLive) {
    if (!options.cli.real) {
      return ProgramError(kLiveNeedsRealCli, "the live check runs the real azmcp only; set AZURE_PRICING_AZMCP "
                    "(tools/bazel does)");
    }
    s.real_upstream = true;
    return s;
  }
  StatusOr<std::string> catalog =
      base::ReadFile(base::Runfile("fixtures/live-check/catalog.jsonl"));
  if (!catalog.ok()) {
    return ProgramError(kDryRunCatalogMissing, "the dry run's catalog (fixtures/live-check/catalog.jsonl) is not in the "
                  "runfiles");
  }
  s.catalog_jsonl = std::move(*catalog);
  return s;
}

CheckResult RunOne(stack::LocalStack& stack, const LiveCheck& check, ExchangeLog& log) {
  CheckResult result{.check = check, .ran = true};
  const auto began = Clock::now();
  (void)log.TakeNew();
  // Every selected row in the report, so the zone judgements see them all.
  StatusOr<host::CallReport> report =
      stack.Call({.arguments = check.arguments, .max_rows = 5000}, &result.seen.execs);
  result.seconds = std::chrono::duration<double>(Clock::now() - began).count();
  result.seen.upstream = log.TakeNew();
  if (!report.ok()) {
    result.outcome = "the host did not run the call";
    result.findings.push_back({"host", false, report.status().message()});
    return result;
  }
  result.seen.report = std::move(*report);
  result.outcome = OutcomeText(result.seen.report);
  RowCounts counts;
  result.findings = JudgeCheck(check, result.seen, &counts);
  result.rows = counts.report;
  result.cli_rows = counts.cli;
  result.passed = std::all_of(result.findings.begin(), result.findings.end(),
                              [](const Finding& f) { return f.passed; });
  return result;
}

}  // namespace

namespace {

// The queries one stack runs, by their place among the selected checks, and what it saw.
struct StackRun {
  std::vector<CheckResult> results;  // in `indexes` order
  std::string upstream;
  int requests = 0;
  int max_in_flight = 0;
};

// One stack of its own (its egress proxy, its fake or real upstream, its exchange log) running
// `indexes` of `selected` in turn. `requests` counts the run's upstream requests across stacks,
// so the cap holds for the run as a whole; `progress` is the options' callback, made safe to
// call from several stacks.
StatusOr<StackRun> RunOnOwnStack(const std::vector<const LiveCheck*>& selected,
                                 const std::vector<size_t>& indexes, LiveRunOptions options,
                                 std::atomic<int>& requests) {
  ExchangeLog log;
  ASSIGN_OR_RETURN(stack::LocalStackOptions stack_options, StackOptions(options, &log));
  ASSIGN_OR_RETURN(std::unique_ptr<stack::LocalStack> stack,
                   stack::LocalStack::Start(std::move(stack_options)));
  StackRun run{.upstream = stack->upstream_description()};
  bool first = true;
  for (const size_t i : indexes) {
    const LiveCheck& check = *selected[i];
    if (requests.load() + kRequestsPerQuery > options.max_requests) {
      run.results.push_back({.check = check, .skipped_because = "the run's request cap"});
      continue;
    }
    if (!first) std::this_thread::sleep_for(std::chrono::milliseconds(options.pause_ms));
    first = false;
    CheckResult r = RunOne(*stack, check, log);
    requests += static_cast<int>(r.seen.upstream.size());
    if (options.progress) {
      options.progress(CheckLine(
          r.passed, check.id,
          r.outcome + (r.passed ? "" : "; " + FailedFindings(r.findings)) +
              (check.unverified.empty() ? "" : "; " + std::string(kUnverifiedMark))));
    }
    run.results.push_back(std::move(r));
  }
  run.requests = log.Count();
  run.max_in_flight = log.MaxInFlight();
  return run;
}

// The selected checks dealt round-robin to `stacks` stacks, run side by side (one runs here).
std::vector<StatusOr<StackRun>> RunOnStacks(const std::vector<const LiveCheck*>& selected,
                                            size_t stacks, const LiveRunOptions& options) {
  std::vector<std::vector<size_t>> indexes(stacks);
  for (size_t i = 0; i < selected.size(); ++i) indexes[i % stacks].push_back(i);
  LiveRunOptions shared = options;
  auto progress_mu = std::make_shared<std::mutex>();
  if (options.progress) {
    shared.progress = [progress_mu, inner = options.progress](const std::string& line) {
      std::lock_guard<std::mutex> lock(*progress_mu);
      inner(line);
    };
  }
  std::atomic<int> requests{0};
  std::vector<StatusOr<StackRun>> runs(stacks, StatusOr<StackRun>(StackRun{}));
  std::vector<std::thread> threads;
  for (size_t g = 1; g < stacks; ++g) {
    threads.emplace_back([&, g] { runs[g] = RunOnOwnStack(selected, indexes[g], shared, requests); });
  }
  runs[0] = RunOnOwnStack(selected, indexes[0], shared, requests);
  for (std::thread& t : threads) t.join();
  return runs;
}

}  // namespace

StatusOr<LiveReport> RunLiveChecks(const std::vector<LiveCheck>& checks,
                                   const LiveRunOptions& options) {
  for (const std::string& id : options.only) {
    if (std::none_of(checks.begin(), checks.end(), [&id](const LiveCheck& c) { return c.id == id; })) {
      return ProgramError(kUnknownCheck, "--only names a check the list lacks");
    }
  }
  std::vector<const LiveCheck*> selected;
  for (const LiveCheck& check : checks) {
    if (options.only.empty() ||
        std::find(options.only.begin(), options.only.end(), check.id) != options.only.end()) {
      selected.push_back(&check);
    }
  }
  // The real upstream is asked one query at a time; the fake one may be asked by several stacks.
  const size_t stacks =
      options.mode == LiveMode::kLive
          ? 1
          : std::clamp<size_t>(static_cast<size_t>(std::max(options.dry_run_stacks, 1)), 1,
                               std::max<size_t>(selected.size(), 1));
  LiveReport report{.mode = options.mode == LiveMode::kLive ? "live" : "dry-run",
                    .cli = options.cli.description, .started_at = UtcNow()};
  std::vector<StatusOr<StackRun>> runs = RunOnStacks(selected, stacks, options);
  for (const StatusOr<StackRun>& run : runs) {
    if (!run.ok()) return run.status();
  }
  report.upstream = runs[0]->upstream;
  std::vector<size_t> next(stacks, 0);
  for (size_t i = 0; i < selected.size(); ++i) {
    CheckResult& r = runs[i % stacks]->results[next[i % stacks]++];
    (!r.ran ? report.skipped : r.passed ? report.passed : report.failed)++;
    report.results.push_back(std::move(r));
  }
  for (const StatusOr<StackRun>& run : runs) {
    report.requests += run->requests;
    report.max_in_flight = std::max(report.max_in_flight, run->max_in_flight);
  }
  for (const CheckResult& r : report.results) {
    for (const UpstreamExchange& u : r.seen.upstream) {
      if (report.cli_version.empty()) report.cli_version = CliVersionFromUserAgent(u.user_agent);
    }
  }
  return report;
}

namespace {

std::string Pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string PadLeft(const std::string& s, size_t width) {
  return s.size() < width ? std::string(width - s.size(), ' ') + s : s;
}

}  // namespace

std::string FormatLiveTable(const LiveReport& report) {
  std::string out = "live check (" + report.mode + "): " + report.upstream + "\n";
  out += "cli: " + report.cli + "; version seen on the wire: " +
         (report.cli_version.empty() ? "none (no request carried it)" : report.cli_version) + "\n";
  size_t id_width = 22;
  for (const CheckResult& r : report.results) id_width = std::max(id_width, r.check.id.size() + 2);
  out += Pad("check", id_width) + Pad("outcome", 36) + PadLeft("rows", 6) + PadLeft("cli rows", 10) +
         PadLeft("requests", 10) + "  result\n";
  for (const CheckResult& r : report.results) {
    out += Pad(r.check.id, id_width) + Pad(r.ran ? r.outcome : "-", 36) +
           PadLeft(std::to_string(r.rows), 6) +
           PadLeft(std::to_string(r.cli_rows), 10) +
           PadLeft(std::to_string(r.seen.upstream.size()), 10) + "  " +
           (!r.ran ? "skipped (" + r.skipped_because + ")" : r.passed ? "ok" : "FAIL") +
           (r.check.unverified.empty() ? "" : ", " + std::string(kUnverifiedMark)) + "\n";
  }
  for (const CheckResult& r : report.results) {
    if (!r.check.unverified.empty()) {
      out += "UNVERIFIED " + r.check.id + ": " + kUnverifiedMark + ": " + r.check.unverified + "\n";
    }
  }
  for (const CheckResult& r : report.results) {
    for (const Finding& f : r.findings) {
      if (!f.passed) out += "FAIL " + r.check.id + " " + f.name + ": " + f.detail + "\n";
    }
  }
  out += std::to_string(report.results.size()) + " checks: " + std::to_string(report.passed) +
         " passed, " + std::to_string(report.failed) + " failed, " +
         std::to_string(report.skipped) + " skipped; " + std::to_string(report.requests) +
         " upstream requests, at most " + std::to_string(report.max_in_flight) + " in flight\n";
  return out;
}

std::string LiveReportJson(const LiveReport& report) {
  Json checks = Json::array();
  for (const CheckResult& r : report.results) {
    Json findings = Json::array(), upstream = Json::array();
    for (const Finding& f : r.findings) {
      findings.push_back({{"name", f.name}, {"passed", f.passed}, {"detail", f.detail}});
    }
    for (const UpstreamExchange& u : r.seen.upstream) {
      upstream.push_back({{"target", u.target}, {"status", u.status}});
    }
    Json c = {{"id", r.check.id},
              {"what", r.check.what},
              {"arguments", Json::parse(r.check.arguments, nullptr, false)},
              {"requirements", r.check.requirements},
              {"expectation_unverified", r.check.unverified.empty() ? Json(nullptr)
                                                                     : Json(r.check.unverified)},
              {"ran", r.ran}};
    if (!r.ran) c["skipped_because"] = r.skipped_because;
    c.update(Json{{"passed", r.passed}, {"outcome", r.outcome}, {"rows", r.rows},
                  {"cli_rows", r.cli_rows}, {"seconds", r.seconds},
                  {"findings", findings}, {"upstream", upstream}});
    checks.push_back(std::move(c));
  }
  const Json out = {{"mode", report.mode},         {"upstream", report.upstream},
                    {"cli", report.cli},           {"cli_version", report.cli_version},
                    {"started_at", report.started_at}, {"requests", report.requests},
                    {"max_in_flight", report.max_in_flight},
                    {"passed", report.passed},     {"failed", report.failed},
                    {"skipped", report.skipped},   {"checks", checks}};
  return out.dump(2) + "\n";
}

}  // namespace azure_pricing::conformance::live
