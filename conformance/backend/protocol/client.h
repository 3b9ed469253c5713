// The suite's side of the backend protocol: a sandbox::Backend whose every call is a request to an
// adapter program (a backend in any language serving PROTOCOL.md on its stdin/stdout). The
// conformance suite runs its checks against this exactly as against an in-process backend.
//
//   StatusOr<std::unique_ptr<AdapterBackend>> backend =
//       AdapterBackend::Start({"/usr/bin/python3", "adapter.py"}, {"PATH=/usr/bin"});
//   if (!backend.ok()) ...;  // spawn failed, no hello answer, another protocol version
//   (*backend)->declaration();  // what the adapter declared in its hello answer
//
// Every wait for the adapter has a deadline. When an answer does not come in time, the output
// ends, or the answer is not an answer to the request, the adapter is killed and reaped, that
// call fails with kAdapterTimeout, kAdapterExited or kAdapterProtocolError, and every later call
// fails with kAdapterExited.
#ifndef CONFORMANCE_BACKEND_PROTOCOL_CLIENT_H_
#define CONFORMANCE_BACKEND_PROTOCOL_CLIENT_H_

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "conformance/backend/protocol/protocol.h"
#include "conformance/line_protocol/line_io.h"
#include "ref/sandbox/backend.h"

namespace azure_pricing::conformance::backend::protocol {

struct AdapterDeadlines {
  std::chrono::milliseconds call{60'000};        // any answer but an exec's
  std::chrono::milliseconds exec_grace{30'000};  // an exec's answer: its timeout plus this
  std::chrono::milliseconds stop{5'000};         // the destructor: stop's answer and the exit
};

class AdapterChannel;  // the adapter process, its pipes and the one request in flight (client.cc)

class AdapterBackend : public sandbox::Backend {
 public:
  // Spawns argv (argv[0] is a path; no PATH search) with exactly `env` as its environment, its
  // stdin and stdout on pipes and its stderr inherited, in its own process group, started in
  // `working_directory` (empty: this process's), then says hello. `observer`, when given, sees
  // every request line written and every whole answer line read, stop's included.
  static StatusOr<std::unique_ptr<AdapterBackend>> Start(std::vector<std::string> argv,
                                                         std::vector<std::string> env,
                                                         AdapterDeadlines deadlines = {},
                                                         std::string working_directory = "",
                                                         line_protocol::LineObserver observer = {});
  // Sends stop, waits for the adapter to exit (deadlines.stop), then kills and reaps it.
  ~AdapterBackend() override;
  AdapterBackend(const AdapterBackend&) = delete;
  AdapterBackend& operator=(const AdapterBackend&) = delete;

  const BackendIdentity& identity() const { return identity_; }
  // The adapter process (0 once it was reaped): the suite does not count it as a leftover.
  pid_t pid() const;
  const sandbox::BackendDeclaration& declaration() const override { return declaration_; }
  StatusOr<std::unique_ptr<sandbox::Sandbox>> Acquire(const sandbox::Spec& spec,
                                                      const sandbox::SandboxKey& key) override;
  Status Dispose(std::unique_ptr<sandbox::Sandbox> sandbox) override;
  // Always OK: the upstream travels with every later acquire, and the adapter's backend answers
  // there whether it can redirect.
  Status RedirectEgress(const sandbox::EgressUpstream& upstream) override;

 private:
  AdapterBackend(std::shared_ptr<AdapterChannel> channel, BackendIdentity identity,
                 sandbox::BackendDeclaration declaration);

  // Shared with the sandboxes, so that one outliving the backend fails cleanly.
  std::shared_ptr<AdapterChannel> channel_;
  BackendIdentity identity_;
  sandbox::BackendDeclaration declaration_;
};

}  // namespace azure_pricing::conformance::backend::protocol

#endif  // CONFORMANCE_BACKEND_PROTOCOL_CLIENT_H_
