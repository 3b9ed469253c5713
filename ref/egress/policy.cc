#include "ref/egress/policy.h"

#include <cctype>

namespace azure_pricing::egress {
namespace {

Decision Refuse(int status, std::string reason) { return {false, status, std::move(reason)}; }
Decision Allow(std::string reason) { return {true, 200, std::move(reason)}; }

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool IsTchar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

}  // namespace

std::optional<std::string> NormalizeHost(std::string_view host) {
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);
  if (host.empty() || host.size() > 253) return std::nullopt;
  std::string out = Lower(host);
  size_t label = 0;
  for (char c : out) {
    if (c == '.') {
      if (label == 0) return std::nullopt;
      label = 0;
      continue;
    }
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-') || ++label > 63) {
      return std::nullopt;
    }
  }
  return label == 0 ? std::nullopt : std::optional<std::string>(out);
}

bool LooksLikeIpLiteral(std::string_view host) {
  if (host.empty()) return false;
  if (host.front() == '[' || host.find(':') != std::string_view::npos) return true;
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);
  // Every label numeric (decimal, 0-octal or 0x-hex): inet_aton reads such names as addresses.
  size_t start = 0;
  while (start <= host.size()) {
    size_t end = host.find('.', start);
    if (end == std::string_view::npos) end = host.size();
    std::string_view label = host.substr(start, end - start);
    if (label.empty()) return false;
    bool numeric = true;
    if (label.size() > 2 && label[0] == '0' && (label[1] == 'x' || label[1] == 'X')) {
      for (char c : label.substr(2))
        numeric = numeric && std::isxdigit(static_cast<unsigned char>(c));
    } else {
      for (char c : label) numeric = numeric && std::isdigit(static_cast<unsigned char>(c));
    }
    if (!numeric) return false;
    start = end + 1;
  }
  return true;
}

Decision DecideConnect(std::string_view authority, std::string_view allowed_host) {
  if (authority.empty() || authority.size() > 300) return Refuse(400, "malformed_authority");
  std::string_view host;
  std::string_view port;
  if (authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return Refuse(400, "malformed_authority");
    return Refuse(403, "ip_literal");
  }
  const size_t colon = authority.rfind(':');
  if (colon == std::string_view::npos) return Refuse(400, "missing_port");
  host = authority.substr(0, colon);
  port = authority.substr(colon + 1);
  if (host.find(':') != std::string_view::npos) return Refuse(403, "ip_literal");  // bare IPv6
  if (port.empty() || port.size() > 5) return Refuse(400, "malformed_authority");
  for (char c : port) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return Refuse(400, "malformed_authority");
  }
  if (LooksLikeIpLiteral(host)) return Refuse(403, "ip_literal");
  if (host.find('@') != std::string_view::npos || host.find('%') != std::string_view::npos) {
    return Refuse(400, "malformed_authority");
  }
  std::optional<std::string> normal = NormalizeHost(host);
  if (!normal) return Refuse(400, "malformed_authority");
  if (*normal != allowed_host) return Refuse(403, "host_not_allowed");
  if (port != "443") return Refuse(403, "port_not_allowed");
  return Allow("tunnel_opened");
}

