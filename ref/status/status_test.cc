#include "ref/status/status.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ref/status/status_macros.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing {
namespace {

// A reason is made only from compile-time text: runtime strings, pointers and views do not
// convert, so a Status cannot carry text that came from input. (A literal that is not
// snake_case, or a char array filled at runtime, fails to compile as well.)
static_assert(!std::is_constructible_v<Reason, std::string>);
static_assert(!std::is_constructible_v<Reason, std::string_view>);
static_assert(!std::is_constructible_v<Reason, const char*>);
static_assert(!std::is_convertible_v<std::string, Reason>);
static_assert(!std::is_constructible_v<Status, Outcome, std::string, std::string>);
static_assert(!std::is_constructible_v<Status, Outcome, std::string_view, std::string>);
static_assert(!std::is_constructible_v<Status, Outcome, const char*, std::string>);
static_assert(std::is_constructible_v<Status, Outcome, Reason, std::string>);

constexpr Reason kTestReason = "test_reason";
static_assert(kTestReason.code() == "test_reason");
static_assert(kTestReason == "test_reason");

TEST(ReasonTest, ReadsAsItsCode) {
  EXPECT_EQ(kTestReason, "test_reason");
  EXPECT_EQ(std::string(kTestReason), "test_reason");
  const std::vector<std::string> texts = {kTestReason};  // tables of expected reasons
  EXPECT_EQ(texts.front(), "test_reason");
  EXPECT_EQ(std::string_view(kTestReason.c_str()), "test_reason");
  EXPECT_EQ(::testing::PrintToString(kTestReason), "test_reason");
  const Status status(Outcome::kFailed, kTestReason, "A test failed.");
  EXPECT_EQ(status.reason(), kTestReason);
}

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
  EXPECT_THAT(StatusOr<std::string>(std::string("x")), IsOkAndHolds("x"));
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

TEST(StatusTest, AProgramErrorIsNotAToolError) {
  const Status error = ProgramError("test_file_missing", "The file does not exist.");
  EXPECT_FALSE(error.ok());
  EXPECT_TRUE(error.is_program_error());
  EXPECT_EQ(error.reason(), "test_file_missing");
  EXPECT_FALSE(Status(Outcome::kFailed, "timeout", "The lookup timed out.").is_program_error());
  EXPECT_FALSE(OkStatus().is_program_error());
  EXPECT_THAT(error, ProgramErrorIs("test_file_missing"));
  EXPECT_THAT(error, ProgramErrorIs("test_file_missing", "The file does not exist."));
  EXPECT_THAT(error, ::testing::Not(ProgramErrorIs("test_other")));
  // A tool matcher never accepts a program error, whichever outcome it names.
  EXPECT_THAT(error, ::testing::Not(StatusIs(Outcome::kFailed, "test_file_missing")));
  EXPECT_THAT(Status(Outcome::kFailed, "test_file_missing", "x"),
              ::testing::Not(ProgramErrorIs("test_file_missing")));
  EXPECT_THAT(StatusOr<int>(error), ProgramErrorIs("test_file_missing"));
  EXPECT_EQ(::testing::PrintToString(error),
            "program error (test_file_missing): The file does not exist.");
}

TEST(StatusMatchersTest, IsOkAndHoldsMatchesTheValueOfAnOkStatusOr) {
  using ::testing::HasSubstr;
  using ::testing::Not;
  const Status refused(Outcome::kRefused, "empty_value", "Argument 'sku' must not be empty.");
  EXPECT_THAT(StatusOr<int>(3), IsOkAndHolds(3));
  EXPECT_THAT(StatusOr<int>(3), Not(IsOkAndHolds(4)));
  EXPECT_THAT(StatusOr<int>(refused), Not(IsOkAndHolds(3)));
  EXPECT_THAT(StatusOr<std::string>(std::string("prices")), IsOkAndHolds(HasSubstr("rice")));
  const ::testing::Matcher<StatusOr<int>> holds_3 = IsOkAndHolds(3);
  EXPECT_EQ(::testing::DescribeMatcher<StatusOr<int>>(holds_3),
            "is OK and holds a value that is equal to 3");
  ::testing::StringMatchResultListener listener;
  EXPECT_FALSE(holds_3.MatchAndExplain(StatusOr<int>(refused), &listener));
  EXPECT_EQ(listener.str(), "which is refused (empty_value): Argument 'sku' must not be empty.");
}

Status FailIf(bool fail) {
  if (fail) return Status(Outcome::kFailed, "test_failure", "The test asked for a failure.");
  return OkStatus();
}

StatusOr<std::string> NameOrFail(bool fail) {
  if (fail) return Status(Outcome::kRefused, "test_refusal", "The test asked for a refusal.");
  return std::string("name");
}

Status Both(bool first_fails, bool second_fails, std::vector<std::string>* ran) {
  RETURN_IF_ERROR(FailIf(first_fails));
  ran->push_back("first");
  RETURN_IF_ERROR(FailIf(second_fails));
  ran->push_back("second");
  return OkStatus();
}

StatusOr<std::string> Twice(bool fail) {
  ASSIGN_OR_RETURN(const std::string name, NameOrFail(fail));
  std::string twice;
  ASSIGN_OR_RETURN(twice, NameOrFail(false));  // an existing variable
  return name + twice;
}

TEST(StatusMacrosTest, ReturnIfErrorReturnsTheFirstErrorUnchanged) {
  std::vector<std::string> ran;
  EXPECT_THAT(Both(false, false, &ran), IsOk());
  EXPECT_EQ(ran, (std::vector<std::string>{"first", "second"}));
  ran.clear();
  EXPECT_THAT(Both(false, true, &ran),
              StatusIs(Outcome::kFailed, "test_failure", "The test asked for a failure."));
  EXPECT_EQ(ran, std::vector<std::string>{"first"});
  ran.clear();
  EXPECT_THAT(Both(true, false, &ran), StatusIs(Outcome::kFailed, "test_failure"));
  EXPECT_TRUE(ran.empty());
}

TEST(StatusMacrosTest, AssignOrReturnAssignsTheValueOrReturnsTheError) {
  EXPECT_THAT(Twice(false), IsOkAndHolds("namename"));
  EXPECT_THAT(Twice(true),
              StatusIs(Outcome::kRefused, "test_refusal", "The test asked for a refusal."));
}

}  // namespace
}  // namespace azure_pricing
