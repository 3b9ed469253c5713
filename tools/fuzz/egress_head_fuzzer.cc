// libFuzzer target: any bytes as what a client sends the egress proxy, read both as the CONNECT
// head (stage 1) and as the request head inside the tunnel (stage 3). Invariants: nothing crashes;
// a tunnel opens only for "CONNECT prices.azure.com:443 HTTP/1.1" (host in any letter case, one
// trailing dot); a parsed head is bounded, free of CR, LF and NUL, and prints back to a head that
// parses to the same fields; a request is forwarded only as a body-less GET over HTTP/1.1 with
// exactly one Host naming the allowed host; every refusal is a 4xx or 5xx with a reason.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "ref/egress/policy.h"

namespace {

namespace egress = azure_pricing::egress;

constexpr char kAllowed[] = "prices.azure.com";

void Require(bool condition) {
  if (!condition) std::abort();
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return out;
}

bool Clean(std::string_view s) {
  return s.find_first_of(std::string_view("\r\n\0", 3)) == std::string_view::npos;
}

void CheckRefusal(const egress::Decision& d) {
  Require(!d.allowed && d.status >= 400 && d.status < 600 && !d.reason.empty());
}

void CheckConnect(std::string_view bytes) {
  const std::optional<std::string> authority = egress::ConnectAuthority(bytes);
  if (!authority) return;
  // A split, not a judgement: any other byte in the target is DecideConnect's to refuse.
  const std::string line = "CONNECT " + *authority + " HTTP/1.1";
  Require(authority->find(' ') == std::string::npos && bytes.substr(0, line.size()) == line);
  Require(bytes.size() == line.size() || bytes.substr(line.size(), 2) == "\r\n");
  const egress::Decision d = egress::DecideConnect(*authority, kAllowed);
  if (!d.allowed) return CheckRefusal(d);
  const std::string lower = Lower(*authority);
  Require(lower == "prices.azure.com:443" || lower == "prices.azure.com.:443");
}

// The head printed back from its fields: the request line, each header, the blank line.
std::string Print(const egress::RequestHead& head) {
  std::string out = head.method + " " + head.target + " " + head.version + "\r\n";
  for (const auto& [name, value] : head.headers) out += name + ": " + value + "\r\n";
  return out + "\r\n";
}

void CheckForwarded(const egress::RequestHead& head) {
  Require(head.method == "GET" && head.version == "HTTP/1.1");
  int hosts = 0;
  for (const auto& [name, value] : head.headers) {
    const std::string n = Lower(name);
    Require(n != "content-length" && n != "transfer-encoding" && n != "upgrade");
    if (n != "host") continue;
    ++hosts;
    const std::string v = Lower(value);
    Require(v == kAllowed || v == "prices.azure.com." || v == "prices.azure.com:443" ||
            v == "prices.azure.com.:443");
  }
  Require(hosts == 1);
  Require(head.target.front() == '/' ||
          Lower(head.target).rfind("https://prices.azure.com", 0) == 0);
}

void CheckRequest(std::string_view bytes) {
  const egress::ParsedHead parsed = egress::ParseRequestHead(bytes);
  if (!parsed.head) return CheckRefusal(parsed.refusal);
  const egress::RequestHead& head = *parsed.head;
  Require(parsed.consumed <= bytes.size() && parsed.consumed <= egress::kMaxHeadBytes);
  Require(bytes.substr(parsed.consumed - 4, 4) == "\r\n\r\n");
  Require(!head.method.empty() && !head.target.empty() &&
          head.headers.size() <= egress::kMaxHeaders);
  Require(Clean(head.method) && Clean(head.target) && Clean(head.version));
  for (const auto& [name, value] : head.headers) Require(Clean(name) && Clean(value));
  const std::string printed = Print(head);
  const egress::ParsedHead again = egress::ParseRequestHead(printed);
  Require(again.head && again.consumed == printed.size());
  Require(again.head->method == head.method && again.head->target == head.target &&
          again.head->version == head.version && again.head->headers == head.headers);
  const egress::Decision d = egress::DecideRequest(head, kAllowed, kAllowed);
  if (d.allowed) return CheckForwarded(head);
  CheckRefusal(d);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  CheckConnect(bytes);
  CheckRequest(bytes);
  // The authority alone, as DecideConnect would see any CONNECT target.
  const egress::Decision d = egress::DecideConnect(bytes, kAllowed);
  if (d.allowed) {
    const std::string lower = Lower(bytes);
    Require(lower == "prices.azure.com:443" || lower == "prices.azure.com.:443");
  } else {
    CheckRefusal(d);
  }
  return 0;
}
