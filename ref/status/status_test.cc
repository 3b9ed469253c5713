#include "ref/status/status.h"

#include <gtest/gtest.h>

#include <string>

namespace azure_pricing {
namespace {

TEST(StatusTest, DefaultIsOkAndCompleted) {
  Status status;
  EXPECT_TRUE(status.ok());
  EXPECT_EQ(status.outcome(), Outcome::kCompleted);
  EXPECT_EQ(OutcomeName(status.outcome()), "completed");
}

TEST(StatusTest, CarriesReasonAndMessage) {
  Status status(Outcome::kRefused, "empty_value", "Argument 'sku' must not be empty.");
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.outcome(), Outcome::kRefused);
  EXPECT_EQ(status.reason(), "empty_value");
  EXPECT_EQ(status.message(), "Argument 'sku' must not be empty.");
  EXPECT_EQ(OutcomeName(Outcome::kFailed), "failed");
  EXPECT_EQ(OutcomeName(Outcome::kBlocked), "blocked");
}

TEST(StatusOrTest, HoldsValueOrStatus) {
  StatusOr<std::string> good(std::string("x"));
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, "x");
  StatusOr<std::string> bad(Status(Outcome::kFailed, "timeout", "The lookup timed out."));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().reason(), "timeout");
}

}  // namespace
}  // namespace azure_pricing
