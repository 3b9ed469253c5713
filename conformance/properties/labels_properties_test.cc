// The label join is a join-semilattice: commutative, associative, idempotent, and monotone in
// the lattice order; the empty join is the bottom (trusted/public).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "conformance/properties/host_generators.h"
#include "ref/labels/labels.h"

namespace azure_pricing::properties {
namespace {

using labels::ContentLabel;

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

RC_GTEST_PROP(LabelJoin, UpperBoundAndMonotone, ()) {
  const ContentLabel a = *GenLabel();
  const ContentLabel b = *GenLabel();
  const ContentLabel c = *GenLabel();
  const ContentLabel ab = labels::Join(a, b);
  RC_ASSERT(labels::FlowsTo(a, ab));
  RC_ASSERT(labels::FlowsTo(b, ab));
  // a <= b implies a v c <= b v c
  if (labels::FlowsTo(a, b)) RC_ASSERT(labels::FlowsTo(labels::Join(a, c), labels::Join(b, c)));
}

RC_GTEST_PROP(LabelJoin, EmptyJoinIsBottom, ()) {
  const ContentLabel a = *GenLabel();
  RC_ASSERT(labels::FlowsTo(labels::JoinAll({}), a));
  RC_ASSERT(labels::JoinAll({a}) == a);
}

}  // namespace
}  // namespace azure_pricing::properties
