// What a sandbox backend declares and offers: acquire a sandbox for a spec, execute in it,
// dispose it. BoundedExec is optional in the protocol; tools that need their time and output
// budgets enforced by the backend (azure_pricing_get does) refuse backends without it.
#ifndef REF_SANDBOX_BACKEND_H_
#define REF_SANDBOX_BACKEND_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ref/sandbox/spec.h"
#include "ref/status/status.h"

namespace azure_pricing::sandbox {

struct ExecResult {
  std::string stdout_bytes;
  std::string stderr_bytes;
  int exit_code = 0;
};

// The environment contract: `env` is everything the tool passes, and the program sees exactly
// that plus what the backend adds for egress (HTTPS_PROXY and SSL_CERT_FILE, the egress proxy's
// address and its per-run CA). The tool's own environment holds neither, so a backend without
// an egress proxy gives the CLI no way out; nothing of the host's environment, credentials or
// files reaches the program. The program starts in HOME when the request sets it, and HOME is
// writable and private to the sandbox (kept across its execs, gone at dispose). (conformance/backend's probes check each of these.)
struct ExecRequest {
  std::vector<std::string> argv;  // argv[0] is the program; never a shell command line
  std::vector<std::string> env;   // NAME=value, what the tool passes (see above)
  int64_t timeout_seconds = 60;
  int64_t max_output_bytes = 8 * 1024 * 1024;  // stdout and stderr together
};

// Reasons a bounded exec fails. Neither carries a partial result: the child tree was killed.
inline constexpr Reason kExecTimeoutReason = "timeout";
inline constexpr Reason kExecOutputLimitReason = "output_limit";

// The budget is enforced while reading: past max_output_bytes the child tree is killed and
// reaped and the call fails with kExecOutputLimitReason; past the timeout likewise with
// kExecTimeoutReason. Any other failure of the backend is its own reason.
class BoundedExec {
 public:
  virtual ~BoundedExec() = default;
  virtual StatusOr<ExecResult> ExecBounded(const ExecRequest& request) = 0;
};

class Sandbox {
 public:
  virtual ~Sandbox() = default;
  // Plain exec: the backend's own limits only.
  virtual StatusOr<ExecResult> Exec(const ExecRequest& request) = 0;
  // The optional bounded surface; nullptr when the backend does not offer it.
  virtual BoundedExec* bounded_exec() { return nullptr; }
  // File transfer needs FILES_IN / FILES_OUT; a spec without them never calls these.
  virtual Status WriteFile(const std::string& path, const std::string& bytes) = 0;
  virtual StatusOr<std::string> ReadFile(const std::string& path) = 0;
};

struct BackendDeclaration {
  std::string name;
  std::set<OsFamily> os_families = {OsFamily::kPosix};
  Isolation isolation = Isolation::kNone;
  std::set<Capability> capabilities;
  std::set<Egress> egress_modes = {Egress::kClosed};
  // The HTTP methods the backend can enforce per rule: unset means every valid token, a set
  // means exactly those (the empty set: none).
  std::optional<std::set<std::string>> egress_method_tokens;
  bool bounded_exec = false;  // its sandboxes offer the BoundedExec surface
};

// Identifies one sandbox: who asked, in which conversation, for which call. A per-call spec
// gets a new sandbox for every call_id.
struct SandboxKey {
  std::string agent_id;
  std::string session_id;
  std::string call_id;
};

// Where a conformance run sends the allowed host's traffic instead of the real one (its fake
// price API), and the CA that verifies it. Verification stays on: only the trust anchor changes.
struct EgressUpstream {
  std::string host;  // a loopback address
  int port = 443;
  std::string ca_pem;
};

// A backend asked to redirect egress it cannot redirect says so with this reason.
inline constexpr Reason kEgressRedirectUnsupported = "egress_redirect_unsupported";

class Backend {
 public:
  virtual ~Backend() = default;
  virtual const BackendDeclaration& declaration() const = 0;
  virtual StatusOr<std::unique_ptr<Sandbox>> Acquire(const Spec& spec, const SandboxKey& key) = 0;
  // Tears the sandbox down: every process in it is killed and nothing of it survives.
  virtual Status Dispose(std::unique_ptr<Sandbox> sandbox) = 0;
  // Conformance runs only: sandboxes acquired after this call reach `upstream` for the allowed
  // host. Production hosts never call it.
  virtual Status RedirectEgress(const EgressUpstream& /*upstream*/) {
    return Status(Outcome::kRefused, kEgressRedirectUnsupported,
                  "this backend cannot redirect its egress to a test upstream");
  }
};

}  // namespace azure_pricing::sandbox

#endif  // REF_SANDBOX_BACKEND_H_