ParsedHead ParseRequestHead(std::string_view bytes) {
  ParsedHead out;
  const size_t end = bytes.find("\r\n\r\n");
  if (end == std::string_view::npos) {
    out.refusal = bytes.size() >= kMaxHeadBytes ? Refuse(431, "head_too_large")
                                                : Refuse(400, "incomplete_head");
    return out;
  }
  if (end + 4 > kMaxHeadBytes) {
    out.refusal = Refuse(431, "head_too_large");
    return out;
  }
  const std::string_view head = bytes.substr(0, end);
  // Bare LF or CR, NUL and other controls: refuse rather than guess how upstream splits lines.
  for (size_t i = 0; i < head.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(head[i]);
    if (c == '\r' && (i + 1 >= head.size() || head[i + 1] != '\n')) {
      out.refusal = Refuse(400, "bare_cr");
      return out;
    }
    if (c == '\n' && (i == 0 || head[i - 1] != '\r')) {
      out.refusal = Refuse(400, "bare_lf");
      return out;
    }
    if ((c < 0x20 && c != '\r' && c != '\n' && c != '\t') || c == 0x7f) {
      out.refusal = Refuse(400, "control_character");
      return out;
    }
  }
  RequestHead r;
  size_t line_end = head.find("\r\n");
  const std::string_view request_line = head.substr(0, line_end);
  const size_t sp1 = request_line.find(' ');
  const size_t sp2 = sp1 == std::string_view::npos ? sp1 : request_line.find(' ', sp1 + 1);
  if (sp1 == std::string_view::npos || sp2 == std::string_view::npos ||
      request_line.find(' ', sp2 + 1) != std::string_view::npos) {
    out.refusal = Refuse(400, "malformed_request_line");
    return out;
  }
  r.method = std::string(request_line.substr(0, sp1));
  r.target = std::string(request_line.substr(sp1 + 1, sp2 - sp1 - 1));
  r.version = std::string(request_line.substr(sp2 + 1));
  for (char c : r.method) {
    if (!IsTchar(c)) {
      out.refusal = Refuse(400, "malformed_request_line");
      return out;
    }
  }
  if (r.method.empty() || r.target.empty()) {
    out.refusal = Refuse(400, "malformed_request_line");
    return out;
  }
  size_t pos = line_end == std::string_view::npos ? head.size() : line_end + 2;
  while (pos < head.size()) {
    size_t next = head.find("\r\n", pos);
    if (next == std::string_view::npos) next = head.size();
    const std::string_view line = head.substr(pos, next - pos);
    pos = next + 2;
    if (line.front() == ' ' || line.front() == '\t') {
      out.refusal = Refuse(400, "obs_fold");
      return out;
    }
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      out.refusal = Refuse(400, "malformed_header");
      return out;
    }
    const std::string_view name = line.substr(0, colon);
    for (char c : name) {
      if (!IsTchar(c)) {  // includes "Name :" with a space before the colon
        out.refusal = Refuse(400, "malformed_header");
        return out;
      }
    }
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
      value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    r.headers.emplace_back(std::string(name), std::string(value));
    if (r.headers.size() > kMaxHeaders) {
      out.refusal = Refuse(431, "too_many_headers");
      return out;
    }
  }
  out.head = std::move(r);
  out.consumed = end + 4;
  return out;
}

Decision DecideRequest(const RequestHead& head, std::string_view sni,
                       std::string_view connect_host) {
  if (head.version != "HTTP/1.1") return Refuse(505, "http_version_not_allowed");
  if (head.method != "GET") return Refuse(405, "method_not_allowed");
  const std::string* host = nullptr;
  for (const auto& [name, value] : head.headers) {
    const std::string n = Lower(name);
    if (n == "content-length" || n == "transfer-encoding") return Refuse(400, "request_body");
    if (n == "upgrade") return Refuse(400, "upgrade");
    if (n == "connection" && Lower(value).find("upgrade") != std::string::npos) {
      return Refuse(400, "upgrade");
    }
    if (n == "host") {
      if (host != nullptr) return Refuse(400, "duplicate_host");
      host = &value;
    }
  }
  if (host == nullptr) return Refuse(400, "missing_host");
  std::string_view host_name = *host;
  if (const size_t colon = host_name.rfind(':'); colon != std::string_view::npos) {
    if (host_name.substr(colon + 1) != "443") return Refuse(421, "host_mismatch");
    host_name = host_name.substr(0, colon);
  }
  const std::optional<std::string> normal_host = NormalizeHost(host_name);
  const std::optional<std::string> normal_sni = NormalizeHost(sni);
  if (!normal_sni) return Refuse(421, "missing_sni");
  if (!normal_host || *normal_host != connect_host) return Refuse(421, "host_mismatch");
  if (*normal_sni != connect_host) return Refuse(421, "sni_mismatch");
  if (head.target.front() != '/') {
    // Absolute form must name the same https origin.
    const std::string prefix = "https://" + std::string(connect_host);
    const std::string lower = Lower(head.target);
    if (lower.rfind(prefix, 0) != 0) return Refuse(421, "absolute_target_other_host");
    const char after = lower.size() > prefix.size() ? lower[prefix.size()] : '/';
    if (after != '/' && after != ':' && after != '?') {
      return Refuse(421, "absolute_target_other_host");
    }
  }
  return Allow("request_forwarded");
}

}  // namespace azure_pricing::fakes::egress
