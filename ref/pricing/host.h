// Host setup: make_azure_pricing_tools. Attaches the fixed pricing spec to the host's sandbox
// router and returns the one azure_pricing_get tool, whose function validates the arguments
// (refusing before any sandbox exists), acquires a fresh sandbox for the call, runs the fixed
// argv through the backend's BoundedExec, disposes the sandbox on every path, and returns a
// SandboxResult: fixed messages and standing guidance in the trusted part, the price report in
// `output`, stamped untrusted unless this call earned promotion.
//
//   azure_pricing::ToolOptions options;
//   options.image = "registry.example/azmcp-pricing:4.0.0-beta.4";
//   options.outbound_max_confidentiality = "public";
//   StatusOr<std::vector<labels::Tool>> tools =
//       azure_pricing::MakeAzurePricingTools(&router, "agent-1", {"session-1"}, options, &logger);
//   // tools->empty() when the router is disabled or absent; an error when the backend cannot
//   // serve the spec (below container, no EXEC/EGRESS_METHODS, no GET token, no BoundedExec).
//
// The package is experimental: the first use of any entry point in a process warns, here through
// the host's logger (category MafSandboxAzurePricingExperimentalWarning; see package.h).
#ifndef REF_PRICING_HOST_H_
#define REF_PRICING_HOST_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ref/labels/labels.h"
#include "ref/labels/tool.h"
#include "ref/pricing/bounds.h"
#include "ref/pricing/package.h"
#include "ref/pricing/reasons.h"
#include "ref/sandbox/router.h"
#include "ref/sandbox/spec.h"
#include "ref/status/status.h"

namespace azure_pricing {

inline constexpr char kPricingHost[] = "prices.azure.com";

// Additional-property keys the tool writes besides the framework's own.
inline constexpr char kDerivedIntegrity[] = "maf_sandbox_derived_integrity";
inline constexpr char kIsolationScopeProperty[] = "isolation_scope";
inline constexpr char kEgressIntegrityProperty[] = "egress_integrity";

// Who is calling: sandboxes are keyed by agent, session and call.
struct CallerContext {
  std::string session_id;
};

struct ToolOptions {
  std::string image;  // required
  HostBounds bounds;
  // Written as the tool's max_allowed_confidentiality; unset writes no cap (core's opt-in
  // classification). Only a policy middleware acts on it.
  std::optional<std::string> outbound_max_confidentiality;
  // The host vouches for the fixed Microsoft pricing source (SourceIntegrity.TRUSTED).
  std::optional<labels::Integrity> egress_integrity;
  // The host's result confidentiality; the report is never labelled below it (public floor).
  std::optional<labels::Confidentiality> confidentiality;
};

// The fixed spec: POSIX, container or stronger, EXEC, per-call scope, dispose, and egress
// allowlisted to exactly GET prices.azure.com. No option widens it.
sandbox::Spec PricingSandboxSpec(const std::string& image);

// The SandboxResult parts, in the order the tool returns them as content items.
inline constexpr char kCompletedItem[] = "completed";
inline constexpr char kGuidanceItem[] = "guidance";
inline constexpr char kOutputItem[] = "output";

// The router and its backends must outlive every copy of the returned tool: the tool holds the
// router by pointer, as a host holds its configured router for the agent's lifetime.
StatusOr<std::vector<labels::Tool>> MakeAzurePricingTools(sandbox::Router* router,
                                                          const std::string& agent_id,
                                                          const CallerContext& context,
                                                          const ToolOptions& options,
                                                          Logger* logger);

}  // namespace azure_pricing

#endif  // REF_PRICING_HOST_H_
