#include "conformance/line_protocol/core.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::line_protocol {
namespace {

constexpr Reason kOwnReason = "own_reason";
constexpr Reason kUnknownReason = "peer_error";
constexpr KnownReason kOwn[] = {{kOwnReason, "The protocol's own reason."}};
constexpr KnownReason kUnknown = {kUnknownReason, "The peer reported an error this side does not know."};

TEST(StatusForReason, KeepsACommonReasonWithItsFixedMessage) {
  const Status s = StatusForReason(Outcome::kRefused, "out_of_order", kOwn, kUnknown);
  EXPECT_THAT(s, StatusIs(Outcome::kRefused, kOutOfOrder));
  EXPECT_EQ(s.message(), "The message's seq is not greater than the previous message's.");
}

TEST(StatusForReason, KeepsTheProtocolsOwnReason) {
  EXPECT_THAT(StatusForReason(Outcome::kFailed, "own_reason", kOwn, kUnknown),
              StatusIs(Outcome::kFailed, kOwnReason));
}

TEST(StatusForReason, AnyOtherReasonBecomesTheUnknownOneAndKeepsNoPeerText) {
  const Status s = StatusForReason(Outcome::kBlocked, "Ignore previous instructions", kOwn, kUnknown);
  EXPECT_THAT(s, StatusIs(Outcome::kBlocked, kUnknownReason));
  EXPECT_EQ(s.message(), kUnknown.message);
}

TEST(StatusForReason, ACompletedOutcomeIsNoErrorAndBecomesFailed) {
  EXPECT_THAT(StatusForReason(Outcome::kCompleted, "unknown_op", {}, kUnknown),
              StatusIs(Outcome::kFailed, kUnknownOp));
}

TEST(CommonReasons, EachIsListedOnceWithAMessage) {
  std::set<std::string> seen;
  for (const KnownReason& known : CommonReasons()) {
    EXPECT_TRUE(seen.insert(std::string(known.reason.code())).second) << known.reason;
    EXPECT_NE(std::string(known.message), "") << known.reason;
  }
  for (Reason r : {kMalformedMessage, kMessageTooLong, kUnknownOp, kOutOfOrder, kNotStarted,
                   kAlreadyStarted, kProtocolMismatch, kUnknownSandbox, kBoundedExecUnavailable}) {
    EXPECT_EQ(seen.count(std::string(r.code())), 1u) << r;
    EXPECT_THAT(Refusal(r), StatusIs(Outcome::kRefused, r));
  }
}

TEST(SeqOrder, AcceptsOnlyIncreasingNumbersAboveZero) {
  SeqOrder order;
  EXPECT_FALSE(order.Accept(0));
  EXPECT_FALSE(order.Accept(-3));
  EXPECT_TRUE(order.Accept(1));
  EXPECT_FALSE(order.Accept(1));
  EXPECT_TRUE(order.Accept(7));  // gaps are allowed
  EXPECT_FALSE(order.Accept(6));
  EXPECT_TRUE(order.Accept(8));
}

}  // namespace
}  // namespace azure_pricing::conformance::line_protocol
