#include "ref/labels/labels.h"

#include "gtest/gtest.h"
#include "ref/labels/test_labels.h"

namespace azure_pricing::labels {
namespace {

using namespace ::azure_pricing::labels::test_labels;  // NOLINT: the shared test labels


TEST(JoinTest, UntrustedIfAnyAndHighestConfidentiality) {
  EXPECT_EQ(Join(kTrustedPublic, kUntrustedPublic), kUntrustedPublic);
  EXPECT_EQ(Join(kTrustedPrivate, kUntrustedPublic),
            (ContentLabel{Integrity::kUntrusted, Confidentiality::kPrivate}));
  EXPECT_EQ(Join(kTrustedIdentity, kTrustedPrivate), kTrustedIdentity);
}

TEST(JoinTest, EmptyJoinIsTrustedPublic) {
  // The fail-safe must come from the caller's no-labels branch, not from the join.
  EXPECT_EQ(JoinAll({}), kTrustedPublic);
}

TEST(FlowsToTest, OnlyTowardsMoreRestriction) {
  EXPECT_TRUE(FlowsTo(kTrustedPublic, kUntrustedPublic));
  EXPECT_FALSE(FlowsTo(kUntrustedPublic, kTrustedPublic));
  EXPECT_TRUE(FlowsTo(kTrustedPublic, kTrustedPrivate));
  EXPECT_FALSE(FlowsTo(kTrustedIdentity, kTrustedPrivate));
}

TEST(NamesTest, RoundTripAndRefuseUnknown) {
  for (Confidentiality c :
       {Confidentiality::kPublic, Confidentiality::kPrivate, Confidentiality::kUserIdentity}) {
    EXPECT_EQ(ParseConfidentiality(Name(c)), c);
  }
  for (Integrity i : {Integrity::kTrusted, Integrity::kUntrusted}) {
    EXPECT_EQ(ParseIntegrity(Name(i)), i);
  }
  EXPECT_FALSE(ParseConfidentiality("Public").has_value());
  EXPECT_FALSE(ParseIntegrity("TRUSTED").has_value());
}

}  // namespace
}  // namespace azure_pricing::labels
