// The bubblewrap backend: a real, local sandbox backend. Every exec runs in fresh mount, PID,
// IPC, UTS, network and (where the kernel allows) user namespaces, on a read-only root made of
// the host's /usr and an image's /usr/local and /etc, with no network device but loopback. Each
// sandbox owns a host directory, bound at /tmp and HOME, that its execs share and dispose
// removes. Its only way out, for a spec with allowlist egress, is the GET-only egress proxy
// (ref/egress) the backend runs for its lifetime on a Unix socket bind-mounted into the sandbox;
// sandbox_init (in the image) relays HTTPS_PROXY's loopback port to it. A spec beyond the
// declaration is refused at Acquire. See README.md in this directory.
//
//   bwrap::BwrapOptions options;
//   options.image_dir = "/var/lib/azure-pricing/image";  // from //tools:sandbox_image
//   StatusOr<std::unique_ptr<bwrap::BwrapBackend>> backend = bwrap::BwrapBackend::Create(options);
//   sandbox::Router router(/*floor=*/sandbox::Isolation::kContainer);  // on purpose
#ifndef REF_SANDBOX_BWRAP_BWRAP_BACKEND_H_
#define REF_SANDBOX_BWRAP_BWRAP_BACKEND_H_

#include <sys/types.h>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "ref/sandbox/backend.h"
#include "ref/sandbox/bwrap/bounded_process.h"
#include "ref/sandbox/bwrap/command_line.h"

namespace azure_pricing::egress {
class EgressProxy;
struct ForwardedExchange;
}  // namespace azure_pricing::egress

namespace azure_pricing::sandbox::bwrap {

// Reasons (Outcome::kFailed unless noted) the backend cannot be created or used.
inline constexpr Reason kBwrapNotFound = "bwrap_not_found";
inline constexpr Reason kImageIncomplete = "image_incomplete";
inline constexpr Reason kStateDirFailed = "state_dir_failed";
inline constexpr Reason kEgressProxyFailed = "egress_proxy_failed";
inline constexpr Reason kSandboxDisposed = "sandbox_disposed";
inline constexpr Reason kForeignSandbox = "foreign_sandbox";
inline constexpr Reason kNoFileTransfer = "no_file_transfer";          // Outcome::kRefused
inline constexpr Reason kEgressRedirectBusy = "egress_redirect_busy";  // Outcome::kRefused
inline constexpr Reason kSandboxSetupFailed = "sandbox_setup_failed";
// After an exec, the sandbox's /tmp and HOME held more than BwrapOptions::state_bytes: they are
// emptied and the exec fails (an exec that failed otherwise keeps its own reason).
inline constexpr Reason kStateLimit = "state_limit";

inline constexpr char kBackendName[] = "bubblewrap";
// The one host the egress proxy lets through; an allowlist rule for any other is refused.
inline constexpr char kEgressAllowedHost[] = "prices.azure.com";

struct BwrapOptions {
  std::string bwrap_path;  // empty: the first `bwrap` on PATH
  std::string image_dir;   // required; see //tools:sandbox_image
  // The allowed host's traffic goes here instead of the host itself (tests, conformance runs).
  std::optional<EgressUpstream> upstream;
  // 16 GiB of address space, not less on purpose: the real azmcp's .NET runtime sizes its
  // reservations to whatever RLIMIT_AS allows and aborts with "Out of memory." on stderr when
  // what it maps later (thread stacks, malloc arenas) does not fit in the rest. Under 4 GiB the
  // rest was 18 to 44 MiB and lookups failed at random under load; under 16 GiB the CLI peaks at
  // 9.3 GiB. Reservations are not memory: its resident peak in the paging lookup is ~120 MiB.
  ResourceLimits limits = {
      .address_space_bytes = 16ULL << 30, .file_size_bytes = 256ULL << 20, .open_files = 1024};
  // What one sandbox's /tmp and HOME may hold between execs, checked after each exec (0: no
  // limit). A host directory cannot be size-limited without privileges, so within one exec only
  // its time and the file-size limit bound what it writes (README.md).
  uint64_t state_bytes = 512ULL << 20;
  std::function<void(const std::string&)> egress_log;  // the proxy's decisions; stderr if unset
  // Each request the proxy forwarded and its response (egress::ProxyOptions::observe); a
  // recorder's hook. Unset: the proxy keeps no copy.
  std::function<void(const egress::ForwardedExchange&)> egress_observe;
};

// Defined only by the conformance suite's mutants (conformance/backend/broken_backends).
class BackendMutator;

class BwrapBackend : public Backend {
 public:
  static StatusOr<std::unique_ptr<BwrapBackend>> Create(BwrapOptions options);
  ~BwrapBackend() override;

