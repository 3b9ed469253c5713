#include "ref/pricing/command.h"

#include <gtest/gtest.h>

#include "conformance/citations/cites.h"

namespace azure_pricing {
CITES("INTRO-002", "INTRO-005", "INTRO-010", "HOST-015", "HOST-016", "ARG-003", "ARG-007",
      "PROJECT-005");
namespace {

TEST(CommandTest, MinimalArgvIsTheFixedSubcommandWithDefaultCurrency) {
  ToolArguments args;
  args.sku = "Standard_D4s_v5";
  EXPECT_EQ(BuildArgv(args),
            (std::vector<std::string>{"/usr/local/bin/azmcp", "pricing", "get", "--sku",
                                      "Standard_D4s_v5", "--currency", "USD"}));
}

TEST(CommandTest, RawFilterIsParenthesizedAndOtherwiseUntouched) {
  ToolArguments args;
  args.filter = "a eq 'x' or b eq 'y''s'";
  const std::vector<std::string> argv = BuildArgv(args);
  ASSERT_GE(argv.size(), 2u);
  EXPECT_EQ(argv[argv.size() - 2], "--filter");
  EXPECT_EQ(argv.back(), "(a eq 'x' or b eq 'y''s')");
}

TEST(CommandTest, NoReadOnlyAndNothingButTheFixedProgram) {
  ToolArguments args;
  args.sku = "a";
  args.include_savings_plan = true;
  const std::vector<std::string> argv = BuildArgv(args);
  EXPECT_EQ(argv[0], kAzmcpPath);
  for (const std::string& a : argv) {
    EXPECT_NE(a, "--read-only");
    EXPECT_EQ(a.find("prices.azure"), std::string::npos);
  }
}

TEST(CommandTest, EnvironmentCarriesNoCredentialsAndTurnsTelemetryOff) {
  const std::vector<std::string> env = CliEnvironment();
  bool telemetry_off = false, microsoft_telemetry_off = false;
  for (const std::string& var : env) {
    const std::string name = var.substr(0, var.find('='));
    for (const char* banned :
         {"AZURE_CLIENT", "AZURE_TENANT", "AZURE_USERNAME", "AZURE_PASSWORD", "AZURE_FEDERATED",
          "IDENTITY_", "MSI_", "AWS_", "TOKEN", "SECRET", "HTTP_PROXY", "HTTPS_PROXY"}) {
      EXPECT_EQ(name.find(banned), std::string::npos) << var;
    }
    telemetry_off |= var == "AZURE_MCP_COLLECT_TELEMETRY=false";
    microsoft_telemetry_off |= var == "AZURE_MCP_COLLECT_TELEMETRY_MICROSOFT=false";
  }
  EXPECT_TRUE(telemetry_off);
  EXPECT_TRUE(microsoft_telemetry_off);
}

}  // namespace
}  // namespace azure_pricing
