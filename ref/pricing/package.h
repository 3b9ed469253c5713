// The package's identity and its experimental status. The Python package the specification
// describes emits MafSandboxAzurePricingExperimentalWarning when it is imported; a C++ library
// has no import step, so the warning is emitted once per process on first use of any public
// entry point (MakeAzurePricingTools, PlanLookup, RunLookup).
#ifndef REF_PRICING_PACKAGE_H_
#define REF_PRICING_PACKAGE_H_

#include <string_view>

namespace azure_pricing {

// Version metadata. The package is not yet released.
inline constexpr char kPackageName[] = "maf-sandbox-azure-pricing";
inline constexpr char kPackageVersion[] = "0.0.0.dev0";
inline constexpr char kPackageStability[] = "experimental";

// What the image must provide at /usr/local/bin/azmcp, as the specification pins it. The npm
// registry does not publish that version; every CLI behaviour this project encodes was observed
// on kModelledOnCli, the newest published one.
inline constexpr char kImageCliContract[] = "Azure MCP 4.0.0-beta.4 pricing get";
// The npm version of @azure/mcp-linux-x64 that contract names: the image recipe's default
// (tools/image/Containerfile).
inline constexpr char kPinnedCliVersion[] = "4.0.0-beta.4";
static_assert(std::string_view(kImageCliContract).find(kPinnedCliVersion) !=
              std::string_view::npos);
inline constexpr char kModelledOnCli[] = "azmcp 3.0.0-beta.46";
// One line for programs and the gate to print.
inline constexpr char kCliProvenanceLine[] =
    "modelled on azmcp 3.0.0-beta.46 (spec pins 4.0.0-beta.4, unpublished)";

inline constexpr char kExperimentalWarningCategory[] = "MafSandboxAzurePricingExperimentalWarning";
inline constexpr char kExperimentalWarning[] =
    "maf-sandbox-azure-pricing is experimental. Its API may change or be removed without "
    "notice. This package is not yet released.";

// Where a host wants warnings (Python's warnings module, in the original).
class Logger {
 public:
  virtual ~Logger() = default;
  virtual void Warning(std::string_view category, std::string_view message) = 0;
};

// Emits the experimental warning the first time any entry point runs in this process: through
// `logger`, or on stderr when the caller passed none.
void WarnExperimentalOnce(Logger* logger);

// Makes the next use count as the first again: for tests, and for hosts that model a fresh
// process per call (the conformance scripted host does, so every case sees the warning).
void ResetExperimentalWarning();

}  // namespace azure_pricing

#endif  // REF_PRICING_PACKAGE_H_
