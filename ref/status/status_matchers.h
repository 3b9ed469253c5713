// GoogleTest matchers for Status and StatusOr, in the style of abseil's status_matchers.h:
//   EXPECT_THAT(ParseToolArguments("{}"), StatusIs(Outcome::kRefused, "missing_filter"));
//   EXPECT_THAT(Lookup(...), IsOk());
//   EXPECT_THAT(ReadFile(path), IsOkAndHolds(HasSubstr("prices")));
//   EXPECT_THAT(ReadFile(path), ProgramErrorIs(base::kFileNotFound));
// A failing match prints the outcome, the reason and the message it found.
#ifndef REF_STATUS_STATUS_MATCHERS_H_
#define REF_STATUS_STATUS_MATCHERS_H_

#include <gmock/gmock.h>

#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "ref/status/status.h"

namespace azure_pricing {

inline void PrintTo(const Status& status, std::ostream* os) {
  if (status.ok()) {
    *os << "OK";
    return;
  }
  *os << (status.is_program_error() ? "program error" : OutcomeName(status.outcome())) << " ("
      << status.reason() << "): " << status.message();
}

template <typename T>
void PrintTo(const StatusOr<T>& status_or, std::ostream* os) {
  if (status_or.ok()) {
    *os << "OK with a value";
    return;
  }
  PrintTo(status_or.status(), os);
}

namespace status_internal {

inline const Status& GetStatus(const Status& status) { return status; }
template <typename T>
const Status& GetStatus(const StatusOr<T>& status_or) {
  return status_or.status();
}

}  // namespace status_internal

MATCHER(IsOk, negation ? "is not OK" : "is OK") {
  const Status& status = status_internal::GetStatus(arg);
  if (!status.ok()) *result_listener << "which is " << ::testing::PrintToString(status);
  return status.ok();
}

// The outcome and the reason code must both match; the message is fixed text and is checked,
// where a test cares, with StatusIs(outcome, reason, message_matcher).
MATCHER_P2(StatusIs, outcome, reason,
           std::string(negation ? "is not " : "is ") + std::string(OutcomeName(outcome)) + " (" +
               std::string(reason) + ")") {
  const Status& status = status_internal::GetStatus(arg);
  *result_listener << "which is " << ::testing::PrintToString(status);
  return !status.ok() && !status.is_program_error() && status.outcome() == outcome &&
         status.reason() == std::string_view(reason);
}

MATCHER_P3(StatusIs, outcome, reason, message_matcher,
           std::string(negation ? "is not " : "is ") + std::string(OutcomeName(outcome)) + " (" +
               std::string(reason) + ") with a matching message") {
  const Status& status = status_internal::GetStatus(arg);
  *result_listener << "which is " << ::testing::PrintToString(status);
  return !status.ok() && !status.is_program_error() && status.outcome() == outcome &&
         status.reason() == std::string_view(reason) &&
         ::testing::Matches(message_matcher)(status.message());
}

// A program error (ProgramError()) with this reason; never a tool error, whatever its outcome.
MATCHER_P(ProgramErrorIs, reason,
          std::string(negation ? "is not " : "is ") + "a program error (" + std::string(reason) +
              ")") {
  const Status& status = status_internal::GetStatus(arg);
  *result_listener << "which is " << ::testing::PrintToString(status);
  return status.is_program_error() && status.reason() == std::string_view(reason);
}

MATCHER_P2(ProgramErrorIs, reason, message_matcher,
           std::string(negation ? "is not " : "is ") + "a program error (" + std::string(reason) +
               ") with a matching message") {
  const Status& status = status_internal::GetStatus(arg);
  *result_listener << "which is " << ::testing::PrintToString(status);
  return status.is_program_error() && status.reason() == std::string_view(reason) &&
         ::testing::Matches(message_matcher)(status.message());
}

namespace status_internal {

template <typename StatusOrType>
class IsOkAndHoldsImpl : public ::testing::MatcherInterface<StatusOrType> {
 public:
  using Value = std::decay_t<decltype(*std::declval<const std::decay_t<StatusOrType>&>())>;

  template <typename InnerMatcher>
  explicit IsOkAndHoldsImpl(InnerMatcher&& inner)
      : inner_(::testing::SafeMatcherCast<const Value&>(std::forward<InnerMatcher>(inner))) {}

  void DescribeTo(std::ostream* os) const override {
    *os << "is OK and holds a value that ";
    inner_.DescribeTo(os);
  }
  void DescribeNegationTo(std::ostream* os) const override {
    *os << "is not OK or holds a value that ";
    inner_.DescribeNegationTo(os);
  }
  bool MatchAndExplain(StatusOrType actual,
                       ::testing::MatchResultListener* listener) const override {
    if (!actual.ok()) {
      *listener << "which is " << ::testing::PrintToString(actual.status());
      return false;
    }
    ::testing::StringMatchResultListener inner_listener;
    const bool matches = inner_.MatchAndExplain(*actual, &inner_listener);
    *listener << "which holds " << ::testing::PrintToString(*actual);
    if (!inner_listener.str().empty()) *listener << ", " << inner_listener.str();
    return matches;
  }

 private:
  ::testing::Matcher<const Value&> inner_;
};

template <typename InnerMatcher>
class IsOkAndHoldsMatcher {
 public:
  explicit IsOkAndHoldsMatcher(InnerMatcher inner) : inner_(std::move(inner)) {}

  template <typename StatusOrType>
  operator ::testing::Matcher<StatusOrType>() const {  // NOLINT: gMock's polymorphic matchers
    return ::testing::Matcher<StatusOrType>(new IsOkAndHoldsImpl<const StatusOrType&>(inner_));
  }

 private:
  InnerMatcher inner_;
};

}  // namespace status_internal

// A StatusOr that is OK and whose value matches `inner` (a matcher, or a value to equal):
//   EXPECT_THAT(ParseLabel(text), IsOkAndHolds(Field(&ContentLabel::integrity, kTrusted)));
template <typename InnerMatcher>
status_internal::IsOkAndHoldsMatcher<std::decay_t<InnerMatcher>> IsOkAndHolds(
    InnerMatcher&& inner) {
  return status_internal::IsOkAndHoldsMatcher<std::decay_t<InnerMatcher>>(
      std::forward<InnerMatcher>(inner));
}

}  // namespace azure_pricing

#endif  // REF_STATUS_STATUS_MATCHERS_H_
