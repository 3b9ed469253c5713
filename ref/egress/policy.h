// The GET-only egress proxy's decisions, without sockets (the proxy's I/O only carries them
// out): which CONNECT targets open a tunnel, and which requests inside the intercepted TLS
// tunnel may go upstream. Every decision has a reason code, logged once per request.
//
// CONNECT: only the allowed host on port 443, after normalisation (case, one trailing dot);
// IP literals in any form, other ports, other hosts and malformed authorities are refused.
// Inside the tunnel: exactly one well-formed HTTP/1.1 request head, method GET, no body
// (Content-Length or Transfer-Encoding at all), no Upgrade, no obs-fold, bounded header count and
// size, a single Host equal to the SNI and the CONNECT host, and an origin-form target (or an
// absolute-form one naming the same host).
#ifndef REF_EGRESS_POLICY_H_
#define REF_EGRESS_POLICY_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ref/egress/reasons.h"

namespace azure_pricing::egress {

struct Decision {
  bool allowed = false;
  int status = 403;    // what the client is told when refused
  std::string reason;  // stable code for the decision log
};

inline constexpr size_t kMaxHeadBytes = 16 * 1024;
inline constexpr size_t kMaxHeaders = 64;

// Lower-cased, one trailing dot removed; nullopt when it is not a DNS name at all.
std::optional<std::string> NormalizeHost(std::string_view host);

// True for anything a resolver might read as an address: dotted quads, bare or short-form
// decimal/octal/hex numbers, IPv6 (bracketed or not).
bool LooksLikeIpLiteral(std::string_view host);

// The request target of a CONNECT head whose first line is exactly "CONNECT target HTTP/1.1";
// nullopt for any other head (the proxy answers 405, kNotConnect). The target is not judged here.
std::optional<std::string> ConnectAuthority(std::string_view head);

// `authority` is the CONNECT request target, "host:port".
Decision DecideConnect(std::string_view authority, std::string_view allowed_host);

struct RequestHead {
  std::string method;
  std::string target;
  std::string version;
  std::vector<std::pair<std::string, std::string>> headers;  // names as sent
};

// Parses one request head (up to and including the blank line). A malformed or oversized head
// is a refusal, not a parse.
struct ParsedHead {
  std::optional<RequestHead> head;
  Decision refusal;  // when head is unset
  size_t consumed = 0;
};
ParsedHead ParseRequestHead(std::string_view bytes);

// `sni` is the server name the client sent in its TLS ClientHello (empty when none);
// `connect_host` the normalised CONNECT host.
Decision DecideRequest(const RequestHead& head, std::string_view sni,
                       std::string_view connect_host);

}  // namespace azure_pricing::egress

#endif  // REF_EGRESS_POLICY_H_
