#include "ref/status/status.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "ref/status/status_matchers.h"

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

TEST(StatusMatchersTest, IsOkAndStatusIsMatchOnlyWhatTheyName) {
  using ::testing::HasSubstr;
  using ::testing::Not;
  const Status refused(Outcome::kRefused, "empty_value", "Argument 'sku' must not be empty.");
  EXPECT_THAT(OkStatus(), IsOk());
  EXPECT_THAT(refused, Not(IsOk()));
  EXPECT_THAT(refused, StatusIs(Outcome::kRefused, "empty_value"));
  EXPECT_THAT(refused, Not(StatusIs(Outcome::kFailed, "empty_value")));
  EXPECT_THAT(refused, Not(StatusIs(Outcome::kRefused, "empty")));
  EXPECT_THAT(refused, StatusIs(Outcome::kRefused, "empty_value", HasSubstr("'sku'")));
  EXPECT_THAT(refused, Not(StatusIs(Outcome::kRefused, "empty_value", HasSubstr("'region'"))));
  EXPECT_THAT(OkStatus(), Not(StatusIs(Outcome::kCompleted, "")));
  EXPECT_THAT(StatusOr<int>(3), IsOk());
  EXPECT_THAT(StatusOr<int>(refused), StatusIs(Outcome::kRefused, "empty_value"));
  EXPECT_EQ(::testing::PrintToString(refused),
            "refused (empty_value): Argument 'sku' must not be empty.");
}

}  // namespace
}  // namespace azure_pricing
