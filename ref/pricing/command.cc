#include "ref/pricing/command.h"

namespace azure_pricing {

std::vector<std::string> BuildArgv(const ToolArguments& args) {
  return BuildArgv(args, RegionPlan());
}

std::vector<std::string> BuildArgv(const ToolArguments& args, const RegionPlan& plan) {
  std::vector<std::string> argv = {std::string(kAzmcpPath), "pricing", "get"};
  auto add = [&argv](std::string_view option, const std::optional<std::string>& value) {
    if (!value.has_value()) return;
    argv.emplace_back(option);
    argv.push_back(*value);
  };
  add("--sku", args.sku);
  add("--service", args.service);
  if (!plan.expanded) add("--region", args.region);
  add("--service-family", args.service_family);
  add("--price-type", args.price_type);
  argv.emplace_back("--currency");
  argv.push_back(args.currency);
  if (args.include_savings_plan) argv.emplace_back("--include-savings-plan");
  if (plan.expanded) {
    argv.emplace_back("--filter");
    argv.push_back(plan.filter);
  } else if (args.filter.has_value()) {
    // The CLI joins clauses with " and " and adds no parentheses; without ours an "or" in the
    // raw filter would escape the typed filters.
    argv.emplace_back("--filter");
    argv.push_back("(" + *args.filter + ")");
  }
  return argv;
}

std::vector<std::string> CliEnvironment() {
  return {
      "PATH=/usr/local/bin:/usr/bin:/bin",
      "HOME=/tmp/azmcp-home",
      "DOTNET_BUNDLE_EXTRACT_BASE_DIR=/tmp/azmcp-home/.net",
      "DOTNET_CLI_TELEMETRY_OPTOUT=1",
      "AZURE_MCP_COLLECT_TELEMETRY=false",
      "AZURE_MCP_COLLECT_TELEMETRY_MICROSOFT=false",
      "LANG=C.UTF-8",
  };
}

}  // namespace azure_pricing
