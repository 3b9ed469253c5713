#include "fakes/sandbox/fake_backend.h"

#include <utility>

namespace azure_pricing::fakes::sandbox {

using azure_pricing::Outcome;
using azure_pricing::Status;
using azure_pricing::StatusOr;

BackendDeclaration PricingCapableDeclaration() {
  BackendDeclaration d;
  d.name = "fake";
  d.os_families = {::azure_pricing::sandbox::OsFamily::kPosix};
  d.isolation = ::azure_pricing::sandbox::Isolation::kContainer;
  d.capabilities = {::azure_pricing::sandbox::Capability::kExec, ::azure_pricing::sandbox::Capability::kEgressMethods};
  d.egress_modes = {::azure_pricing::sandbox::Egress::kClosed, ::azure_pricing::sandbox::Egress::kAllowlist};
  d.egress_method_tokens = std::set<std::string>{"GET"};
  d.bounded_exec = true;
  return d;
}

class FakeBackend::FakeSandbox : public ::azure_pricing::sandbox::Sandbox, public ::azure_pricing::sandbox::BoundedExec {
 public:
  FakeSandbox(FakeBackend* owner, int id, CallScript script, bool offers_bounded)
      : owner_(owner), id_(id), script_(std::move(script)), offers_bounded_(offers_bounded) {}

  StatusOr<ExecResult> Exec(const ExecRequest& request) override {
    return owner_->RunExec(id_, script_, request, /*bounded=*/false);
  }
  ::azure_pricing::sandbox::BoundedExec* bounded_exec() override { return offers_bounded_ ? this : nullptr; }
  StatusOr<ExecResult> ExecBounded(const ExecRequest& request) override {
    return owner_->RunExec(id_, script_, request, /*bounded=*/true);
  }
  Status WriteFile(const std::string&, const std::string&) override {
    owner_->RecordFileOperation();
    return azure_pricing::OkStatus();
  }
  StatusOr<std::string> ReadFile(const std::string&) override {
    owner_->RecordFileOperation();
    return std::string();
  }

  int id() const { return id_; }
  bool fail_dispose() const { return script_.fail_dispose; }

 private:
  FakeBackend* owner_;
  int id_;
  CallScript script_;
  bool offers_bounded_;
};

FakeBackend::FakeBackend(BackendDeclaration declaration) : declaration_(std::move(declaration)) {}
FakeBackend::~FakeBackend() = default;

void FakeBackend::Script(CallScript script) {
  std::lock_guard<std::mutex> lock(mu_);
  scripts_.push_back(std::move(script));
}

void FakeBackend::SetFallback(CallScript script) {
  std::lock_guard<std::mutex> lock(mu_);
  fallback_ = std::move(script);
}

void FakeBackend::SetWithholdBoundedExec(bool withhold) {
  std::lock_guard<std::mutex> lock(mu_);
  withhold_bounded_exec_ = withhold;
}

StatusOr<std::unique_ptr<::azure_pricing::sandbox::Sandbox>> FakeBackend::Acquire(const Spec& spec,
                                                                   const SandboxKey& key) {
  std::lock_guard<std::mutex> lock(mu_);
  ++acquire_attempts_;
  CallScript script = fallback_;
  if (!scripts_.empty()) {
    script = std::move(scripts_.front());
    scripts_.pop_front();
  }
  if (script.fail_acquire) {
    return Status(Outcome::kFailed, kFakeAcquireFailed, "The fake backend failed to acquire.");
  }
  const int id = next_id_++;
  acquires_.push_back(AcquireRecord{id, spec, key});
  ++live_;
  const bool offers = declaration_.bounded_exec && !withhold_bounded_exec_;
  return std::unique_ptr<::azure_pricing::sandbox::Sandbox>(
      std::make_unique<FakeSandbox>(this, id, std::move(script), offers));
}

Status FakeBackend::Dispose(std::unique_ptr<::azure_pricing::sandbox::Sandbox> sandbox) {
  auto* fake = dynamic_cast<FakeSandbox*>(sandbox.get());
  std::lock_guard<std::mutex> lock(mu_);
  if (fake == nullptr) {
    return Status(Outcome::kFailed, kFakeForeignSandbox, "Not a sandbox of this backend.");
  }
  const bool failed = fake->fail_dispose();
  disposes_.push_back(DisposeRecord{fake->id(), failed});
  --live_;
  if (failed) {
    return Status(Outcome::kFailed, kFakeDisposeFailed, "The fake backend failed to dispose.");
  }
  return azure_pricing::OkStatus();
}

StatusOr<ExecResult> FakeBackend::RunExec(int sandbox_id, const CallScript& script,
                                          const ExecRequest& request, bool bounded) {
  std::lock_guard<std::mutex> lock(mu_);
  execs_.push_back(ExecRecord{sandbox_id, request, bounded});
  const ScriptedExec& e = script.exec;
  if (e.exec_error) {
    return Status(Outcome::kFailed, kFakeExecFailed, "The fake backend failed to execute.");
  }
  if (bounded) {
    if (e.times_out || e.delay_ms >= request.timeout_seconds * 1000) {
      return Status(Outcome::kFailed, ::azure_pricing::sandbox::kExecTimeoutReason, "Timed out.");
    }
    if (!e.ignore_output_budget &&
        static_cast<int64_t>(e.stdout_bytes.size() + e.stderr_bytes.size()) >
            request.max_output_bytes) {
      return Status(Outcome::kFailed, ::azure_pricing::sandbox::kExecOutputLimitReason, "Output limit.");
    }
  }
  return ExecResult{e.stdout_bytes, e.stderr_bytes, e.exit_code};
}

void FakeBackend::RecordFileOperation() {
  std::lock_guard<std::mutex> lock(mu_);
  ++file_operations_;
}

int FakeBackend::acquire_attempts() const {
  std::lock_guard<std::mutex> lock(mu_);
  return acquire_attempts_;
}
int FakeBackend::acquisitions() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(acquires_.size());
}
int FakeBackend::disposals() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(disposes_.size());
}
int FakeBackend::live() const {
  std::lock_guard<std::mutex> lock(mu_);
  return live_;
}
int FakeBackend::file_operations() const {
  std::lock_guard<std::mutex> lock(mu_);
  return file_operations_;
}
std::vector<AcquireRecord> FakeBackend::acquires() const {
  std::lock_guard<std::mutex> lock(mu_);
  return acquires_;
}
std::vector<ExecRecord> FakeBackend::execs() const {
  std::lock_guard<std::mutex> lock(mu_);
  return execs_;
}
std::vector<DisposeRecord> FakeBackend::disposes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return disposes_;
}

}  // namespace azure_pricing::fakes::sandbox
