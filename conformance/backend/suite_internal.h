// Shared by the probe files of the backend suite; not an API.
#ifndef CONFORMANCE_BACKEND_SUITE_INTERNAL_H_
#define CONFORMANCE_BACKEND_SUITE_INTERNAL_H_

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <set>
#include <thread>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "conformance/backend/suite.h"
#include "ref/sandbox/backend.h"

namespace azure_pricing::conformance::backend::internal {

// A backend whose sandboxes offer no BoundedExec cannot run a probe (Outcome::kRefused).
inline constexpr Reason kNoBoundedExec = "no_bounded_exec";

struct Observation {
  bool passed = false;
  std::string detail;  // on failure, what was seen instead of the probe's expectation
  bool applicable = true;
};

// A process as /proc has it. `start` (clock ticks since boot) tells a process from a later one
// that reuses its pid.
struct ProcEntry {
  pid_t pid = 0;
  pid_t ppid = 0;
  char state = '?';
  unsigned long long start = 0;
  std::string cmdline;  // NULs as spaces
};
using ProcessKey = std::pair<pid_t, unsigned long long>;  // pid and start

// The adapter's helpers (PROTOCOL.md, "Decisions"): the processes beneath this one, `self`, when
// the suite starts, other than the adapter itself (`own`) and the price API, that do not read the
// adapter's protocol stdin. `stdin_of(pid)` is what the process's fd 0 names (readlink), and
// `protocol_stdin` what the adapter's does; empty for an in-process backend, where every process
// already there is a helper. A wrapper that runs the adapter without exec holds that stdin, so it
// and its children are the adapter's, never helpers.
std::set<ProcessKey> HelperRoots(const std::vector<ProcEntry>& table, pid_t self,
                                 const std::set<pid_t>& own, pid_t price_api,
                                 const std::string& protocol_stdin,
                                 const std::function<std::string(pid_t)>& stdin_of);
// The pids of `roots` and of every process beneath them in `table`.
std::set<pid_t> HelperTree(const std::vector<ProcEntry>& table, const std::set<ProcessKey>& roots);

struct Context {
  sandbox::Backend& backend;
  const SuiteOptions& options;
  std::string run_id;  // unique per run: markers and files of this run carry it
  int counter = 0;
  // Descendants of the suite before the probe started: an adapter's own helpers are not leaks.
  std::set<pid_t> baseline;
  // The adapter's helpers, found when the suite starts; what they start may live across probes,
  // so long as their tree does not grow (`helper_processes`, counted when the probe started).
  std::set<ProcessKey> helpers;
  size_t helper_processes = 0;
  // How long the last RunInSandbox's exec took, without acquire and dispose.
  double last_exec_seconds = 0;
  // The protocol probes' one session with a fresh adapter, run when the first of them runs.
  std::optional<std::map<std::string, Observation>> protocol;
  std::string Marker() { return run_id + "-" + std::to_string(++counter); }
};

// Counts, while a call runs, the processes on this machine whose command line holds a marker:
// evidence that what a probe should have started really ran.
class MarkerWatch {
 public:
  explicit MarkerWatch(std::string marker);
  ~MarkerWatch();
  int most_seen();  // stops watching
 private:
  std::string marker_;
  std::atomic<bool> stop_{false};
  std::atomic<int> most_{0};
  std::thread thread_;
};

Observation Pass(std::string detail);
Observation Fail(std::string detail);
Observation NotApplicable(std::string why);

struct ProbeDef {
  ProbeInfo info;
  Observation (*run)(Context&);
};

// The probe files' registries, concatenated in suite.cc in this order.
std::vector<ProbeDef> ExecProbes();
std::vector<ProbeDef> IsolationProbes();
std::vector<ProbeDef> EgressProbes();
std::vector<ProbeDef> ProtocolProbes();
std::vector<ProbeDef> SandboxProbes();

struct ExecOptions {
  std::vector<std::string> env = {"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp/probe-home",
                                  "LANG=C.UTF-8"};
  int64_t timeout_seconds = 30;
  int64_t max_output_bytes = 1 << 20;
};

// The spec every probe asks for unless it says otherwise: the tool's own.
sandbox::Spec SuiteSpec();
// A sandbox for `spec` with a key unique to this call.
StatusOr<std::unique_ptr<sandbox::Sandbox>> AcquireSandbox(Context& ctx, const sandbox::Spec& spec);
// ExecBounded of the probe program with `args` in a live sandbox.
StatusOr<sandbox::ExecResult> ExecIn(Context& ctx, sandbox::Sandbox& box,
                                     const std::vector<std::string>& args,
                                     const ExecOptions& options = {});
std::optional<nlohmann::json> ProbeIn(Context& ctx, sandbox::Sandbox& box,
                                      const std::vector<std::string>& args, std::string* why,
                                      const ExecOptions& options = {});

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
// Descendants of this process that are neither the suite's own helpers, the price API, in the
// baseline nor beneath the adapter's helpers, waiting up to `wait` for them to go (killed
// processes take a moment to go); and, when the helpers' trees hold more processes than when
// the probe started, their processes that are new: a helper may restart what it runs, not
// keep one more per sandbox.
std::vector<pid_t> LeftoverDescendants(const Context& ctx, std::chrono::milliseconds wait);
// Every descendant now, for Context::baseline.
std::set<pid_t> CurrentDescendants(const Context& ctx);
// Finds the adapter's helpers (HelperRoots on this machine), once, before the first probe.
void FindHelpers(Context& ctx);
// How many processes the helpers' trees hold now, for Context::helper_processes.
size_t HelperProcesses(const Context& ctx);
// Kills this run's marked processes and what LeftoverDescendants finds, so one failing probe
// does not spoil the next; the baseline (an adapter's helpers) is left alone.
void KillLeftovers(const Context& ctx);

std::string Describe(const Status& status);

// Paths on this machine whose name contains `token`, in the temporary directories and where
// container engines and services keep state (disposal.files_removed looks there after dispose).
std::vector<std::string> LeftOnHost(const std::string& token);

}  // namespace azure_pricing::conformance::backend::internal

#endif  // CONFORMANCE_BACKEND_SUITE_INTERNAL_H_
