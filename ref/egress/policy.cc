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

std::optional<std::string> ConnectAuthority(std::string_view head) {
  const std::string_view line = head.substr(0, head.find("\r\n"));
  const size_t sp1 = line.find(' ');
  if (sp1 == std::string_view::npos || line.substr(0, sp1) != "CONNECT") return std::nullopt;
  const size_t sp2 = line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || line.substr(sp2 + 1) != "HTTP/1.1") return std::nullopt;
  return std::string(line.substr(sp1 + 1, sp2 - sp1 - 1));
}

Decision DecideConnect(std::string_view authority, std::string_view allowed_host) {
  if (authority.empty() || authority.size() > 300) return Refuse(400, kMalformedAuthority);
  std::string_view host;
  std::string_view port;
  if (authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return Refuse(400, kMalformedAuthority);
    return Refuse(403, kIpLiteral);
  }
  const size_t colon = authority.rfind(':');
  if (colon == std::string_view::npos) return Refuse(400, kMissingPort);
  host = authority.substr(0, colon);
  port = authority.substr(colon + 1);
  if (host.find(':') != std::string_view::npos) return Refuse(403, kIpLiteral);  // bare IPv6
  if (port.empty() || port.size() > 5) return Refuse(400, kMalformedAuthority);
  for (char c : port) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return Refuse(400, kMalformedAuthority);
  }
  if (LooksLikeIpLiteral(host)) return Refuse(403, kIpLiteral);
  if (host.find('@') != std::string_view::npos || host.find('%') != std::string_view::npos) {
    return Refuse(400, kMalformedAuthority);
  }
  std::optional<std::string> normal = NormalizeHost(host);
  if (!normal) return Refuse(400, kMalformedAuthority);
  if (*normal != allowed_host) return Refuse(403, kHostNotAllowed);
  if (port != "443") return Refuse(403, kPortNotAllowed);
  return Allow(kTunnelOpened);
}

namespace {

// Bare LF or CR, NUL and other controls: refuse rather than guess how upstream splits lines.
std::optional<Decision> CheckCharacters(std::string_view head) {
  for (size_t i = 0; i < head.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(head[i]);
    if (c == '\r' && (i + 1 >= head.size() || head[i + 1] != '\n')) return Refuse(400, kBareCr);
    if (c == '\n' && (i == 0 || head[i - 1] != '\r')) return Refuse(400, kBareLf);
    if ((c < 0x20 && c != '\r' && c != '\n' && c != '\t') || c == 0x7f) {
      return Refuse(400, kControlCharacter);
    }
  }
  return std::nullopt;
}

// "METHOD SP target SP version", exactly two spaces, a token for a method.
std::optional<Decision> ParseRequestLine(std::string_view line, RequestHead& r) {
  const size_t sp1 = line.find(' ');
  const size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp1 == std::string_view::npos || sp2 == std::string_view::npos ||
      line.find(' ', sp2 + 1) != std::string_view::npos) {
    return Refuse(400, kMalformedRequestLine);
  }
  r.method = std::string(line.substr(0, sp1));
  r.target = std::string(line.substr(sp1 + 1, sp2 - sp1 - 1));
  r.version = std::string(line.substr(sp2 + 1));
  for (char c : r.method) {
    if (!IsTchar(c)) return Refuse(400, kMalformedRequestLine);
  }
  if (r.method.empty() || r.target.empty()) return Refuse(400, kMalformedRequestLine);
  return std::nullopt;
}

std::optional<Decision> ParseHeaderLine(std::string_view line, RequestHead& r) {
  if (line.front() == ' ' || line.front() == '\t') return Refuse(400, kObsFold);
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return Refuse(400, kMalformedHeader);
  const std::string_view name = line.substr(0, colon);
  for (char c : name) {
    // Includes "Name :" with a space before the colon.
    if (!IsTchar(c)) return Refuse(400, kMalformedHeader);
  }
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  r.headers.emplace_back(std::string(name), std::string(value));
  if (r.headers.size() > kMaxHeaders) return Refuse(431, kTooManyHeaders);
  return std::nullopt;
}

