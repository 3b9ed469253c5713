#include "conformance/line_protocol/sandbox_table.h"

#include <utility>

#include "conformance/line_protocol/core.h"
#include "ref/status/status_macros.h"

namespace azure_pricing::conformance::line_protocol {

StatusOr<std::string> SandboxTable::Acquire(const sandbox::Spec& spec,
                                            const sandbox::SandboxKey& key) {
  ASSIGN_OR_RETURN(std::unique_ptr<sandbox::Sandbox> sandbox, backend_.Acquire(spec, key));
  std::string id = "sandbox-" + std::to_string(next_id_++);
  live_[id] = std::move(sandbox);
  return id;
}

StatusOr<sandbox::ExecResult> SandboxTable::ExecBounded(const std::string& id,
                                                        const sandbox::ExecRequest& exec) {
  auto it = live_.find(id);
  if (it == live_.end()) return Refusal(kUnknownSandbox);
  sandbox::BoundedExec* bounded = it->second->bounded_exec();
  if (bounded == nullptr) return Refusal(kBoundedExecUnavailable);
  return bounded->ExecBounded(exec);
}

Status SandboxTable::Dispose(const std::string& id) {
  auto it = live_.find(id);
  if (it == live_.end()) return Refusal(kUnknownSandbox);
  std::unique_ptr<sandbox::Sandbox> sandbox = std::move(it->second);
  live_.erase(it);
  return backend_.Dispose(std::move(sandbox));
}

void SandboxTable::DisposeAll() {
  while (!live_.empty()) {
    std::unique_ptr<sandbox::Sandbox> sandbox = std::move(live_.begin()->second);
    live_.erase(live_.begin());
    try {
      (void)backend_.Dispose(std::move(sandbox));
    } catch (...) {
      // Nobody is left to tell; the remaining sandboxes are still disposed.
    }
  }
}

}  // namespace azure_pricing::conformance::line_protocol
