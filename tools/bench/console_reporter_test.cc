#include "tools/bench/console_reporter.h"

#include "gtest/gtest.h"

namespace azure_pricing::tools::bench {
namespace {

TEST(ConsoleReporter, DebugWarningBecomesOneNote) {
  const std::string context =
      "Run on (2 X 2600 MHz CPU s)\n"
      "***WARNING*** Library was built as DEBUG. Timings may be affected.\n"
      "Load Average: 1.32\n";
  const std::string shown = ContextWithoutDebugWarning(context);
  EXPECT_EQ(shown.find("***WARNING***"), std::string::npos);
  EXPECT_NE(shown.find("Run on (2 X 2600 MHz CPU s)\nLoad Average: 1.32\n"), std::string::npos);
  EXPECT_NE(shown.find("note: Debian's libbenchmark is built without NDEBUG"), std::string::npos);
}

TEST(ConsoleReporter, ContextWithoutTheWarningIsUnchanged) {
  const std::string context = "Run on (2 X 2600 MHz CPU s)\nLoad Average: 1.32\n";
  EXPECT_EQ(ContextWithoutDebugWarning(context), context);
}

// Under `bazel test` stdout is a file: no colour.
TEST(ConsoleReporter, NoColourIntoAFile) {
  class Probe : public ConsoleReporter {
   public:
    bool Colour() const { return (output_options_ & OO_Color) != 0; }
  };
  EXPECT_FALSE(Probe().Colour());
}

}  // namespace
}  // namespace azure_pricing::tools::bench
