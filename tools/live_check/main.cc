// live_check: the opt-in check of the pinned CLI contract against the real prices.azure.com
// (usage: live_tool.cc, or --help).
#include "ref/base/main_guard.h"
#include "tools/live_check/live_tool.h"

static int UnguardedMain(int argc, char** argv) {
  return azure_pricing::tools::live_check::LiveToolMain(argc, argv, azure_pricing::tools::live_check::LiveTool::kLiveCheck);
}

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("live_check", [&] { return UnguardedMain(argc, argv); });
}
