// The live sandboxes a protocol peer holds by id: the backend protocol's server for its client,
// and the gate for a testee's callbacks (conformance/testee/runner.cc). Both hand out the ids
// "sandbox-1", "sandbox-2", ... in order, answer an id they do not hold with kUnknownSandbox,
// and dispose everything still live when the peer is done, so no sandbox outlives its backend.
//
//   SandboxTable table(backend);
//   StatusOr<std::string> id = table.Acquire(spec, key);          // "sandbox-1"
//   StatusOr<sandbox::ExecResult> ran = table.ExecBounded(*id, exec);
//   Status disposed = table.Dispose(*id);
#ifndef CONFORMANCE_LINE_PROTOCOL_SANDBOX_TABLE_H_
#define CONFORMANCE_LINE_PROTOCOL_SANDBOX_TABLE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "ref/sandbox/backend.h"
#include "ref/sandbox/spec.h"
#include "ref/status/status.h"

namespace azure_pricing::conformance::line_protocol {

class SandboxTable {
 public:
  explicit SandboxTable(sandbox::Backend& backend) : backend_(backend) {}
  ~SandboxTable() { DisposeAll(); }
  SandboxTable(const SandboxTable&) = delete;
  SandboxTable& operator=(const SandboxTable&) = delete;

  // The backend's answer to an acquire; on success the new sandbox's id. A backend that throws
  // is the caller's to catch: nothing is added then.
  StatusOr<std::string> Acquire(const sandbox::Spec& spec, const sandbox::SandboxKey& key);
  // kUnknownSandbox, kBoundedExecUnavailable, or the sandbox's own answer.
  StatusOr<sandbox::ExecResult> ExecBounded(const std::string& id,
                                            const sandbox::ExecRequest& exec);
  // kUnknownSandbox, or the backend's answer; the id is gone either way.
  Status Dispose(const std::string& id);
  // Disposes every live sandbox; a dispose that fails or throws does not stop the rest, since
  // nobody is left to tell.
  void DisposeAll();

  size_t live() const { return live_.size(); }

 private:
  sandbox::Backend& backend_;
  std::map<std::string, std::unique_ptr<sandbox::Sandbox>> live_;
  int64_t next_id_ = 1;
};

}  // namespace azure_pricing::conformance::line_protocol

#endif  // CONFORMANCE_LINE_PROTOCOL_SANDBOX_TABLE_H_
