// The egress proxy's decision reasons: the stable codes of its decision log
// (`decision=<reason> stage=<stage> status=<code|none>`). Declared once here; policy, proxy and tests
// use them by name.
#ifndef REF_EGRESS_REASONS_H_
#define REF_EGRESS_REASONS_H_

namespace azure_pricing::egress {

// Allowed.
inline constexpr char kTunnelOpened[] = "tunnel_opened";
inline constexpr char kRequestForwarded[] = "request_forwarded";

// CONNECT (stage=connect).
inline constexpr char kMalformedAuthority[] = "malformed_authority";
inline constexpr char kIpLiteral[] = "ip_literal";
inline constexpr char kMissingPort[] = "missing_port";
inline constexpr char kHostNotAllowed[] = "host_not_allowed";
inline constexpr char kPortNotAllowed[] = "port_not_allowed";
inline constexpr char kNotConnect[] = "not_connect";
inline constexpr char kEarlyData[] = "early_data";
inline constexpr char kClientTimeoutOrClosed[] = "client_timeout_or_closed";
inline constexpr char kTooManyTunnels[] = "too_many_tunnels";

// Either head, CONNECT or the tunnelled request.
inline constexpr char kHeadTooLarge[] = "head_too_large";

// TLS (stage=tls).
inline constexpr char kTlsHandshakeFailed[] = "tls_handshake_failed";

// The request inside the tunnel (stage=request).
inline constexpr char kIncompleteHead[] = "incomplete_head";
inline constexpr char kBareCr[] = "bare_cr";
inline constexpr char kBareLf[] = "bare_lf";
inline constexpr char kControlCharacter[] = "control_character";
inline constexpr char kMalformedRequestLine[] = "malformed_request_line";
inline constexpr char kObsFold[] = "obs_fold";
inline constexpr char kMalformedHeader[] = "malformed_header";
inline constexpr char kTooManyHeaders[] = "too_many_headers";
inline constexpr char kHttpVersionNotAllowed[] = "http_version_not_allowed";
inline constexpr char kMethodNotAllowed[] = "method_not_allowed";
inline constexpr char kRequestBody[] = "request_body";
inline constexpr char kUpgrade[] = "upgrade";
inline constexpr char kDuplicateHost[] = "duplicate_host";
inline constexpr char kMissingHost[] = "missing_host";
inline constexpr char kHostMismatch[] = "host_mismatch";
inline constexpr char kMissingSni[] = "missing_sni";
inline constexpr char kSniMismatch[] = "sni_mismatch";
inline constexpr char kAbsoluteTargetOtherHost[] = "absolute_target_other_host";

// The upstream (stage=upstream).
inline constexpr char kUpstreamUnreachable[] = "upstream_unreachable";
inline constexpr char kUpstreamTlsFailed[] = "upstream_tls_failed";

}  // namespace azure_pricing::egress

#endif  // REF_EGRESS_REASONS_H_
