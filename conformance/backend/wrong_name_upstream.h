// A second HTTPS server on this machine's loopback whose certificate chains to a CA of its own
// but names only management.azure.com. The backend suite points a backend's egress at it with
// that CA as the trust anchor: a proxy that verifies the chain and not the name takes it for
// prices.azure.com. Every request that reaches it is counted, whatever its method or path, and
// a GET is answered 200 with an empty price page.
//
// Like every httplib server, constructing it sets SIGPIPE to SIG_IGN for the whole process. The
// suite copes with either: line_io holds SIGPIPE back around each write, and the children it and
// the bubblewrap backend start get default dispositions (line_protocol/child, bounded_process).
//
//   StatusOr<std::unique_ptr<WrongNameUpstream>> up = WrongNameUpstream::Start();
//   backend.RedirectEgress({"127.0.0.1", (*up)->port(), (*up)->ca_pem()});
//   ... (*up)->requests() == 0 when the proxy checked the name ...
#ifndef CONFORMANCE_BACKEND_WRONG_NAME_UPSTREAM_H_
#define CONFORMANCE_BACKEND_WRONG_NAME_UPSTREAM_H_

#include <memory>
#include <string>

#include "ref/status/status.h"

namespace azure_pricing::conformance::backend {

// A program error (ProgramError()): the certificates could not be made, or the server did not
// listen within its deadline.
inline constexpr Reason kWrongNameUpstreamFailed = "wrong_name_upstream_failed";

// The one name its certificate holds.
inline constexpr char kWrongUpstreamName[] = "management.azure.com";

class WrongNameUpstream {
 public:
  // Listening on 127.0.0.1 on a free port when it returns; stops when destroyed.
  static StatusOr<std::unique_ptr<WrongNameUpstream>> Start();
  ~WrongNameUpstream();
  WrongNameUpstream(const WrongNameUpstream&) = delete;
  WrongNameUpstream& operator=(const WrongNameUpstream&) = delete;

  int port() const { return port_; }
  // The CA its certificate chains to, as PEM.
  const std::string& ca_pem() const { return ca_pem_; }
  // Requests read since start (a request line too malformed to parse is not one).
  int requests() const;

 private:
  struct Server;
  WrongNameUpstream() = default;
  std::unique_ptr<Server> server_;
  int port_ = 0;
  std::string ca_pem_;
};

}  // namespace azure_pricing::conformance::backend

#endif  // CONFORMANCE_BACKEND_WRONG_NAME_UPSTREAM_H_
