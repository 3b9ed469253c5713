// The GET-only, TLS-intercepting egress proxy as a running server: CONNECT only to the allowed
// host (policy.h decides), TLS terminated with a leaf for that host signed by a per-run egress CA
// (whose PEM is what sandboxes get as SSL_CERT_FILE), one request per tunnel checked against
// policy.h, then forwarded to the real host with full certificate verification (or to the
// upstream a test configures) and the response passed back unchanged: redirects are never
// followed. Every decision is one log line: `decision=<reason> ...`.
//
//   egress::ProxyOptions options;
//   options.upstream_host = "127.0.0.1"; options.upstream_port = fake_port;
//   options.upstream_ca_file = fake_ca;  // verification stays on
//   egress::EgressProxy proxy(options);
//   if (!proxy.Start().ok()) ...;  // proxy.port(), proxy.egress_ca_pem()
#ifndef REF_EGRESS_PROXY_H_
#define REF_EGRESS_PROXY_H_

#include <sys/time.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "ref/base/openssl.h"
#include "ref/egress/policy.h"
#include "ref/status/status.h"

namespace azure_pricing::egress {

// Defined only by the conformance suite's mutants (conformance/backend/broken_backends), which need a
// proxy that is wrong in one known way to prove a probe catches it, and by proxy_test, which
// proves each weakening really weakens. Nothing else defines it.
class ProxyMutator;

// Why Start() failed, as program errors (ProgramError(): no call of the tool ended; a backend
// that starts a proxy answers with its own failure). The message says which part (fixed text),
// a program adds its flags and paths. kStartBadOptions: an option that cannot work (no allowed
// host, no tunnel, no timeout).
inline constexpr Reason kStartBadOptions = "proxy_bad_options";
inline constexpr Reason kStartCertificates = "proxy_certificates_failed";
inline constexpr Reason kStartUpstreamCa = "proxy_upstream_ca_unusable";
inline constexpr Reason kStartListen = "proxy_listen_failed";

// One forwarded request and the response passed back, as a recorder sees it (the live check's
// recorder captures upstream pages here, where they cross the proxy, rather than trusting the
// CLI's account of them).
struct ForwardedExchange {
  std::string method;
  std::string target;             // origin form as forwarded: /api/retail/prices?...
  std::string user_agent;         // the client's User-Agent header; empty when it sent none
  int status = 0;                 // 0 when no status line came back
  std::string response;           // the raw response as forwarded: head and body
  bool response_complete = true;  // false when the response exceeded the observer's cap
  // When the request was forwarded and when its response ended: a recorder measures how many
  // requests were in flight at once from these.
  std::chrono::steady_clock::time_point forwarded, ended;
  // Whether the upstream TLS connection resumed an earlier verified session (no full handshake).
  bool upstream_resumed = false;
};

struct ProxyOptions {
  std::string listen_host = "127.0.0.1";
  int listen_port = 0;
  // When set, the proxy listens on this Unix socket instead of TCP (a sandbox without a network
  // reaches it through a bind mount; see ref/sandbox/bwrap).
  std::string listen_unix_path;
  std::string allowed_host = "prices.azure.com";
  // Where the allowed host is reached; empty means the allowed host itself on 443.
  std::string upstream_host;
  int upstream_port = 443;
  // CA bundle that verifies the upstream; empty means the system's. Never "no verification".
  std::string upstream_ca_file;
  int max_tunnels = 16;
  int idle_timeout_ms = 10'000;
  std::function<void(const std::string&)> log;  // one line per decision; stderr when unset
  // Called after each forwarded request, from the tunnel's thread. Unset: no response is
  // copied. A response larger than max_observed_bytes is still forwarded whole; the observer
  // sees its first max_observed_bytes and response_complete = false.
  std::function<void(const ForwardedExchange&)> observe;
  size_t max_observed_bytes = 64ULL << 20;
};

class EgressProxy {
 public:
  explicit EgressProxy(ProxyOptions options);
  ~EgressProxy();
  EgressProxy(const EgressProxy&) = delete;
  EgressProxy& operator=(const EgressProxy&) = delete;

  // Makes the egress CA and leaf, loads the upstream trust, binds, starts accepting.
  Status Start();
  void Stop();
  int port() const { return port_; }
  const std::string& egress_ca_pem() const { return ca_pem_; }