std::optional<Decision> ParseHead(std::string_view head, RequestHead& r) {
  if (std::optional<Decision> refusal = CheckCharacters(head)) return refusal;
  const size_t line_end = head.find("\r\n");
  if (std::optional<Decision> refusal = ParseRequestLine(head.substr(0, line_end), r)) {
    return refusal;
  }
  size_t pos = line_end == std::string_view::npos ? head.size() : line_end + 2;
  while (pos < head.size()) {
    size_t next = head.find("\r\n", pos);
    if (next == std::string_view::npos) next = head.size();
    if (std::optional<Decision> refusal = ParseHeaderLine(head.substr(pos, next - pos), r)) {
      return refusal;
    }
    pos = next + 2;
  }
  return std::nullopt;
}

}  // namespace

ParsedHead ParseRequestHead(std::string_view bytes) {
  ParsedHead out;
  const size_t end = bytes.find("\r\n\r\n");
  if (end == std::string_view::npos) {
    out.refusal =
        bytes.size() >= kMaxHeadBytes ? Refuse(431, kHeadTooLarge) : Refuse(400, kIncompleteHead);
    return out;
  }
  if (end + 4 > kMaxHeadBytes) {
    out.refusal = Refuse(431, kHeadTooLarge);
    return out;
  }
  RequestHead r;
  if (std::optional<Decision> refusal = ParseHead(bytes.substr(0, end), r)) {
    out.refusal = std::move(*refusal);
    return out;
  }
  out.head = std::move(r);
  out.consumed = end + 4;
  return out;
}

Decision DecideRequest(const RequestHead& head, std::string_view sni,
                       std::string_view connect_host) {
  if (head.version != "HTTP/1.1") return Refuse(505, kHttpVersionNotAllowed);
  if (head.method != "GET") return Refuse(405, kMethodNotAllowed);
  const std::string* host = nullptr;
  for (const auto& [name, value] : head.headers) {
    const std::string n = Lower(name);
    if (n == "content-length" || n == "transfer-encoding") return Refuse(400, kRequestBody);
    if (n == kUpgrade) return Refuse(400, kUpgrade);
    if (n == "connection" && Lower(value).find(kUpgrade) != std::string::npos) {
      return Refuse(400, kUpgrade);
    }
    if (n == "host") {
      if (host != nullptr) return Refuse(400, kDuplicateHost);
      host = &value;
    }
  }
  if (host == nullptr) return Refuse(400, kMissingHost);
  std::string_view host_name = *host;
  if (const size_t colon = host_name.rfind(':'); colon != std::string_view::npos) {
    if (host_name.substr(colon + 1) != "443") return Refuse(421, kHostMismatch);
    host_name = host_name.substr(0, colon);
  }
  const std::optional<std::string> normal_host = NormalizeHost(host_name);
  const std::optional<std::string> normal_sni = NormalizeHost(sni);
  if (!normal_sni) return Refuse(421, kMissingSni);
  if (!normal_host || *normal_host != connect_host) return Refuse(421, kHostMismatch);
  if (*normal_sni != connect_host) return Refuse(421, kSniMismatch);
  if (head.target.front() != '/') {
    // Absolute form must name the same https origin.
    const std::string prefix = "https://" + std::string(connect_host);
    const std::string lower = Lower(head.target);
    if (lower.rfind(prefix, 0) != 0) return Refuse(421, kAbsoluteTargetOtherHost);
    const char after = lower.size() > prefix.size() ? lower[prefix.size()] : '/';
    if (after != '/' && after != ':' && after != '?') {
      return Refuse(421, kAbsoluteTargetOtherHost);
    }
  }
  return Allow(kRequestForwarded);
}

}  // namespace azure_pricing::egress
