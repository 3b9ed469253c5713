// Whether the response a program read through the egress proxy is the one the upstream sent, in
// what HTTP says a response is (PROTOCOL.md, "Decisions"; egress.response_unchanged):
//   - the status line, byte for byte;
//   - every end-to-end header field, by name in any letter case (RFC 9110 §5.1), with its value
//     (leading and trailing whitespace aside, §5.5) and, for a name sent more than once, its
//     values in order (§5.3); lines of different names may come in any order;
//   - the body, after undoing a chunked transfer coding (RFC 9112 §7.1);
// and nothing else: the hop-by-hop fields (RFC 9110 §7.6.1: Connection and the fields the
// upstream's Connection names, Keep-Alive, Proxy-Connection, TE, Transfer-Encoding, Upgrade,
// Trailer) belong to each connection, a proxy that re-frames the body as chunked drops the
// Content-Length (RFC 9112 §6.2), and a Date may be added where the upstream sent none (RFC 9110
// §6.6.1 requires it of a recipient with a clock). A Date changed, or any other field added,
// removed or changed (Via, X-Cache, Server...), is a difference.
//
//   const ResponseComparison c = CompareResponses(upstream_bytes, program_bytes);
//   if (!c.same) ... c.detail says what changed ...
#ifndef CONFORMANCE_BACKEND_RESPONSE_COMPARE_H_
#define CONFORMANCE_BACKEND_RESPONSE_COMPARE_H_

#include <string>

namespace azure_pricing::conformance::backend {

struct ResponseComparison {
  bool same = false;
  // Facts, never the bytes. When not the same: the sizes, then "; the status line changed",
  // "; header lines added or changed: NAMES", "; header lines removed or changed: NAMES",
  // "; the body changed" as they apply (NAMES as each side wrote them, in the order of their
  // lower-case names). When the same: what the proxy rewrote that HTTP allows, or "byte for byte".
  std::string detail;
};

// `sent`: the upstream's whole response; `got`: every byte the program read.
ResponseComparison CompareResponses(const std::string& sent, const std::string& got);

}  // namespace azure_pricing::conformance::backend

#endif  // CONFORMANCE_BACKEND_RESPONSE_COMPARE_H_
