// The sandbox as a thing that lives between acquire and dispose: what it refuses to be (a spec
// beyond the declaration), every scope and cleanup it must serve, state kept across its execs and
// never shared with another live sandbox, IPC, and the exec edge cases PROTOCOL.md defines.
#include <fcntl.h>
#include <mqueue.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <unistd.h>

#include <chrono>
#include <random>
#include <string>

#include "conformance/backend/suite_internal.h"

namespace azure_pricing::conformance::backend::internal {
namespace {

using std::chrono::milliseconds;
using Json = nlohmann::json;

const char* CleanupName(sandbox::Cleanup c) {
  return c == sandbox::Cleanup::kReclaim ? "reclaim"
         : c == sandbox::Cleanup::kReset ? "reset"
                                         : "dispose";
}

struct Variant {
  std::string what;  // "os_family windows"
  sandbox::Spec spec;
};

// Specs beyond the declaration, one dimension each; a backend that declares everything has none.
std::vector<Variant> UndeclaredSpecs(const sandbox::BackendDeclaration& d) {
  std::vector<Variant> out;
  const sandbox::Spec base = SuiteSpec();
  if (d.os_families.count(sandbox::OsFamily::kWindows) == 0) {
    sandbox::Spec s = base;
    s.os_family = sandbox::OsFamily::kWindows;
    out.push_back({"os_family windows", s});
  }
  if (d.isolation < sandbox::Isolation::kVm) {
    sandbox::Spec s = base;
    s.min_isolation = sandbox::Isolation::kVm;
    out.push_back({"min_isolation vm", s});
  }
  for (sandbox::Capability c : {sandbox::Capability::kSnapshot, sandbox::Capability::kFilesOut,
                                sandbox::Capability::kAttachedIdentity}) {
    if (d.capabilities.count(c) != 0) continue;
    sandbox::Spec s = base;
    s.required.insert(c);
    out.push_back({"requires " + std::string(sandbox::Name(c)), s});
    break;
  }
  if (d.egress_modes.count(sandbox::Egress::kUnrestricted) == 0) {
    sandbox::Spec s = base;
    s.egress = sandbox::Egress::kUnrestricted;
    s.egress_allow.clear();
    out.push_back({"egress unrestricted", s});
  }
  if (d.egress_method_tokens.has_value() && d.egress_method_tokens->count("POST") == 0) {
    sandbox::Spec s = base;
    s.egress_allow = {{"prices.azure.com", std::set<std::string>{"GET", "POST"}}};
    out.push_back({"an egress rule allowing POST", s});
  }
  if (d.capabilities.count(sandbox::Capability::kReclaim) == 0) {
    sandbox::Spec s = base;
    s.cleanup = sandbox::Cleanup::kReclaim;
    out.push_back({"cleanup reclaim without RECLAIM", s});
  }
  return out;
}

Observation UndeclaredRefused(Context& ctx) {
  const std::vector<Variant> variants = UndeclaredSpecs(ctx.backend.declaration());
  if (variants.empty()) return NotApplicable("the backend declares every dimension the tool uses");
  for (const Variant& v : variants) {
    StatusOr<std::unique_ptr<sandbox::Sandbox>> box = AcquireSandbox(ctx, v.spec);
    if (box.ok()) {
      (void)ctx.backend.Dispose(std::move(*box));
      return Fail("a spec with " + v.what + " (not declared) was served");
    }
    if (box.status().outcome() != Outcome::kRefused) {
      return Fail("a spec with " + v.what + " ended " + Describe(box.status()) + ", not refused");
    }
    if (const std::vector<pid_t> left = LeftoverDescendants(ctx, milliseconds(500));
        !left.empty()) {
      return Fail("refusing a spec with " + v.what + " left a process running");
    }
  }
  return Pass(std::to_string(variants.size()) +
              " specs beyond the declaration refused, nothing started");
}

// Specs that are invalid whatever the declaration (PROTOCOL.md: sandbox_invalid_spec).
Observation InvalidRefused(Context& ctx) {
  std::vector<Variant> variants;
  sandbox::Spec no_rules = SuiteSpec();
  no_rules.egress_allow.clear();
  variants.push_back({"an allowlist without rules", no_rules});
  sandbox::Spec closed_with_rule = SuiteSpec();
  closed_with_rule.egress = sandbox::Egress::kClosed;
  variants.push_back({"a rule under closed egress", closed_with_rule});
  sandbox::Spec upper = SuiteSpec();
  upper.egress_allow = {{"Prices.Azure.com", std::set<std::string>{"GET"}}};
  variants.push_back({"a rule host that is not lower case", upper});
  for (const Variant& v : variants) {
    StatusOr<std::unique_ptr<sandbox::Sandbox>> box = AcquireSandbox(ctx, v.spec);
    if (box.ok()) {
      (void)ctx.backend.Dispose(std::move(*box));
      return Fail("a spec with " + v.what + " was served");
    }
    if (box.status().outcome() != Outcome::kRefused) {
      return Fail("a spec with " + v.what + " ended " + Describe(box.status()) + ", not refused");
    }
  }
  return Pass("3 invalid specs refused");
}

Observation ScopesAndCleanup(Context& ctx) {
  std::vector<sandbox::Cleanup> cleanups = {sandbox::Cleanup::kDispose, sandbox::Cleanup::kReset};
  if (ctx.backend.declaration().capabilities.count(sandbox::Capability::kReclaim) != 0) {
    cleanups.push_back(sandbox::Cleanup::kReclaim);
  }
  int served = 0;
  for (sandbox::IsolationScope scope :
       {sandbox::IsolationScope::kCall, sandbox::IsolationScope::kConversation}) {
    for (sandbox::Cleanup cleanup : cleanups) {
      sandbox::Spec spec = SuiteSpec();
      spec.isolation_scope = scope;
      spec.cleanup = cleanup;
      const std::string what = "isolation_scope " + std::string(sandbox::Name(scope)) +
                               " with cleanup " + CleanupName(cleanup);
      StatusOr<std::unique_ptr<sandbox::Sandbox>> box = AcquireSandbox(ctx, spec);
      if (!box.ok()) return Fail("a spec with " + what + " was " + Describe(box.status()));
      std::string why;
      const std::optional<Json> cwd = ProbeIn(ctx, **box, {"cwd"}, &why);
      const Status disposed = ctx.backend.Dispose(std::move(*box));
      if (!cwd) return Fail("in a sandbox with " + what + ": " + why);
      if (!disposed.ok()) return Fail("dispose with " + what + ": " + Describe(disposed));
      ++served;
    }
  }
  return Pass(std::to_string(served) + " scope and cleanup combinations served");
}

Observation SecondExec(Context& ctx) {
  const std::string tmp_file = "/tmp/" + ctx.Marker();
  const std::string home_file = "/tmp/probe-home/" + ctx.Marker();
  StatusOr<std::unique_ptr<sandbox::Sandbox>> box = AcquireSandbox(ctx, SuiteSpec());
  if (!box.ok()) return Fail("acquire: " + Describe(box.status()));
  std::string why;
  std::optional<Json> first = ProbeIn(ctx, **box, {"write-file", tmp_file, "kept"}, &why);
  if (first) first = ProbeIn(ctx, **box, {"write-file", home_file, "kept"}, &why);
  const std::optional<Json> second =
      first ? ProbeIn(ctx, **box, {"read-file", tmp_file}, &why) : std::nullopt;
  const std::optional<Json> third =
      second ? ProbeIn(ctx, **box, {"read-file", home_file}, &why) : std::nullopt;
  (void)ctx.backend.Dispose(std::move(*box));
  if (!first || !second || !third) return Fail(why);
  for (const Json* read : {&*second, &*third}) {
    if (read->value("content", "") != "kept") {
      return Fail("a second exec in the same sandbox does not see the first exec's files in "
                  "/tmp and HOME");
    }
  }
  return Pass("a second and third exec read what the first wrote in /tmp and HOME");
}


// Two sandboxes alive at once: what one makes (a file, a process, a listening port) the other
// must not see.
struct LivePair {
  std::unique_ptr<sandbox::Sandbox> a, b;
  Status status;
};

LivePair AcquirePair(Context& ctx) {
  LivePair out;
  StatusOr<std::unique_ptr<sandbox::Sandbox>> a = AcquireSandbox(ctx, SuiteSpec());
  if (!a.ok()) return {nullptr, nullptr, a.status()};
  StatusOr<std::unique_ptr<sandbox::Sandbox>> b = AcquireSandbox(ctx, SuiteSpec());
  if (!b.ok()) {
    (void)ctx.backend.Dispose(std::move(*a));
    return {nullptr, nullptr, b.status()};
  }
  return {std::move(*a), std::move(*b), OkStatus()};
}

void DisposePair(Context& ctx, LivePair& pair) {
  if (pair.a) (void)ctx.backend.Dispose(std::move(pair.a));
  if (pair.b) (void)ctx.backend.Dispose(std::move(pair.b));
}

// What sandbox b sees of a's file, process and port; empty when nothing.
std::string SeenFromOther(Context& ctx, LivePair& pair, const std::string& file,
                          const std::string& marker, const std::string& port, std::string* why) {
  const std::optional<Json> files = ProbeIn(ctx, *pair.b, {"stat", file}, why);
  if (!files) return "";
  if (files->value("paths", Json::object()).value(file, false)) return "the other's " + file;
  const std::optional<Json> procs = ProbeIn(ctx, *pair.b, {"procs"}, why);
  if (!procs) return "";
  for (const Json& p : procs->value("procs", Json::array())) {
    const std::string cmd = p.is_object() ? p.value("cmdline", "") : "";
    if (cmd.find(marker) != std::string::npos) return "the other's process";
  }
  const std::optional<Json> dial = ProbeIn(ctx, *pair.b, {"connect", "127.0.0.1", port, "2000"}, why);
  if (!dial) return "";
  if (dial->value("connected", false)) return "the other's listening port " + port;
  return "";
}

Observation ConcurrentSandboxes(Context& ctx) {
  LivePair pair = AcquirePair(ctx);
  if (!pair.status.ok()) return Fail("two sandboxes at once: " + Describe(pair.status));
  const std::string file = "/tmp/" + ctx.Marker();
  const std::string marker = ctx.Marker();
  const std::string port = std::to_string(20000 + std::random_device()() % 20000);
  std::string why;
  std::optional<Json> made = ProbeIn(ctx, *pair.a, {"write-file", file, "mine"}, &why);
  if (made) made = ProbeIn(ctx, *pair.a, {"daemon", marker, "30"}, &why);
  if (made) made = ProbeIn(ctx, *pair.a, {"listen", marker + "-listen", port, "30"}, &why);
  std::string seen = made ? SeenFromOther(ctx, pair, file, marker, port, &why) : "";
  const std::optional<Json> own =
      made && seen.empty() ? ProbeIn(ctx, *pair.a, {"stat", file}, &why) : std::nullopt;
  DisposePair(ctx, pair);
  if (!made || (seen.empty() && !own)) return Fail(why);
  if (!seen.empty()) return Fail("one live sandbox sees " + seen);
  if (!own->value("paths", Json::object()).value(file, false)) {
    return Fail("the sandbox that wrote " + file + " cannot see it itself");
  }
  return Pass("two live sandboxes: neither sees the other's file, process or port");
}

// An IPC key and POSIX queue name unique to this run.
struct IpcNames {
  int key;
  std::string queue;
};

IpcNames NewIpcNames(Context& ctx) {
  return {static_cast<int>(1 + std::random_device()() % 2000000000), ctx.Marker() + "-mq"};
}

// SysV shared memory, a message queue, a semaphore set and a POSIX queue on the host; removed
// on destruction.
class HostIpc {
 public:
  explicit HostIpc(IpcNames names) : names_(std::move(names)) {
    shm_ = shmget(names_.key, 4096, IPC_CREAT | 0666);
    msg_ = msgget(names_.key, IPC_CREAT | 0666);
    sem_ = semget(names_.key, 1, IPC_CREAT | 0666);
    const mqd_t q = mq_open(("/" + names_.queue).c_str(), O_CREAT | O_RDONLY, 0666, nullptr);
    mq_ = q != static_cast<mqd_t>(-1);
    if (mq_) mq_close(q);
  }
  ~HostIpc() { Remove(names_); }
  bool made() const { return shm_ >= 0 && msg_ >= 0 && sem_ >= 0 && mq_; }
  // Whatever of `names` exists on the host, removed (a sandbox sharing the host's IPC leaves it).
  static void Remove(const IpcNames& names) {
    if (const int id = shmget(names.key, 0, 0); id >= 0) shmctl(id, IPC_RMID, nullptr);
    if (const int id = msgget(names.key, 0); id >= 0) msgctl(id, IPC_RMID, nullptr);
    if (const int id = semget(names.key, 0, 0); id >= 0) semctl(id, 0, IPC_RMID);
    mq_unlink(("/" + names.queue).c_str());
  }
  static bool AnyOnHost(const IpcNames& names) {
    const mqd_t q = mq_open(("/" + names.queue).c_str(), O_RDONLY);
    if (q != static_cast<mqd_t>(-1)) mq_close(q);
    return shmget(names.key, 0, 0) >= 0 || msgget(names.key, 0) >= 0 ||
           semget(names.key, 0, 0) >= 0 || q != static_cast<mqd_t>(-1);
  }

