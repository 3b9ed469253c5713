#include "ref/sandbox/bwrap/bwrap_backend.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include "ref/base/files.h"
#include "ref/base/paths.h"
#include "ref/base/sanitizers.h"
#include "ref/egress/proxy.h"
#include "ref/sandbox/bwrap/state_tree.h"
#include "ref/sandbox/declaration_coverage.h"
#include "ref/status/status_macros.h"

namespace azure_pricing::sandbox::bwrap {
namespace {

// sockaddr_un's sun_path, less its terminating NUL.
constexpr size_t kMaxSocketPath = 107;

// Past this the tool's own budget has long expired; a bwrap that still runs is killed.
constexpr int64_t kMaxTimeoutSeconds = 3600;

Status CheckImage(const std::string& image) {
  for (const char* inside : {"/usr/local/bin/azmcp", kInitPath}) {
    if (access((image + inside).c_str(), X_OK) != 0) {
      return Status(
          Outcome::kFailed, kImageIncomplete,
          "the image lacks an executable azmcp or sandbox_init (see //tools:sandbox_image)");
    }
  }
  if (access((image + "/etc").c_str(), R_OK) != 0) {
    return Status(Outcome::kFailed, kImageIncomplete, "the image lacks /etc");
  }
  return OkStatus();
}

StatusOr<std::string> MakeStateDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/azure-pricing-bwrap-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    return Status(Outcome::kFailed, kStateDirFailed, "cannot create the backend's state directory");
  }
  return pattern;
}

}  // namespace

class BwrapBackend::BwrapSandbox : public Sandbox, public BoundedExec {
 public:
  BwrapSandbox(BwrapBackend* owner, bool egress, std::string state)
      : owner_(owner), egress_(egress), state_(std::move(state)) {}
  StatusOr<ExecResult> Exec(const ExecRequest& request) override { return ExecBounded(request); }
  StatusOr<ExecResult> ExecBounded(const ExecRequest& request) override {
    if (disposed_) {
      return Status(Outcome::kFailed, kSandboxDisposed, "the sandbox was disposed");
    }
    return owner_->Exec(request, *this);
  }
  BoundedExec* bounded_exec() override { return this; }
  Status WriteFile(const std::string&, const std::string&) override { return NoFiles(); }
  StatusOr<std::string> ReadFile(const std::string&) override { return NoFiles(); }

  BwrapBackend* owner() const { return owner_; }
  bool egress() const { return egress_; }
  const std::string& state() const { return state_; }
  void MarkDisposed() { disposed_.store(true); }

 private:
  static Status NoFiles() {
    return Status(Outcome::kRefused, kNoFileTransfer,
                  "the bubblewrap backend does not declare FILES_IN or FILES_OUT");
  }
  BwrapBackend* owner_;
  const bool egress_;        // false: the spec's egress is closed
  const std::string state_;  // the host directory holding the sandbox's tmp/ and home/
  std::atomic<bool> disposed_{false};
};

BwrapBackend::BwrapBackend(BwrapOptions options) : options_(std::move(options)) {
  declaration_.name = kBackendName;
  declaration_.os_families = {OsFamily::kPosix};
  declaration_.isolation = Isolation::kContainer;
  declaration_.capabilities = {Capability::kExec, Capability::kEgressMethods};
  declaration_.egress_modes = {Egress::kClosed, Egress::kAllowlist};
  declaration_.egress_method_tokens = std::set<std::string>{"GET"};
  declaration_.bounded_exec = true;
}

StatusOr<std::unique_ptr<BwrapBackend>> BwrapBackend::Create(BwrapOptions options) {
  if (options.bwrap_path.empty()) options.bwrap_path = base::FindOnPath("bwrap");
  if (options.bwrap_path.empty() || access(options.bwrap_path.c_str(), X_OK) != 0) {
    return Status(Outcome::kFailed, kBwrapNotFound,
                  "bubblewrap (bwrap) is not installed or not executable (Debian: bubblewrap)");
  }
  RETURN_IF_ERROR(CheckImage(options.image_dir));
  // An AddressSanitizer build's sandbox_init cannot start under any address-space limit; such a
  // build (tests only) runs without that one limit.
  if (base::kAddressSanitizerBuild) options.limits.address_space_bytes = 0;
  std::unique_ptr<BwrapBackend> backend(new BwrapBackend(std::move(options)));
  ASSIGN_OR_RETURN(std::string dir, MakeStateDir());
  backend->state_dir_ = dir;
  if (mkdir((dir + "/sandboxes").c_str(), 0700) != 0) {
    return Status(Outcome::kFailed, kStateDirFailed, "cannot create the sandboxes' directory");
  }
  backend->ca_file_ = dir + "/egress-ca.pem";
  backend->socket_path_ = dir + "/egress.sock";
  if (backend->socket_path_.size() >= kMaxSocketPath) {
    return Status(Outcome::kFailed, kStateDirFailed,
                  "TMPDIR is too long for a Unix socket path (108 bytes); set a shorter TMPDIR");
  }
  {
    std::lock_guard<std::mutex> lock(backend->egress_mu_);
    RETURN_IF_ERROR(backend->StartEgress());
  }
  RETURN_IF_ERROR(backend->SmokeTest());
  return backend;
}

