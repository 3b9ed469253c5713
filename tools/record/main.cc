// record: captures what the live check's queries saw (upstream pages at the egress proxy, the
// CLI's outputs) into a recording directory with provenance (usage: --help).
#include "ref/base/main_guard.h"
#include "tools/live_check/live_tool.h"

static int UnguardedMain(int argc, char** argv) {
  return azure_pricing::tools::live_check::LiveToolMain(argc, argv, azure_pricing::tools::live_check::LiveTool::kRecord);
}

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("record", [&] { return UnguardedMain(argc, argv); });
}