 private:
  IpcNames names_;
  int shm_ = -1, msg_ = -1, sem_ = -1;
  bool mq_ = false;
};

// The kinds of IPC object `look` (an ipc-look answer) found, or empty.
std::string FoundIpc(const Json& look) {
  std::string found;
  for (const char* kind : {"sysv_shm", "sysv_msg", "sysv_sem", "posix_mq"}) {
    if (look.value(kind, false)) found += std::string(found.empty() ? "" : ", ") + kind;
  }
  return found;
}

Observation IpcIsolated(Context& ctx) {
  const IpcNames host_names = NewIpcNames(ctx);
  HostIpc host(host_names);
  if (!host.made()) return Fail("the suite could not create IPC objects on the host");
  std::string why;
  const std::optional<Json> from_host = ProbeJson(
      ctx, {"ipc-look", std::to_string(host_names.key), host_names.queue}, &why);
  if (!from_host) return Fail(why);
  if (const std::string found = FoundIpc(*from_host); !found.empty()) {
    return Fail("the host's " + found + " visible in the sandbox");
  }
  const IpcNames made = NewIpcNames(ctx);
  LivePair pair = AcquirePair(ctx);
  if (!pair.status.ok()) return Fail("two sandboxes at once: " + Describe(pair.status));
  std::optional<Json> created =
      ProbeIn(ctx, *pair.a, {"ipc-create", std::to_string(made.key), made.queue}, &why);
  const std::optional<Json> other =
      created ? ProbeIn(ctx, *pair.b, {"ipc-look", std::to_string(made.key), made.queue}, &why)
              : std::nullopt;
  const bool leaked = HostIpc::AnyOnHost(made);
  DisposePair(ctx, pair);
  HostIpc::Remove(made);
  if (!other) return Fail(why);
  if (FoundIpc(*created).empty()) return Fail("the sandbox could not create any IPC object");
  if (const std::string found = FoundIpc(*other); !found.empty()) {
    return Fail("one sandbox's " + found + " visible in another live sandbox");
  }
  if (leaked) return Fail("IPC objects made in a sandbox appeared on the host");
  return Pass("System V IPC and POSIX queues are shared neither with the host nor between "
              "sandboxes");
}

Observation NoPathUnlessAsked(Context& ctx) {
  ExecOptions options;
  options.env = {"HOME=/tmp/probe-home", "LANG=C.UTF-8"};
  std::string why;
  const std::optional<Json> out = ProbeJson(ctx, {"env"}, &why, options);
  if (!out) return Fail(why);
  for (const Json& e : out->value("env", Json::array())) {
    const std::string entry = e.is_string() ? e.get<std::string>() : "";
    if (entry.rfind("PATH=", 0) == 0) return Fail("PATH was set though the request had none");
  }
  return Pass("a request without PATH gets no PATH");
}

Observation TimeoutZero(Context& ctx) {
  const StatusOr<sandbox::ExecResult> r =
      RunInSandbox(ctx, {"exit", "0"}, {.timeout_seconds = 0});
  if (r.ok()) return Fail("timeout_seconds 0 ran the program to its end (exit " +
                          std::to_string(r->exit_code) + ")");
  if (r.status().reason() != sandbox::kExecTimeoutReason) {
    return Fail("failed as " + Describe(r.status()) + ", not timeout");
  }
  return Pass("timeout_seconds 0 failed as timeout");
}

Observation SignalExitCode(Context& ctx) {
  for (int signal : {9, 15}) {
    const StatusOr<sandbox::ExecResult> r = RunInSandbox(ctx, {"signal", std::to_string(signal)});
    if (!r.ok()) return Fail("signal " + std::to_string(signal) + ": " + Describe(r.status()));
    if (r->exit_code != 128 + signal) {
      return Fail("a program killed by signal " + std::to_string(signal) + " reported exit code " +
                  std::to_string(r->exit_code));
    }
  }
  return Pass("killed by signal 9 and 15: exit codes 137 and 143");
}

}  // namespace

std::vector<ProbeDef> SandboxProbes() {
  return {
      {{"spec.undeclared", {"HOST-006", "HOST-008"},
        "a spec beyond the declaration (OS, isolation, capability, egress mode, method, cleanup) "
        "is refused and starts nothing"},
       UndeclaredRefused},
      {{"spec.invalid", {"HOST-006", "HOST-008"},
        "an invalid spec (an allowlist without rules, a rule under closed egress, a host not in "
        "lower case) is refused"},
       InvalidRefused},
      {{"spec.scopes_and_cleanup", {"HOST-006", "INTRO-007"},
        "both isolation scopes with every declared cleanup are served and disposed"},
       ScopesAndCleanup},
      {{"exec.second_exec", {"HOST-006"},
        "a second exec in the same sandbox sees the files the first wrote"},
       SecondExec},
      {{"isolation.concurrent_sandboxes", {"HOST-006"},
        "two live sandboxes see neither each other's files, processes nor listening ports"},
       ConcurrentSandboxes},
      {{"isolation.ipc", {"HOST-006"},
        "System V IPC and POSIX message queues are shared neither with the host nor between "
        "sandboxes"},
       IpcIsolated},
      {{"exec.no_path", {"HOST-012", "INTRO-010"},
        "a request whose env has no PATH gets no PATH (the environment is exactly the request's)"},
       NoPathUnlessAsked},
      {{"exec.timeout_zero", {"BOUND-004"}, "timeout_seconds 0 fails the exec as timeout"},
       TimeoutZero},
      {{"exec.signal_exit_code", {"HOST-006"},
        "a program killed by signal N reports exit code 128+N"},
       SignalExitCode},
  };
}

}  // namespace azure_pricing::conformance::backend::internal