// One empty sandbox before any caller's: a host where bubblewrap cannot create the namespaces
// (user namespaces disabled), bind a sandbox's state or the egress socket, or an image the
// loader cannot use fails here, by name, instead of every later call looking like the program's
// own exit 1.
Status BwrapBackend::SmokeTest() {
  Spec spec;
  spec.required = {Capability::kExec};
  spec.egress = Egress::kAllowlist;
  spec.egress_allow = {{kEgressAllowedHost, std::set<std::string>{"GET"}}};
  ASSIGN_OR_RETURN(std::unique_ptr<Sandbox> box, Acquire(spec, {"smoke-test", "", ""}));
  const StatusOr<ExecResult> ran = box->Exec(
      {.argv = {"/bin/true"}, .env = {}, .timeout_seconds = 30, .max_output_bytes = 1 << 16});
  const Status disposed = Dispose(std::move(box));
  if (!disposed.ok()) return disposed;
  if (!ran.ok() || ran->exit_code != 0) {
    return Status(Outcome::kFailed, kSandboxSetupFailed,
                  "bubblewrap could not create a sandbox here (are user namespaces enabled?)");
  }
  return OkStatus();
}

BwrapBackend::~BwrapBackend() {
  if (proxy_ != nullptr) proxy_->Stop();
  for (pid_t keeper : keepers_) {
    kill(keeper, SIGKILL);
    waitpid(keeper, nullptr, 0);
  }
  // Sandboxes still live lose their state with the rest.
  if (!state_dir_.empty()) (void)RemoveTree(state_dir_);
}

Status BwrapBackend::StartEgress() {
  const Status failed(Outcome::kFailed, kEgressProxyFailed, "the egress proxy could not start");
  if (proxy_ != nullptr) proxy_->Stop();
  proxy_.reset();
  egress::ProxyOptions proxy;
  proxy.listen_unix_path = socket_path_;
  proxy.allowed_host = kEgressAllowedHost;
  proxy.log = options_.egress_log;
  proxy.observe = options_.egress_observe;
  if (options_.upstream.has_value()) {
    proxy.upstream_host = options_.upstream->host;
    proxy.upstream_port = options_.upstream->port;
    proxy.upstream_ca_file = state_dir_ + "/upstream-ca.pem";
    if (!base::WriteFileAtomically(proxy.upstream_ca_file, options_.upstream->ca_pem).ok()) {
      return failed;
    }
  }
  auto started = std::make_unique<egress::EgressProxy>(std::move(proxy));
  if (weakenings_.weaken_proxy) weakenings_.weaken_proxy(*started);
  if (!started->Start().ok() ||
      !base::WriteFileAtomically(ca_file_, started->egress_ca_pem()).ok()) {
    return failed;
  }
  proxy_ = std::move(started);
  return OkStatus();
}

Status BwrapBackend::RedirectEgress(const EgressUpstream& upstream) {
  std::lock_guard<std::mutex> lock(egress_mu_);
  if (proxy_ != nullptr && options_.upstream.has_value() &&
      options_.upstream->host == upstream.host && options_.upstream->port == upstream.port &&
      options_.upstream->ca_pem == upstream.ca_pem) {
    return OkStatus();
  }
  // A sandbox running now would lose its egress mid-call when the proxy restarts.
  if (live_.load() != 0) {
    return Status(Outcome::kRefused, kEgressRedirectBusy,
                  "egress cannot be redirected while sandboxes are live");
  }
  const std::optional<EgressUpstream> previous = options_.upstream;
  options_.upstream = upstream;
  Status started = StartEgress();
  if (!started.ok()) {
    options_.upstream = previous;  // keep egress working as it was
    (void)StartEgress();
  }
  return started;
}

Status BwrapBackend::Serves(const Spec& spec) const {
  if (weakenings_.conversation_scope_refused &&
      spec.isolation_scope == IsolationScope::kConversation) {
    return Status(Outcome::kRefused, kSpecNotServed,
                  "The backend serves call-scoped sandboxes only.");
  }
  if (weakenings_.overclaim) return OkStatus();
  RETURN_IF_ERROR(ServesSpec(declaration_, spec));
  // The declaration cannot say which hosts: the proxy lets exactly one through.
  for (const EgressRule& rule : spec.egress_allow) {
    if (rule.host != kEgressAllowedHost) {
      return Status(Outcome::kRefused, kSpecNotServed,
                    "The backend's egress proxy lets through prices.azure.com only.");
    }
  }
  return OkStatus();
}

StatusOr<std::string> BwrapBackend::MakeSandboxState() {
  const std::string root = state_dir_ + "/sandboxes/";
  if (weakenings_.sandboxes_share_state) {
    const std::string shared = root + "shared";
    if (shared_state_users_ == 0) {
      RETURN_IF_ERROR(MakeStateTree(shared));
    }
    ++shared_state_users_;
    return shared;
  }
  // Numbered, never reused while the backend lives: two live sandboxes never share one.
  const std::string dir = root + std::to_string(next_sandbox_++);
  RETURN_IF_ERROR(MakeStateTree(dir));
  return dir;
}

