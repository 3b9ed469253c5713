#include "conformance/console/check_line.h"

#include "gtest/gtest.h"

namespace azure_pricing::conformance {
namespace {

TEST(CheckLine, DetailFollowsAColon) {
  EXPECT_EQ(CheckLine(true, "exec.argv", "6 arguments"), "  ok   exec.argv: 6 arguments");
  EXPECT_EQ(CheckLine(false, "live.dns", "no rows"), "  FAIL live.dns: no rows");
}

TEST(CheckLine, NoDetailNoColon) {
  EXPECT_EQ(CheckLine(true, "stack.completed_lookup", ""), "  ok   stack.completed_lookup");
  EXPECT_EQ(CheckLine(false, "x", ""), "  FAIL x");
}

}  // namespace
}  // namespace azure_pricing::conformance
