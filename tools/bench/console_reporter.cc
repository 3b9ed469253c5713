#include "tools/bench/console_reporter.h"

#include <unistd.h>

#include <sstream>

namespace azure_pricing::tools::bench {
namespace {

constexpr char kDebugWarning[] = "***WARNING*** Library was built as DEBUG";
constexpr char kDebugNote[] =
    "note: Debian's libbenchmark is built without NDEBUG (its own assertions are on); our code "
    "is built -c opt and each figure is a ratio against a baseline timed the same way.\n";

benchmark::ConsoleReporter::OutputOptions OptionsForStdout() {
  return isatty(STDOUT_FILENO) == 1 ? benchmark::ConsoleReporter::OO_ColorTabular
                                    : benchmark::ConsoleReporter::OO_Tabular;
}

}  // namespace

ConsoleReporter::ConsoleReporter() : benchmark::ConsoleReporter(OptionsForStdout()) {}

std::string ContextWithoutDebugWarning(const std::string& context_text) {
  std::istringstream in(context_text);
  std::string out, line;
  bool dropped = false;
  while (std::getline(in, line)) {
    if (line.find(kDebugWarning) != std::string::npos) {
      dropped = true;
      continue;
    }
    out += line + "\n";
  }
  return dropped ? out + kDebugNote : out;
}

// As ConsoleReporter::ReportContext, with the context block filtered.
bool ConsoleReporter::ReportContext(const Context& context) {
  name_field_width_ = context.name_field_width;
  printed_header_ = false;
  prev_counters_.clear();
  std::ostringstream text;
  PrintBasicContext(&text, context);
  GetErrorStream() << ContextWithoutDebugWarning(text.str());
  return true;
}

}  // namespace azure_pricing::tools::bench
