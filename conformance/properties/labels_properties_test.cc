// The label join is a join-semilattice: commutative, associative, idempotent, and monotone in
// the lattice order; the empty join is the bottom (trusted/public).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "conformance/properties/host_generators.h"
#include "ref/labels/labels.h"

namespace azure_pricing::conformance::properties {
namespace {

using labels::ContentLabel;

// The order, written from the ranks (trusted < untrusted; public < private < user_identity)
// rather than taken from the library.
int IntegrityRank(labels::Integrity i) { return i == labels::Integrity::kTrusted ? 0 : 1; }
int ConfidentialityRank(labels::Confidentiality c) {
  switch (c) {
    case labels::Confidentiality::kPublic:
      return 0;
    case labels::Confidentiality::kPrivate:
      return 1;
    case labels::Confidentiality::kUserIdentity:
      return 2;
  }
  return 3;
}
bool Below(const ContentLabel& a, const ContentLabel& b) {
  return IntegrityRank(a.integrity) <= IntegrityRank(b.integrity) &&
         ConfidentialityRank(a.confidentiality) <= ConfidentialityRank(b.confidentiality);
}

RC_GTEST_PROP(LabelJoin, IsTheLeastUpperBound, ()) {
  const ContentLabel a = *GenLabel();
  const ContentLabel b = *GenLabel();
  const ContentLabel c = *GenLabel();
  const ContentLabel ab = labels::Join(a, b);
  RC_ASSERT(Below(a, ab));
  RC_ASSERT(Below(b, ab));
  if (Below(a, c) && Below(b, c)) RC_ASSERT(Below(ab, c));
  RC_ASSERT(labels::FlowsTo(a, b) == Below(a, b));
}

RC_GTEST_PROP(LabelJoin, Commutative, ()) {
  const ContentLabel a = *GenLabel();
  const ContentLabel b = *GenLabel();
  RC_ASSERT(labels::Join(a, b) == labels::Join(b, a));
}

RC_GTEST_PROP(LabelJoin, Associative, ()) {
  const ContentLabel a = *GenLabel();
  const ContentLabel b = *GenLabel();
  const ContentLabel c = *GenLabel();
  RC_ASSERT(labels::Join(labels::Join(a, b), c) == labels::Join(a, labels::Join(b, c)));
}

RC_GTEST_PROP(LabelJoin, Idempotent, ()) {
  const ContentLabel a = *GenLabel();
  RC_ASSERT(labels::Join(a, a) == a);
}

RC_GTEST_PROP(LabelJoin, Monotone, ()) {
  const ContentLabel a = *GenLabel();
  const ContentLabel b = *GenLabel();
  const ContentLabel c = *GenLabel();
  // a <= b implies a v c <= b v c
  if (Below(a, b)) RC_ASSERT(Below(labels::Join(a, c), labels::Join(b, c)));
}

RC_GTEST_PROP(LabelJoin, EmptyJoinIsBottom, ()) {
  const ContentLabel a = *GenLabel();
  RC_ASSERT(Below(labels::JoinAll({}), a));
  RC_ASSERT(labels::JoinAll({a}) == a);
}

}  // namespace
}  // namespace azure_pricing::conformance::properties
