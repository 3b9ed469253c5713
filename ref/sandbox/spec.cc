#include "ref/sandbox/spec.h"

#include <array>
#include <utility>

namespace azure_pricing::sandbox {
namespace {

constexpr std::array<std::pair<OsFamily, std::string_view>, 2> kOsNames = {{
    {OsFamily::kPosix, "posix"},
    {OsFamily::kWindows, "windows"},
}};
constexpr std::array<std::pair<Isolation, std::string_view>, 7> kIsolationNames = {{
    {Isolation::kNone, "none"},
    {Isolation::kRuntime, "runtime"},
    {Isolation::kProcess, "os_process"},
    {Isolation::kContainer, "container"},
    {Isolation::kHardenedContainer, "hardened_container"},
    {Isolation::kMicrovm, "microvm"},
    {Isolation::kVm, "vm"},
}};
constexpr std::array<std::pair<Capability, std::string_view>, 11> kCapabilityNames = {{
    {Capability::kExec, "EXEC"},
    {Capability::kRunCode, "RUN_CODE"},
    {Capability::kHostTools, "HOST_TOOLS"},
    {Capability::kFilesIn, "FILES_IN"},
    {Capability::kFilesOut, "FILES_OUT"},
    {Capability::kFilesList, "FILES_LIST"},
    {Capability::kFilesDelete, "FILES_DELETE"},
    {Capability::kSnapshot, "SNAPSHOT"},
    {Capability::kAttachedIdentity, "ATTACHED_IDENTITY"},
    {Capability::kReclaim, "RECLAIM"},
    {Capability::kEgressMethods, "EGRESS_METHODS"},
}};
constexpr std::array<std::pair<Egress, std::string_view>, 3> kEgressNames = {{
    {Egress::kClosed, "closed"},
    {Egress::kAllowlist, "allowlist"},
    {Egress::kUnrestricted, "unrestricted"},
}};

template <typename T, size_t N>
std::string_view NameIn(const std::array<std::pair<T, std::string_view>, N>& table, T value) {
  for (const auto& [v, name] : table) {
    if (v == value) return name;
  }
  return "unknown";
}

template <typename T, size_t N>
std::optional<T> ParseIn(const std::array<std::pair<T, std::string_view>, N>& table,
                         std::string_view name) {
  for (const auto& [v, n] : table) {
    if (n == name) return v;
  }
  return std::nullopt;
}

bool IsHostName(std::string_view host) {
  if (host.empty() || host.size() > 253 || host.front() == '.' || host.back() == '.') {
    return false;
  }
  size_t label = 0;
  for (char c : host) {
    if (c == '.') {
      if (label == 0) return false;
      label = 0;
      continue;
    }
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok || ++label > 63) return false;
  }
  return true;
}

Status InvalidSpec(const char* message) {
  return Status(Outcome::kRefused, kInvalidSpec, message);
}

}  // namespace

std::set<Capability> RequiredCapabilities(const Spec& spec) {
  std::set<Capability> required = spec.required;
  for (const EgressRule& rule : spec.egress_allow) {
    if (rule.methods.has_value()) required.insert(Capability::kEgressMethods);
  }
  return required;
}

bool IsMethodToken(std::string_view token) {
  if (token.empty()) return false;
  for (char c : token) {
    const bool tchar = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
    if (!tchar) return false;
  }
  return true;
}

Status ValidateSpec(const Spec& spec) {
  if (spec.egress == Egress::kAllowlist && spec.egress_allow.empty()) {
    return InvalidSpec("An allowlist egress spec must name at least one destination.");
  }
  if (spec.egress != Egress::kAllowlist && !spec.egress_allow.empty()) {
    return InvalidSpec("Only an allowlist egress spec may name destinations.");
  }
  for (const EgressRule& rule : spec.egress_allow) {
    if (!IsHostName(rule.host)) {
      return InvalidSpec("An egress rule's host must be a lower-case DNS name without a port.");
    }
    if (rule.methods.has_value()) {
      if (rule.methods->empty()) {
        return InvalidSpec("A method-limited egress rule must allow at least one method.");
      }
      for (const std::string& m : *rule.methods) {
        if (!IsMethodToken(m)) {
          return InvalidSpec("An egress rule's methods must be HTTP method tokens.");
        }
      }
    }
  }
  return azure_pricing::OkStatus();
}

std::string_view Name(OsFamily value) { return NameIn(kOsNames, value); }
std::string_view Name(Isolation value) { return NameIn(kIsolationNames, value); }
std::string_view Name(Capability value) { return NameIn(kCapabilityNames, value); }
std::string_view Name(Egress value) { return NameIn(kEgressNames, value); }
std::string_view Name(IsolationScope value) {
  return value == IsolationScope::kCall ? "call" : "conversation";
}
std::string_view Name(Cleanup value) {
  switch (value) {
    case Cleanup::kReclaim:
      return "reclaim";
    case Cleanup::kReset:
      return "reset";
    case Cleanup::kDispose:
      return "dispose";
  }
  return "unknown";
}

std::optional<OsFamily> ParseOsFamily(std::string_view name) { return ParseIn(kOsNames, name); }
std::optional<Isolation> ParseIsolation(std::string_view name) {
  return ParseIn(kIsolationNames, name);
}
std::optional<Capability> ParseCapability(std::string_view name) {
  return ParseIn(kCapabilityNames, name);
}
std::optional<Egress> ParseEgress(std::string_view name) { return ParseIn(kEgressNames, name); }

}  // namespace azure_pricing::sandbox
