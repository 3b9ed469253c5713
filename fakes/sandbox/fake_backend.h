// An in-process sandbox backend for tests: its declarations are whatever the test says, each
// call's exec result is scripted (output, exit code, virtual delay, faults), and it records
// every acquire, exec, file operation and dispose so a test can assert what happened and, as
// important, what did not (no acquisition before a refusal, no sandbox left undisposed).
//
// Time is virtual: a scripted delay at or past the request's timeout is a timeout, decided
// without sleeping, so fault tests are deterministic and fast.
//
//   fakes::sandbox::FakeBackend backend(fakes::sandbox::PricingCapableDeclaration());
//   backend.Script({.exec = {.stdout_bytes = envelope}});
//   ... run the tool ...
//   EXPECT_EQ(backend.acquisitions(), backend.disposals());
#ifndef FAKES_SANDBOX_FAKE_BACKEND_H_
#define FAKES_SANDBOX_FAKE_BACKEND_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ref/sandbox/backend.h"

namespace azure_pricing::fakes::sandbox {

using ::azure_pricing::sandbox::BackendDeclaration;
using ::azure_pricing::sandbox::ExecRequest;
using ::azure_pricing::sandbox::ExecResult;
using ::azure_pricing::sandbox::SandboxKey;
using ::azure_pricing::sandbox::Spec;

// Reason codes (Outcome::kFailed) of the faults a script asks for.
inline constexpr Reason kFakeAcquireFailed = "fake_acquire_failed";
inline constexpr Reason kFakeForeignSandbox = "fake_foreign_sandbox";
inline constexpr Reason kFakeDisposeFailed = "fake_dispose_failed";
inline constexpr Reason kFakeExecFailed = "fake_exec_failed";

struct ScriptedExec {
  std::string stdout_bytes;
  std::string stderr_bytes;
  int exit_code = 0;
  int64_t delay_ms = 0;     // virtual; >= the request's timeout means a timeout
  // Runs past any time limit: a bounded exec times out, whatever its timeout.
  bool times_out = false;
  bool exec_error = false;  // the backend itself fails to run the program
  // A backend that does not hold the output to the request's budget: the tool must count it.
  bool ignore_output_budget = false;
};

// What happens to one call's sandbox, from acquire to dispose.
struct CallScript {
  bool fail_acquire = false;
  ScriptedExec exec;
  bool fail_dispose = false;
};

struct AcquireRecord {
  int sandbox_id = 0;
  Spec spec;
  SandboxKey key;
};

struct ExecRecord {
  int sandbox_id = 0;
  ExecRequest request;
  bool bounded = false;
};

struct DisposeRecord {
  int sandbox_id = 0;
  bool failed = false;
};

// The smallest declaration azure_pricing_get accepts: POSIX, container isolation, EXEC and
// EGRESS_METHODS, an enforced allowlist, the GET token, BoundedExec.
BackendDeclaration PricingCapableDeclaration();

class FakeBackend : public ::azure_pricing::sandbox::Backend {
 public:
  explicit FakeBackend(BackendDeclaration declaration);
  ~FakeBackend() override;

  // Scripts are consumed one per acquire, in order; past the end every call gets `fallback`.
  void Script(CallScript script);
  void SetFallback(CallScript script);
  // A backend that declares BoundedExec but whose sandboxes do not offer it.
  void SetWithholdBoundedExec(bool withhold);
  BackendDeclaration& mutable_declaration() { return declaration_; }

  const BackendDeclaration& declaration() const override { return declaration_; }
  azure_pricing::StatusOr<std::unique_ptr<::azure_pricing::sandbox::Sandbox>> Acquire(
      const Spec& spec, const SandboxKey& key) override;
  azure_pricing::Status Dispose(std::unique_ptr<::azure_pricing::sandbox::Sandbox> sandbox) override;

  int acquire_attempts() const;  // including the ones scripted to fail
  int acquisitions() const;
  int disposals() const;  // Dispose calls, including the ones scripted to fail
  // Acquired and not yet handed to Dispose. A sandbox whose dispose was scripted to fail counts
  // as handed back: the tool did its part, and the failure is in disposes().
  int live() const;
  int file_operations() const;
  std::vector<AcquireRecord> acquires() const;
  std::vector<ExecRecord> execs() const;
  std::vector<DisposeRecord> disposes() const;

 private:
  class FakeSandbox;
  friend class FakeSandbox;

  azure_pricing::StatusOr<ExecResult> RunExec(int sandbox_id, const CallScript& script,
                                              const ExecRequest& request, bool bounded);
  void RecordFileOperation();

  BackendDeclaration declaration_;
  mutable std::mutex mu_;
  std::deque<CallScript> scripts_;
  CallScript fallback_;
  bool withhold_bounded_exec_ = false;
  int next_id_ = 1;
  int live_ = 0;
  int acquire_attempts_ = 0;
  int file_operations_ = 0;
  std::vector<AcquireRecord> acquires_;
  std::vector<ExecRecord> execs_;
  std::vector<DisposeRecord> disposes_;
};

}  // namespace azure_pricing::fakes::sandbox

#endif  // FAKES_SANDBOX_FAKE_BACKEND_H_
