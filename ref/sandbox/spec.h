// The sandbox protocol model: what a tool asks of a sandbox (Spec) and what a backend declares it
// can enforce. The vocabulary follows the public maf-sandbox package (sokolaidev/maf-extensions)
// so that a backend implementer reads the same words here as in the Python protocol.
//
//   sandbox::Spec spec;
//   spec.min_isolation = sandbox::Isolation::kContainer;
//   spec.required = {sandbox::Capability::kExec};
//   spec.egress = sandbox::Egress::kAllowlist;
//   spec.egress_allow = {{"prices.azure.com", std::set<std::string>{"GET"}}};
//   // RequiredCapabilities(spec) now also holds kEgressMethods: a method-limited rule needs it.
#ifndef REF_SANDBOX_SPEC_H_
#define REF_SANDBOX_SPEC_H_

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ref/status/status.h"

namespace azure_pricing::sandbox {

using azure_pricing::Outcome;
using azure_pricing::Status;
using azure_pricing::StatusOr;

// Path grammar and argv quoting of the guest, not what is installed in it.
enum class OsFamily { kPosix, kWindows };

// The isolation ladder, weakest first; the enumerator order is the rank.
enum class Isolation {
  kNone,
  kRuntime,
  kProcess,
  kContainer,
  kHardenedContainer,  // gVisor class
  kMicrovm,            // Firecracker, Kata, ACA Sandboxes
  kVm,
};

enum class Capability {
  kExec,
  kRunCode,
  kHostTools,
  kFilesIn,
  kFilesOut,
  kFilesList,
  kFilesDelete,
  kSnapshot,
  kAttachedIdentity,
  kReclaim,
  kEgressMethods,  // the backend can limit egress by HTTP method, not only by host
};

enum class Egress { kClosed, kAllowlist, kUnrestricted };

enum class IsolationScope { kConversation, kCall };

// Cleanup rungs, weakest first.
enum class Cleanup { kReclaim, kReset, kDispose };

// One allowed destination. `methods` unset means any method (the rule is then just the host).
struct EgressRule {
  std::string host;
  std::optional<std::set<std::string>> methods;

  bool operator==(const EgressRule& other) const {
    return host == other.host && methods == other.methods;
  }
};

struct Spec {
  OsFamily os_family = OsFamily::kPosix;
  Isolation min_isolation = Isolation::kContainer;
  std::set<Capability> required;  // maf-sandbox calls this `requires`
  Egress egress = Egress::kClosed;
  std::vector<EgressRule> egress_allow;
  IsolationScope isolation_scope = IsolationScope::kConversation;
  Cleanup cleanup = Cleanup::kDispose;
  std::string image;
};

// The spec's own requirements plus what its egress rules derive: any method-limited rule needs
// kEgressMethods.
std::set<Capability> RequiredCapabilities(const Spec& spec);

// A spec that says what it means: an allowlist has at least one rule, a closed or unrestricted
// spec has none, hosts are lower-case DNS names without a port, and method tokens are RFC 9110
// tokens (case-sensitive, so "get" is not "GET").
inline constexpr Reason kInvalidSpec = "sandbox_invalid_spec";

Status ValidateSpec(const Spec& spec);

bool IsMethodToken(std::string_view token);

std::string_view Name(OsFamily value);
std::string_view Name(Isolation value);
std::string_view Name(Capability value);
std::string_view Name(Egress value);
std::string_view Name(IsolationScope value);
std::string_view Name(Cleanup value);

// Inverse of Name, for declarations read from JSON (conformance cases, --backend-json).
std::optional<OsFamily> ParseOsFamily(std::string_view name);
std::optional<Isolation> ParseIsolation(std::string_view name);
std::optional<Capability> ParseCapability(std::string_view name);
std::optional<Egress> ParseEgress(std::string_view name);

}  // namespace azure_pricing::sandbox

#endif  // REF_SANDBOX_SPEC_H_