 private:
  friend class ProxyMutator;
  // Each one breaks a rule on purpose; all false except in a mutant.
  struct Weakenings {
    bool any_method = false;           // forward methods other than GET
    bool unverified_upstream = false;  // accept any upstream certificate
    // Keep the tunnel open after the response and forward every later request on it (and
    // bytes pipelined after the first head) without a policy check: only the first is judged.
    bool later_requests_unchecked = false;
    bool method_case_insensitive = false;  // "get" passes as GET and is forwarded as sent
    // CONNECT to any host that ends with the allowed name ("evilprices.azure.com") opens a
    // tunnel, with a leaf for that host; its requests go to the configured upstream.
    bool host_suffix_match = false;
    bool host_header_unchecked = false;  // Host is never compared with the CONNECT host
    bool sni_unchecked = false;          // the SNI is never compared with the CONNECT host
    // Upgrade (and a Connection header naming it) is never looked at; the request is forwarded
    // with its Upgrade header.
    bool upgrade_unchecked = false;
    // A `Via` header is added to every response passed back, as caching proxies do.
    bool response_altered = false;
    // The value of the response's Cache-Control is rewritten (`max-age=3600`), as a cache that
    // imposes its own policy does: an end-to-end field changed.
    bool response_header_changed = false;
    // The response's head rewritten as squid does and HTTP allows (a variation the suite
    // accepts): field names in their usual case, the hop-by-hop fields (Connection, the fields it
    // names) replaced by the proxy's own, a Date added where the upstream sent none.
    bool response_head_rewritten = false;
    // Keep the tunnel open and judge every later request by its method only: a GET with another
    // Host or an absolute target naming another host is forwarded.
    bool later_requests_method_only = false;
    // The leaf the proxy terminates TLS with names management.azure.com, not the allowed host:
    // every client that verifies (as it must) fails the handshake.
    bool leaf_misnamed = false;
    // Every refusal inside the tunnel is written as `200 OK` (still nothing is forwarded): a
    // proxy that answers a forbidden request with a success of its own.
    bool refusals_answered_200 = false;
    // Nonzero: a CONNECT to an IP literal is accepted, as squid's ssl-bump accepts a denied
    // CONNECT, with a leaf naming the literal only as a DNS name, and every request inside is
    // answered with this status by the proxy itself, never forwarded. 403 is squid's way of
    // refusing (a variation the suite accepts); 200 answers the forbidden request as a success.
    int ip_literal_answer = 0;
    // The status for an upstream that cannot be reached or verified: 502 as PROTOCOL.md
    // recommends; squid answers 503 (a variation the suite accepts).
    int upstream_failure_status = 502;
  };
  struct Tls;
  Status Listen();
  Status ListenUnix();
  void AcceptLoop();
  // One tunnel, by stage: CONNECT, TLS, the request, the upstream exchange. `host` is the
  // normalised CONNECT host, the allowed host unless a weakening let another through.
  void Serve(int fd);
  std::optional<std::string> OpenTunnel(int fd);
  base::SslPtr AcceptTls(int fd, const std::string& host, std::string& sni);
  // The request's policy decision, as the weakenings (if any) distort it.
  Decision Judge(RequestHead head, std::string sni, const std::string& host) const;
  // Bytes read past the request's head land in `pending` (only a weakened proxy keeps them).
  std::optional<RequestHead> ReadRequest(SSL* ssl, const std::string& sni, const std::string& host,
                                         std::string& pending);
  void Forward(SSL* ssl, const RequestHead& head, const std::string& body, const timeval& timeout);
  void ForwardLaterUnchecked(SSL* ssl, std::string pending, const timeval& timeout);
  // Whether a weakening keeps the tunnel open for requests after the first.
  bool KeepsTunnelOpen() const {
    return weakenings_.later_requests_unchecked || weakenings_.later_requests_method_only;
  }
  void Log(const std::string& line);
  void LogDecision(std::string_view reason, const char* stage, std::optional<int> status);

  ProxyOptions options_;
  Weakenings weakenings_;
  std::unique_ptr<Tls> tls_;
  std::string ca_pem_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> tunnels_{0};
  std::thread acceptor_;
  std::mutex mu_;
  struct Worker {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };
  void JoinFinishedWorkers();
  std::vector<Worker> workers_;
};

}  // namespace azure_pricing::egress

#endif  // REF_EGRESS_PROXY_H_
