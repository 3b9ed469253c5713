// The keys of a host call's configuration, written once. The scripted host accepts exactly these
// (any other is invalid_configuration), the case runner passes a case's configuration parts on by
// these names, and case_format_test holds case.schema.json to the same table, so a key added here
// and not to the schema (or the reverse) fails a test instead of failing cases. What each key
// means is in conformance/testee/PROTOCOL.md ("The call's configuration, member by member").
#ifndef CONFORMANCE_HOST_CONFIG_KEYS_H_
#define CONFORMANCE_HOST_CONFIG_KEYS_H_

#include <span>
#include <string_view>

namespace azure_pricing::conformance::host {

// The parts of a case a host call is configured from: the host JSON, the backend JSON, the
// labels JSON and the middleware chain (ScriptedCall's host, backend, labels and middleware).
inline constexpr std::string_view kConfigurationParts[] = {"host", "backend", "labels",
                                                           "middleware"};

inline constexpr std::string_view kHostKeys[] = {
    "image",    "agent_id",        "exec_timeout_seconds", "max_output_bytes",
    "max_rows", "outbound_max_confidentiality", "egress_integrity", "confidentiality",
    "router"};
inline constexpr std::string_view kRouterKeys[] = {"present", "enabled", "min_isolation",
                                                   "has_backend", "denied_capabilities"};
inline constexpr std::string_view kBackendKeys[] = {
    "name",         "os_families",          "isolation",    "capabilities",
    "egress_modes", "egress_method_tokens", "bounded_exec", "withhold_bounded_exec"};
inline constexpr std::string_view kLabelsKeys[] = {"conversation", "arguments"};
inline constexpr std::string_view kLabelKeys[] = {"integrity", "confidentiality"};

// Each configuration object and where a case file nests it: "a.b" is member b of a, "a[]" an
// item of the list a.
struct ConfigObject {
  std::string_view path;
  std::span<const std::string_view> keys;
};

inline constexpr ConfigObject kConfigObjects[] = {
    {"host", kHostKeys},
    {"host.router", kRouterKeys},
    {"backend", kBackendKeys},
    {"labels", kLabelsKeys},
    {"labels.conversation", kLabelKeys},
    {"labels.arguments[]", kLabelKeys},
};

}  // namespace azure_pricing::conformance::host

#endif  // CONFORMANCE_HOST_CONFIG_KEYS_H_
