#include "conformance/backend/suite.h"

#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <thread>

#include "conformance/backend/suite_internal.h"
#include "conformance/console/check_line.h"
#include "ref/pricing/host.h"
#include "ref/sandbox/bwrap/command_line.h"
#include "ref/status/status_macros.h"

namespace azure_pricing::conformance::backend {
namespace internal {
namespace {

using Clock = std::chrono::steady_clock;

std::string ReadSmallFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<ProcEntry> ProcessTable() {
  std::vector<ProcEntry> out;
  DIR* d = opendir("/proc");
  if (d == nullptr) return out;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    const std::string base = std::string("/proc/") + e->d_name;
    const std::string stat = ReadSmallFile(base + "/stat");
    const size_t close = stat.rfind(')');
    if (close == std::string::npos || close + 4 > stat.size()) continue;
    ProcEntry p;
    p.pid = std::atoi(e->d_name);
    p.state = stat[close + 2];
    p.ppid = std::atoi(stat.c_str() + close + 4);
    // starttime is field 22; the fields after ')' start at field 3 (state).
    std::istringstream after(stat.substr(close + 2));
    std::string field;
    for (int number = 3; number < 22; ++number) after >> field;
    after >> p.start;
    p.cmdline = ReadSmallFile(base + "/cmdline");
    for (char& c : p.cmdline) c = c == '\0' ? ' ' : c;
    out.push_back(std::move(p));
  }
  closedir(d);
  return out;
}

bool Excluded(const Context& ctx, pid_t pid) {
  return pid == ctx.options.price_api.pid || ctx.options.own_processes.count(pid) != 0;
}

// Zombies among our children that are not the suite's own: reaped so they stop counting.
void ReapStrayZombies(const Context& ctx, const std::vector<ProcEntry>& table) {
  for (const ProcEntry& p : table) {
    if (p.ppid == getpid() && p.state == 'Z' && !Excluded(ctx, p.pid)) {
      waitpid(p.pid, nullptr, WNOHANG);
    }
  }
}

// The children of each pid in `table`.
std::multimap<pid_t, const ProcEntry*> ChildrenOf(const std::vector<ProcEntry>& table) {
  std::multimap<pid_t, const ProcEntry*> children;
  for (const ProcEntry& p : table) children.emplace(p.ppid, &p);
  return children;
}

// Every live process beneath `root` in `table`, the price API's tree left out.
std::vector<const ProcEntry*> Beneath(const std::vector<ProcEntry>& table, pid_t root,
                                      pid_t price_api) {
  const std::multimap<pid_t, const ProcEntry*> children = ChildrenOf(table);
  std::vector<const ProcEntry*> found;
  std::vector<pid_t> frontier = {root};
  while (!frontier.empty()) {
    const pid_t parent = frontier.back();
    frontier.pop_back();
    auto [first, last] = children.equal_range(parent);
    for (auto it = first; it != last; ++it) {
      const ProcEntry& child = *it->second;
      if (child.pid == price_api) continue;
      frontier.push_back(child.pid);  // an adapter's own children are the backend's
      if (child.state != 'Z') found.push_back(&child);
    }
  }
  return found;
}

std::vector<ProcEntry> ReapedTable(const Context& ctx) {
  ReapStrayZombies(ctx, ProcessTable());
  return ProcessTable();
}

// Descendants not in the baseline, the helpers' trees apart: `left` gets the rest, `helpers`
// the helpers' trees' pids.
void SplitNew(const Context& ctx, std::vector<pid_t>& left, std::set<pid_t>& helpers) {
  const std::vector<ProcEntry> table = ReapedTable(ctx);
  helpers = HelperTree(table, ctx.helpers);
  for (const ProcEntry* p : Beneath(table, getpid(), ctx.options.price_api.pid)) {
    if (Excluded(ctx, p->pid) || helpers.count(p->pid) != 0) continue;
    if (ctx.baseline.count(p->pid) == 0) left.push_back(p->pid);
  }
}

std::vector<pid_t> Descendants(const Context& ctx) {
  std::vector<pid_t> left;
  std::set<pid_t> helpers;
  SplitNew(ctx, left, helpers);
  return left;
}

// What the adapter's fd 0 names: "pipe:[N]" for the suite's protocol pipe.
std::string StdinOf(pid_t pid) {
  char target[256];
  const std::string link = "/proc/" + std::to_string(pid) + "/fd/0";
  const ssize_t n = readlink(link.c_str(), target, sizeof target - 1);
  return n > 0 ? std::string(target, static_cast<size_t>(n)) : "";
}

int CountMarked(const std::string& marker) {
  int n = 0;
  for (const ProcEntry& p : ProcessTable()) {
    if (p.state != 'Z' && p.cmdline.find(marker) != std::string::npos) ++n;
  }
  return n;
}

}  // namespace

MarkerWatch::MarkerWatch(std::string marker) : marker_(std::move(marker)) {
  thread_ = std::thread([this] {
    while (!stop_.load()) {
      most_.store(std::max(most_.load(), CountMarked(marker_)));
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
}

MarkerWatch::~MarkerWatch() { most_seen(); }

int MarkerWatch::most_seen() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
  return most_.load();
}

std::set<pid_t> CurrentDescendants(const Context& ctx) {
  std::set<pid_t> all;
  for (const ProcEntry* p : Beneath(ReapedTable(ctx), getpid(), ctx.options.price_api.pid)) {
    if (!Excluded(ctx, p->pid)) all.insert(p->pid);
  }
  return all;
}

std::set<ProcessKey> HelperRoots(const std::vector<ProcEntry>& table, pid_t self,
                                 const std::set<pid_t>& own, pid_t price_api,
                                 const std::string& protocol_stdin,
                                 const std::function<std::string(pid_t)>& stdin_of) {
  std::set<ProcessKey> roots;
  for (const ProcEntry* p : Beneath(table, self, price_api)) {
    if (own.count(p->pid) != 0) continue;
    if (!protocol_stdin.empty() && stdin_of(p->pid) == protocol_stdin) continue;
    roots.insert({p->pid, p->start});
  }
  return roots;
}

std::set<pid_t> HelperTree(const std::vector<ProcEntry>& table, const std::set<ProcessKey>& roots) {
  std::set<pid_t> tree;
  for (const ProcEntry& p : table) {
    if (p.state == 'Z' || roots.count({p.pid, p.start}) == 0) continue;
    tree.insert(p.pid);
    for (const ProcEntry* child : Beneath(table, p.pid, 0)) tree.insert(child->pid);
  }
  return tree;
}

void FindHelpers(Context& ctx) {
  std::string protocol_stdin;
  for (pid_t adapter : ctx.options.own_processes) protocol_stdin = StdinOf(adapter);
  ctx.helpers = HelperRoots(ReapedTable(ctx), getpid(), ctx.options.own_processes,
                            ctx.options.price_api.pid, protocol_stdin, StdinOf);
}

size_t HelperProcesses(const Context& ctx) { return HelperTree(ProcessTable(), ctx.helpers).size(); }


Observation Pass(std::string detail) { return {true, std::move(detail)}; }
Observation Fail(std::string detail) { return {false, std::move(detail)}; }
Observation NotApplicable(std::string why) { return {false, std::move(why), false}; }

std::string Describe(const Status& status) {
  return status.ok() ? "ok"
                     : std::string(OutcomeName(status.outcome())) + " (" +
                           std::string(status.reason()) + ")";
}

int MarkedProcessesAfter(const std::string& marker, std::chrono::milliseconds wait) {
  const Clock::time_point deadline = Clock::now() + wait;
  for (;;) {
    const int n = CountMarked(marker);
    if (n == 0 || Clock::now() >= deadline) return n;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

std::vector<pid_t> LeftoverDescendants(const Context& ctx, std::chrono::milliseconds wait) {
  const Clock::time_point deadline = Clock::now() + wait;
  for (;;) {
    std::vector<pid_t> found;
    std::set<pid_t> helpers;
    SplitNew(ctx, found, helpers);
    if (helpers.size() > ctx.helper_processes) {
      for (pid_t pid : helpers) {
        if (ctx.baseline.count(pid) == 0) found.push_back(pid);
      }
    }
    if (found.empty() || Clock::now() >= deadline) return found;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

void KillLeftovers(const Context& ctx) {
  for (pid_t pid : Descendants(ctx)) kill(pid, SIGKILL);
  for (const ProcEntry& p : ProcessTable()) {
    if (p.state != 'Z' && p.cmdline.find(ctx.run_id) != std::string::npos) kill(p.pid, SIGKILL);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ReapStrayZombies(ctx, ProcessTable());
}

sandbox::Spec SuiteSpec() { return PricingSandboxSpec("backend-suite"); }

StatusOr<std::unique_ptr<sandbox::Sandbox>> AcquireSandbox(Context& ctx,
                                                           const sandbox::Spec& spec) {
  return ctx.backend.Acquire(spec, {"backend-suite", ctx.run_id, ctx.Marker()});
}

StatusOr<sandbox::ExecResult> ExecIn(Context& ctx, sandbox::Sandbox& box,
                                     const std::vector<std::string>& args,
                                     const ExecOptions& options) {
  sandbox::BoundedExec* bounded = box.bounded_exec();
  if (bounded == nullptr) {
    return Status(Outcome::kRefused, kNoBoundedExec, "the backend offers no BoundedExec");
  }
  std::vector<std::string> argv = {sandbox::bwrap::kProbePath};
  argv.insert(argv.end(), args.begin(), args.end());
  const Clock::time_point start = Clock::now();
  StatusOr<sandbox::ExecResult> result =
      bounded->ExecBounded({.argv = std::move(argv),
                            .env = options.env,
                            .timeout_seconds = options.timeout_seconds,
                            .max_output_bytes = options.max_output_bytes});
  ctx.last_exec_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

std::optional<nlohmann::json> ProbeIn(Context& ctx, sandbox::Sandbox& box,
                                      const std::vector<std::string>& args, std::string* why,
                                      const ExecOptions& options) {
  return ProbeJson(ExecIn(ctx, box, args, options), why);
}

StatusOr<sandbox::ExecResult> RunInSandbox(Context& ctx, const std::vector<std::string>& args,
                                           const ExecOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<sandbox::Sandbox> box, AcquireSandbox(ctx, SuiteSpec()));
  StatusOr<sandbox::ExecResult> result = ExecIn(ctx, *box, args, options);
  RETURN_IF_ERROR(ctx.backend.Dispose(std::move(box)));
  return result;
}

std::optional<nlohmann::json> ProbeJson(const StatusOr<sandbox::ExecResult>& result,
                                        std::string* why) {
  if (!result.ok()) {
    *why = "the call failed: " + Describe(result.status());
    return std::nullopt;
  }
  nlohmann::json parsed = nlohmann::json::parse(result->stdout_bytes, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    *why = "the probe's output is not one JSON object (exit " +
           std::to_string(result->exit_code) + ", " + std::to_string(result->stdout_bytes.size()) +
           " bytes); is the probe in the image?";
    return std::nullopt;
  }
  return parsed;
}

std::optional<nlohmann::json> ProbeJson(Context& ctx, const std::vector<std::string>& args,
                                        std::string* why, const ExecOptions& options) {
  return ProbeJson(RunInSandbox(ctx, args, options), why);
}

}  // namespace internal

namespace {

using Group = std::vector<internal::ProbeDef> (*)();
// Protocol first: an adapter that misreads the protocol makes every later observation doubtful.
constexpr Group kGroups[] = {internal::ProtocolProbes, internal::ExecProbes,
                             internal::SandboxProbes, internal::IsolationProbes,
                             internal::EgressProbes};

// The probe program's output crosses the backend under test: a member of another type than the
// probe writes is that backend's doing, so it fails the probe and the run goes on to the next.
internal::Observation RunProbe(const internal::ProbeDef& p, internal::Context& ctx) {
  try {
    return p.run(ctx);
  } catch (const nlohmann::json::exception&) {
    return internal::Fail(
        "the probe's output has a member of another type than the probe writes; is the image's "
        "probe the suite's, and does the backend pass its output through unchanged?");
  }
}

std::string ProgressLine(const internal::Observation& seen, const internal::ProbeDef& p) {
  if (!seen.applicable) return "  n/a  " + p.info.id + ": " + seen.detail;
  return CheckLine(seen.passed, p.info.id,
                   seen.passed ? seen.detail
                               : "expected " + p.info.expected + "; got " + seen.detail);
}

}  // namespace

std::vector<ProbeInfo> BackendProbes() {
  std::vector<ProbeInfo> out;
  for (Group group : kGroups) {
    for (const internal::ProbeDef& p : group()) out.push_back(p.info);
  }
  return out;
}

void BecomeSubreaper() { prctl(PR_SET_CHILD_SUBREAPER, 1); }

std::vector<ProbeResult> RunBackendSuite(sandbox::Backend& backend, const SuiteOptions& options) {
  std::random_device random;
  internal::Context ctx{backend, options, "azpc-probe-" + std::to_string(random() % 1000000000)};
  if (Status redirected = backend.RedirectEgress(
          {"127.0.0.1", options.price_api.port, options.price_api.ca_pem});
      !redirected.ok() && options.progress) {
    options.progress("  note: the backend did not redirect its egress: " +
                     internal::Describe(redirected));
  }
  internal::FindHelpers(ctx);
  std::vector<ProbeResult> results;
  for (Group group : kGroups) {
    for (const internal::ProbeDef& p : group()) {
      if (!options.only.empty() && options.only.count(p.info.id) == 0) continue;
      ctx.baseline = internal::CurrentDescendants(ctx);
      ctx.helper_processes = internal::HelperProcesses(ctx);
      const internal::Observation seen = RunProbe(p, ctx);
      internal::KillLeftovers(ctx);
      results.push_back({.id = p.info.id,
                         .requirements = p.info.requirements,
                         .passed = seen.passed,
                         .applicable = seen.applicable,
                         .detail = seen.detail,
                         .expected = p.info.expected});
      if (options.progress) options.progress(ProgressLine(seen, p));
    }
  }
  return results;
}

}  // namespace azure_pricing::conformance::backend
