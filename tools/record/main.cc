// record: captures what the live check's queries saw (upstream pages at the egress proxy, the
// CLI's outputs) into a recording directory with provenance (usage: --help).
#include "tools/live_check/live_tool.h"

int main(int argc, char** argv) {
  return azure_pricing::tools::LiveToolMain(argc, argv, azure_pricing::tools::LiveTool::kRecord);
}
