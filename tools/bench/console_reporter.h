// Google Benchmark's console output as a person should get it from our benchmarks:
// - colour only on a terminal (a ConsoleReporter made by hand defaults to colour even into a
//   file, which is how escape codes ended up in saved results);
// - no "***WARNING*** Library was built as DEBUG" line. Debian builds libbenchmark without
//   NDEBUG, so the warning is about the library's own assertions, not about our code (built
//   -c opt); every figure we report is a ratio against a baseline measured by the same library in
//   the same run. One line says so instead.
#ifndef TOOLS_BENCH_CONSOLE_REPORTER_H_
#define TOOLS_BENCH_CONSOLE_REPORTER_H_

#include <string>

#include <benchmark/benchmark.h>

namespace azure_pricing::tools::bench {

class ConsoleReporter : public benchmark::ConsoleReporter {
 public:
  ConsoleReporter();
  bool ReportContext(const Context& context) override;
};

// The context block without the library's DEBUG warning (exposed for the test).
std::string ContextWithoutDebugWarning(const std::string& context_text);

}  // namespace azure_pricing::tools::bench

#endif  // TOOLS_BENCH_CONSOLE_REPORTER_H_
