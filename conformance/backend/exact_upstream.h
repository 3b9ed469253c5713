// An HTTPS server on this machine's loopback that answers every request with one fixed response
// of its own making, so the backend suite knows byte for byte what an upstream sent and can
// compare it with what the program inside the sandbox received through the proxy
// (egress.response_unchanged). Its certificate names prices.azure.com and chains to a CA of its
// own, which the suite gives the backend as the upstream's trust anchor. The response is written
// by hand, not by an HTTP library, so no library adds or reorders a header: its bytes are
// response().
//
//   StatusOr<std::unique_ptr<ExactUpstream>> up = ExactUpstream::Start();
//   backend.RedirectEgress({"127.0.0.1", (*up)->port(), (*up)->ca_pem()});
//   ... the program's bytes == (*up)->response() when the proxy passed it back unchanged ...
#ifndef CONFORMANCE_BACKEND_EXACT_UPSTREAM_H_
#define CONFORMANCE_BACKEND_EXACT_UPSTREAM_H_

#include <memory>
#include <string>

#include "ref/status/status.h"

namespace azure_pricing::conformance::backend {

// A program error (ProgramError()): the certificates could not be made, or the socket could not
// be bound.
inline constexpr Reason kExactUpstreamFailed = "exact_upstream_failed";

class ExactUpstream {
 public:
  // Listening on 127.0.0.1 on a free port when it returns; stops when destroyed.
  static StatusOr<std::unique_ptr<ExactUpstream>> Start();
  ~ExactUpstream();
  ExactUpstream(const ExactUpstream&) = delete;
  ExactUpstream& operator=(const ExactUpstream&) = delete;

  int port() const { return port_; }
  const std::string& ca_pem() const { return ca_pem_; }
  // The whole response, head and body, written to every request; unique to this instance, so a
  // proxy cannot answer it from a cache.
  const std::string& response() const { return response_; }
  // Request heads read whole since start.
  int requests() const;

  struct Server;  // the listening socket and its thread (exact_upstream.cc)

 private:
  ExactUpstream() = default;
  std::unique_ptr<Server> server_;
  int port_ = 0;
  std::string ca_pem_;
  std::string response_;
};

}  // namespace azure_pricing::conformance::backend

#endif  // CONFORMANCE_BACKEND_EXACT_UPSTREAM_H_
