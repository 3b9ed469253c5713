// live_check: the opt-in check of the pinned CLI contract against the real prices.azure.com
// (usage: live_tool.cc, or --help).
#include "tools/live_check/live_tool.h"

int main(int argc, char** argv) {
  return azure_pricing::tools::LiveToolMain(argc, argv, azure_pricing::tools::LiveTool::kLiveCheck);
}
