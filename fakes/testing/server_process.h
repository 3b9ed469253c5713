// Test helper: runs //fakes/prices_server:prices_server as a child process over HTTPS on a free
// loopback port, with a small catalog, and stops it on destruction (base::ReadyChild).
#ifndef FAKES_TESTING_SERVER_PROCESS_H_
#define FAKES_TESTING_SERVER_PROCESS_H_

#include <memory>
#include <string>

#include "ref/base/ready_child.h"

namespace httplib {
class SSLClient;
}  // namespace httplib

namespace azure_pricing::fakes::test_support {

class PricesServerProcess {
 public:
  // `catalog_jsonl` is written to TEST_TMPDIR; the binary is found in the test's runfiles.
  explicit PricesServerProcess(const std::string& catalog_jsonl);
  // Replay mode: `exchanges_jsonl` is written to TEST_TMPDIR and served with --replay.
  struct Replay {
    std::string exchanges_jsonl;
  };
  explicit PricesServerProcess(const Replay& replay);
  ~PricesServerProcess();
  PricesServerProcess(const PricesServerProcess&) = delete;
  PricesServerProcess& operator=(const PricesServerProcess&) = delete;

  int port() const { return port_; }
  // A client that verifies the server against the CA file it wrote (include <httplib.h>).
  std::unique_ptr<httplib::SSLClient> Client() const;
  const std::string& ca_file() const { return ca_; }
  // GET /_admin/requests, as JSON text (verified TLS to the fake).
  std::string RequestLog() const;
  bool AddFaults(const std::string& json) const;
  // Clears the request log and any queued faults.
  bool Reset() const;
  // Empty while the server runs; otherwise how it ended ("exited 1", "killed by signal 13").
  std::string Ended() const;

 private:
  // Writes `contents` to TEST_TMPDIR/`file` and starts the server with `flag` naming it.
  void Start(const std::string& flag, const std::string& file, const std::string& contents);

  std::unique_ptr<base::ReadyChild> child_;
  std::string start_error_ = "never started";
  int port_ = 0;
  std::string ca_;
};

}  // namespace azure_pricing::fakes::test_support

#endif  // FAKES_TESTING_SERVER_PROCESS_H_
