#include "ref/base/address.h"

#include <cctype>

#include "ref/status/status_macros.h"

namespace azure_pricing::base {
namespace {

Status Refuse(Reason reason, const char* message) { return ProgramError(reason, message); }

StatusOr<int> ParsePort(std::string_view digits) {
  if (digits.empty()) return Refuse(kAddressMissingPort, "the address has no port");
  if (digits.size() > 5) return Refuse(kAddressBadPort, "the port is not a number from 0 to 65535");
  int port = 0;
  for (const char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) {
      return Refuse(kAddressBadPort, "the port is not a number from 0 to 65535");
    }
    port = port * 10 + (c - '0');
  }
  if (port > 65535) return Refuse(kAddressBadPort, "the port is not a number from 0 to 65535");
  return port;
}

}  // namespace

StatusOr<HostPort> ParseHostPort(std::string_view text) {
  std::string_view host;
  std::string_view rest;
  if (!text.empty() && text.front() == '[') {
    const size_t close = text.find(']');
    if (close == std::string_view::npos || close == 1) {
      return Refuse(kAddressBadBrackets, "a bracketed address needs an IPv6 host and a `]`");
    }
    host = text.substr(1, close - 1);
    rest = text.substr(close + 1);
    if (rest.empty() || rest.front() != ':') {
      return Refuse(kAddressMissingPort, "the address has no port");
    }
    rest.remove_prefix(1);
  } else {
    const size_t colon = text.rfind(':');
    if (colon == std::string_view::npos) {
      return Refuse(kAddressMissingPort, "the address has no port");
    }
    host = text.substr(0, colon);
    rest = text.substr(colon + 1);
    if (host.find_first_of("[]") != std::string_view::npos) {
      return Refuse(kAddressBadBrackets, "a bracketed address needs an IPv6 host and a `]`");
    }
  }
  if (host.empty()) return Refuse(kAddressMissingHost, "the address has no host");
  ASSIGN_OR_RETURN(int port, ParsePort(rest));
  return HostPort{std::string(host), port};
}

}  // namespace azure_pricing::base
