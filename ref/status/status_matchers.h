// GoogleTest matchers for Status and StatusOr, in the style of abseil's status_matchers.h:
//   EXPECT_THAT(ParseToolArguments("{}"), StatusIs(Outcome::kRefused, "missing_filter"));
//   EXPECT_THAT(Lookup(...), IsOk());
// A failing match prints the outcome, the reason and the message it found.
#ifndef REF_STATUS_STATUS_MATCHERS_H_
#define REF_STATUS_STATUS_MATCHERS_H_

#include <gmock/gmock.h>

#include <ostream>
#include <string>
#include <string_view>

#include "ref/status/status.h"

namespace azure_pricing {

inline void PrintTo(const Status& status, std::ostream* os) {
  if (status.ok()) {
    *os << "OK";
    return;
  }
  *os << OutcomeName(status.outcome()) << " (" << status.reason() << "): " << status.message();
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
  return !status.ok() && status.outcome() == outcome && status.reason() == std::string_view(reason);
}

MATCHER_P3(StatusIs, outcome, reason, message_matcher,
           std::string(negation ? "is not " : "is ") + std::string(OutcomeName(outcome)) + " (" +
               std::string(reason) + ") with a matching message") {
  const Status& status = status_internal::GetStatus(arg);
  *result_listener << "which is " << ::testing::PrintToString(status);
  return !status.ok() && status.outcome() == outcome &&
         status.reason() == std::string_view(reason) &&
         ::testing::Matches(message_matcher)(status.message());
}

}  // namespace azure_pricing

#endif  // REF_STATUS_STATUS_MATCHERS_H_