  const BackendDeclaration& declaration() const override { return declaration_; }
  StatusOr<std::unique_ptr<Sandbox>> Acquire(const Spec& spec, const SandboxKey& key) override;
  Status Dispose(std::unique_ptr<Sandbox> sandbox) override;
  Status RedirectEgress(const EgressUpstream& upstream) override;

  // Sandboxes acquired and not yet disposed.
  int live_sandboxes() const { return live_.load(); }
  const std::string& state_dir() const { return state_dir_; }

 private:
  friend class BackendMutator;
  class BwrapSandbox;
  struct Weakenings {
    BoundedWeakenings bounded;
    IsolationWeakenings isolation;
    bool dispose_leaves_process = false;  // a per-sandbox keeper process outlives dispose
    std::function<void(egress::EgressProxy&)> weaken_proxy;  // before it starts
    bool overclaim = false;  // Acquire skips the declaration check and serves whatever is asked
    bool closed_egress_open = false;    // a closed sandbox still gets the proxy and its variables
    bool fresh_state_per_exec = false;  // every exec gets a fresh tmpfs /tmp and HOME
    // All live sandboxes bind one state directory, emptied when the last one is disposed.
    bool sandboxes_share_state = false;
    bool conversation_scope_refused = false;  // only call-scoped specs are served
    bool timeout_zero_unbounded = false;      // a timeout of 0 means no timeout at all
    bool state_left_at_dispose = false;       // dispose forgets the sandbox's files on the host
    bool zero_budget_unbounded = false;       // a max_output_bytes of 0 means no limit at all
    bool missing_program_succeeds = false;    // exit 127 (no such program) comes back as 0
  };

  explicit BwrapBackend(BwrapOptions options);
  Status StartEgress();  // (re)starts the proxy for options_.upstream; egress_mu_ held
  Status SmokeTest();
  Status Serves(const Spec& spec) const;
  // A new sandbox's state directory (tmp/ and home/ in it); egress_mu_ held.
  StatusOr<std::string> MakeSandboxState();
  Status ReleaseSandboxState(const std::string& dir);
  StatusOr<ExecResult> Exec(const ExecRequest& request, const BwrapSandbox& sandbox);
  // Empties a sandbox's state that grew past options_.state_bytes; false when it had.
  bool StateWithinLimit(const std::string& dir);

  BwrapOptions options_;
  BackendDeclaration declaration_;
  Weakenings weakenings_;
  std::string state_dir_;
  std::string ca_file_;
  std::string socket_path_;
  // Guards proxy_, live_ changes and keepers_: a redirect restarts the proxy only while no
  // sandbox is live, and no sandbox becomes live during one.
  std::mutex egress_mu_;
  std::unique_ptr<egress::EgressProxy> proxy_;
  std::atomic<int> live_{0};
  int next_sandbox_ = 1;        // names state directories; egress_mu_ held
  int shared_state_users_ = 0;  // sandboxes_share_state only; egress_mu_ held
  std::set<pid_t> keepers_;     // mutant only
};

}  // namespace azure_pricing::sandbox::bwrap

#endif  // REF_SANDBOX_BWRAP_BWRAP_BACKEND_H_
