#include "ref/base/main_guard.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace azure_pricing::base {
namespace {

TEST(MainGuardTest, ReturnsTheBodysStatus) {
  EXPECT_EQ(GuardedMain("p", [] { return 0; }), 0);
  EXPECT_EQ(GuardedMain("p", [] { return 64; }), 64);
}

TEST(MainGuardTest, AnEscapingExceptionIsOneLineAndExit70) {
  testing::internal::CaptureStderr();
  const int status = GuardedMain("prog", []() -> int {
    std::vector<int> v;
    return v.at(3);  // throws std::out_of_range
  });
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(status, kExitInternalError);
  EXPECT_THAT(err, testing::StartsWith("prog: internal error, please report it: "));
  EXPECT_EQ(err.find('\n'), err.size() - 1);
}

TEST(MainGuardTest, EvenANonStandardException) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(GuardedMain("prog", []() -> int { throw 7; }), kExitInternalError);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "prog: internal error, please report it: an unknown exception\n");
}

}  // namespace
}  // namespace azure_pricing::base
