// Shared by the probe files of the backend suite; not an API.
#ifndef CONFORMANCE_BACKEND_SUITE_INTERNAL_H_
#define CONFORMANCE_BACKEND_SUITE_INTERNAL_H_

#include <sys/types.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "conformance/backend/suite.h"
#include "ref/sandbox/backend.h"

namespace azure_pricing::conformance::backend::internal {

struct Context {
  sandbox::Backend& backend;
  const SuiteOptions& options;
  std::string run_id;  // unique per run: markers and files of this run carry it
  int counter = 0;
  std::string Marker() { return run_id + "-" + std::to_string(++counter); }
};

struct Observation {
  bool passed = false;
  std::string detail;
};

Observation Pass(std::string detail);
Observation Fail(std::string detail);

struct ProbeDef {
  ProbeInfo info;
  Observation (*run)(Context&);
};

// The probe files' registries, concatenated in suite.cc in this order.
std::vector<ProbeDef> ExecProbes();
std::vector<ProbeDef> IsolationProbes();
std::vector<ProbeDef> EgressProbes();

struct ExecOptions {
  std::vector<std::string> env = {"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp/probe-home",
                                  "LANG=C.UTF-8"};
  int64_t timeout_seconds = 30;
  int64_t max_output_bytes = 1 << 20;
};

// One whole call: acquire a per-call sandbox, ExecBounded the probe program with `args`, dispose.
StatusOr<sandbox::ExecResult> RunInSandbox(Context& ctx, const std::vector<std::string>& args,
                                           const ExecOptions& options = {});
// The probe's one JSON object, or nullopt (with `why`) when the call or its output is not that.
std::optional<nlohmann::json> ProbeJson(const StatusOr<sandbox::ExecResult>& result,
                                        std::string* why);
// Runs the probe and returns its JSON, failing the observation otherwise.
std::optional<nlohmann::json> ProbeJson(Context& ctx, const std::vector<std::string>& args,
                                        std::string* why, const ExecOptions& options = {});

// Host processes whose command line contains `marker`, waiting up to `wait` for them to go.
int MarkedProcessesAfter(const std::string& marker, std::chrono::milliseconds wait);
// Descendants of this process that are neither the suite's own helpers nor the price API,
// waiting up to `wait` for them to go (killed processes take a moment to be reaped).
std::vector<pid_t> LeftoverDescendants(const Context& ctx, std::chrono::milliseconds wait);
// Kills what LeftoverDescendants found so one failing probe does not spoil the next.
void KillLeftovers(const Context& ctx);

std::string Describe(const Status& status);

}  // namespace azure_pricing::conformance::backend::internal

#endif  // CONFORMANCE_BACKEND_SUITE_INTERNAL_H_
