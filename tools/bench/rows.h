// One measure of the benchmark table (ROWS.md): what every benchmark prints with --rows, one
// JSON object per line, for //tools/bench:all.
#ifndef TOOLS_BENCH_ROWS_H_
#define TOOLS_BENCH_ROWS_H_

#include <string>
#include <vector>

namespace azure_pricing::tools::bench {

struct Row {
  std::string measure;
  double figure = 0;
  std::string unit;
  std::string baseline;
  double baseline_figure = 0;
  double ratio = 0;
  std::string ratio_meaning = "figure / baseline";
  std::string floor = "-";
  std::string verdict = "info";  // met | missed | info
  std::string note;
};

// The row as one line of JSON on stdout.
void PrintRow(const Row& row);

// The peak resident set (VmHWM of /proc/PID/status) of a process in MiB; 0 when unreadable.
double PeakRssMiB(int pid);

// The p-quantile (0..1) of samples, nearest rank.
double Percentile(std::vector<double> samples, double p);

// "met" when `ok`, else "missed".
inline std::string Verdict(bool ok) { return ok ? "met" : "missed"; }

}  // namespace azure_pricing::tools::bench

#endif  // TOOLS_BENCH_ROWS_H_