Status BwrapBackend::ReleaseSandboxState(const std::string& dir) {
  {
    std::lock_guard<std::mutex> lock(egress_mu_);
    --live_;
    if (weakenings_.state_left_at_dispose) return OkStatus();
    if (weakenings_.sandboxes_share_state) {
      // The last one out empties it, so calls one after another still look isolated.
      return --shared_state_users_ > 0 ? OkStatus() : RemoveTree(dir);
    }
  }
  return RemoveTree(dir);
}

StatusOr<std::unique_ptr<Sandbox>> BwrapBackend::Acquire(const Spec& spec,
                                                         const SandboxKey& /*key*/) {
  // A spec beyond what the backend declared is refused before anything exists.
  RETURN_IF_ERROR(Serves(spec));
  // Under the lock RedirectEgress holds: no sandbox becomes live while the proxy restarts.
  std::lock_guard<std::mutex> lock(egress_mu_);
  ASSIGN_OR_RETURN(std::string state, MakeSandboxState());
  auto sandbox = std::make_unique<BwrapSandbox>(this, spec.egress != Egress::kClosed, state);
  if (weakenings_.dispose_leaves_process) {
    const pid_t keeper = fork();
    if (keeper == 0) {
      execl("/bin/sleep", "sleep", "3600", static_cast<char*>(nullptr));
      _exit(127);
    }
    keepers_.insert(keeper);
  }
  ++live_;
  return std::unique_ptr<Sandbox>(std::move(sandbox));
}

Status BwrapBackend::Dispose(std::unique_ptr<Sandbox> sandbox) {
  auto* own = dynamic_cast<BwrapSandbox*>(sandbox.get());
  if (own == nullptr || own->owner() != this) {
    return Status(Outcome::kFailed, kForeignSandbox, "the sandbox was not acquired here");
  }
  own->MarkDisposed();
  // Nothing runs between execs (each has its own PID namespace), so only the state is left.
  return ReleaseSandboxState(own->state());
}

bool BwrapBackend::StateWithinLimit(const std::string& dir) {
  if (options_.state_bytes == 0 || TreeBytes(dir) <= options_.state_bytes) return true;
  (void)EmptyTree(dir + "/tmp");
  (void)EmptyTree(dir + "/home");
  return false;
}

StatusOr<ExecResult> BwrapBackend::Exec(const ExecRequest& request, const BwrapSandbox& sandbox) {
  // No time to run in: nothing is started (a weakened backend reads 0 as "no limit").
  if (request.timeout_seconds <= 0 && !weakenings_.timeout_zero_unbounded) {
    return Status(Outcome::kFailed, kExecTimeoutReason, "the sandboxed program timed out");
  }
  const bool egress = sandbox.egress() || weakenings_.closed_egress_open;
  if (egress) {
    // A redirect that failed twice left no proxy: say so rather than let bubblewrap fail to
    // bind a missing socket and look like the program's exit 1.
    std::lock_guard<std::mutex> lock(egress_mu_);
    if (proxy_ == nullptr) {
      return Status(Outcome::kFailed, kEgressProxyFailed, "the egress proxy is not running");
    }
  }
  const bool fresh = weakenings_.fresh_state_per_exec;
  CommandLineInputs inputs{.bwrap_path = options_.bwrap_path,
                           .image_dir = options_.image_dir,
                           .egress = egress,
                           .egress_socket = socket_path_,
                           .egress_ca_file = ca_file_,
                           .tmp_dir = fresh ? "" : sandbox.state() + "/tmp",
                           .home_dir = fresh ? "" : sandbox.state() + "/home",
                           .tmpfs_bytes = options_.state_bytes,
                           .weakenings = weakenings_.isolation};
  ASSIGN_OR_RETURN(std::vector<std::string> argv, BwrapCommandLine(inputs, request));
  const int64_t seconds = request.timeout_seconds <= 0
                              ? kMaxTimeoutSeconds
                              : std::min(request.timeout_seconds, kMaxTimeoutSeconds);
  BoundedRun run{.argv = std::move(argv),
                 .env = {"PATH=/usr/bin:/bin"},
                 .timeout_ms = seconds * 1000,
                 .max_output_bytes = request.max_output_bytes,
                 .limits = options_.limits,
                 .weakenings = weakenings_.bounded};
  if (weakenings_.zero_budget_unbounded && run.max_output_bytes == 0) {
    run.max_output_bytes = int64_t{1} << 40;  // the slip: 0 read as "unset"
  }
  StatusOr<ExecResult> result = RunBounded(run);
  if (weakenings_.missing_program_succeeds && result.ok() && result->exit_code == 127) {
    result->exit_code = 0;  // the slip: a wrapper that swallows the exec failure
  }
  if (!StateWithinLimit(sandbox.state()) && result.ok()) {
    return Status(Outcome::kFailed, kStateLimit,
                  "the sandbox's /tmp and HOME outgrew their limit and were emptied");
  }
  return result;
}

}  // namespace azure_pricing::sandbox::bwrap
