// The one fixed command: argv for `azmcp pricing get` without a shell, and the environment the
// CLI runs with. Nothing a host supplies can change the program, the subcommand or the
// destination; the arguments only fill typed options.
#ifndef REF_PRICING_COMMAND_H_
#define REF_PRICING_COMMAND_H_

#include <string>
#include <string_view>
#include <vector>

#include "ref/pricing/arguments.h"
#include "ref/pricing/region_plan.h"

namespace azure_pricing {

inline constexpr std::string_view kAzmcpPath = "/usr/local/bin/azmcp";

// ["/usr/local/bin/azmcp", "pricing", "get", "--sku", <sku>, "--service", ..., "--region", ...,
//  "--service-family", ..., "--price-type", ..., "--currency", <c>, ["--include-savings-plan"],
//  "--filter", "(" <raw> ")"]; options appear only when supplied, always in this order.
std::vector<std::string> BuildArgv(const ToolArguments& args);
// With an expanded region plan, --region is left out and the plan's filter (the region set ANDed
// with the parenthesized raw filter) takes the raw filter's place.
std::vector<std::string> BuildArgv(const ToolArguments& args, const RegionPlan& plan);

// The complete environment of the CLI: no credentials, no inherited variables, telemetry off.
// HOME and the .NET extraction directory point at the sandbox's own scratch space.
std::vector<std::string> CliEnvironment();

}  // namespace azure_pricing

#endif  // REF_PRICING_COMMAND_H_
