#include "tools/bench/rows.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

namespace azure_pricing::tools::bench {

void PrintRow(const Row& row) {
  const nlohmann::ordered_json j = {
      {"measure", row.measure},         {"figure", row.figure},
      {"unit", row.unit},               {"baseline", row.baseline},
      {"baseline_figure", row.baseline_figure}, {"ratio", row.ratio},
      {"ratio_meaning", row.ratio_meaning}, {"floor", row.floor},
      {"verdict", row.verdict},         {"note", row.note}};
  std::printf("%s\n", j.dump().c_str());
  std::fflush(stdout);
}

double PeakRssMiB(int pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr) / 1024;
  }
  return 0;
}

double Percentile(std::vector<double> samples, double p) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  const size_t i =
      std::min(samples.size() - 1, static_cast<size_t>(p * static_cast<double>(samples.size())));
  return samples[i];
}

}  // namespace azure_pricing::tools::bench
