// The fake price API (//fakes/prices_server) as a child process for a suite run outside Bazel's
// test runner (the gate): HTTPS on a free loopback port with a CA made at start.
#ifndef CONFORMANCE_BACKEND_PRICE_API_PROCESS_H_
#define CONFORMANCE_BACKEND_PRICE_API_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "ref/base/ready_child.h"
#include "ref/status/status.h"

namespace azure_pricing::conformance::backend {

// A program error (ProgramError()): the fake price API did not start.
inline constexpr Reason kPriceApiFailed = "price_api_failed";

// The fake price API a backend's egress is pointed at.
struct PriceApi {
  int port = 0;
  std::string ca_pem;
  pid_t pid = -1;  // the suite does not count it as a process a backend left behind
};

// One row the suite's probes and the CLI lookup ask for (Standard_D4s_v5 in westeurope).
extern const char* const kSuiteCatalog;

// The methods of every request the fake API received since the last ResetRequestLog, in order
// (its admin API, over TLS verified against its CA).
StatusOr<std::vector<std::string>> ReceivedMethods(const PriceApi& api);
// Clears the request log and any queued faults.
Status ResetRequestLog(const PriceApi& api);
// Queues faults (a JSON array in the admin API's format; prices_server --help lists them).
Status AddFaults(const PriceApi& api, const std::string& faults_json);

class PriceApiProcess {
 public:
  // Starts `binary` serving `catalog_jsonl` from files in `work_dir`; waits up to 20 s for it.
  static StatusOr<std::unique_ptr<PriceApiProcess>> Start(const std::string& binary,
                                                          const std::string& catalog_jsonl,
                                                          const std::string& work_dir);
  // Starts `binary` answering only the recorded exchanges in `replay_jsonl` (prices_server
  // --replay: one {"target","status","body"} per line), every other request with a 404.
  static StatusOr<std::unique_ptr<PriceApiProcess>> StartReplay(const std::string& binary,
                                                                const std::string& replay_jsonl,
                                                                const std::string& work_dir);
  ~PriceApiProcess();
  const PriceApi& api() const { return api_; }

 private:
  PriceApiProcess() = default;
  static StatusOr<std::unique_ptr<PriceApiProcess>> Launch(std::vector<std::string> args,
                                                           const std::string& work_dir);
  std::unique_ptr<base::ReadyChild> child_;
  PriceApi api_;
};

}  // namespace azure_pricing::conformance::backend

#endif  // CONFORMANCE_BACKEND_PRICE_API_PROCESS_H_
