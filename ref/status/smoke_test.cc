#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
TEST(Smoke, Works) { EXPECT_EQ(1 + 1, 2); }
