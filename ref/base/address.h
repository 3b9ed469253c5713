// `host:port` text as programs take it on their command lines. Non-semantic: it knows the shape
// of an address, nothing about which hosts a program may use.
#ifndef REF_BASE_ADDRESS_H_
#define REF_BASE_ADDRESS_H_

#include <string>
#include <string_view>

#include "ref/status/status.h"

namespace azure_pricing::base {

// Reason codes of program errors (ProgramError). Messages never contain the text that was given.
inline constexpr Reason kAddressMissingPort = "address_missing_port";
inline constexpr Reason kAddressMissingHost = "address_missing_host";
inline constexpr Reason kAddressBadPort = "address_bad_port";
inline constexpr Reason kAddressBadBrackets = "address_bad_brackets";

struct HostPort {
  std::string host;  // without brackets: "::1" for "[::1]:443"
  int port = 0;      // 0 to 65535; 0 means "pick one" to a program that binds
};

// "host:port" or "[ipv6]:port". The port is decimal digits only. Unbracketed text is split at
// its last colon, so "::1:443" still reads as host "::1", as the programs always read it.
StatusOr<HostPort> ParseHostPort(std::string_view text);

}  // namespace azure_pricing::base

#endif  // REF_BASE_ADDRESS_H_
