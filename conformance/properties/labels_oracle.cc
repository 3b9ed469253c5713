#include "conformance/properties/labels_oracle.h"

#include <algorithm>

namespace azure_pricing::conformance::properties {

using labels::Confidentiality;
using labels::ContentLabel;
using labels::Integrity;

ExpectedLabels ExpectedFor(const std::vector<Middleware>& chain, const ContentLabel& conversation,
                           const std::vector<ContentLabel>& argument_labels,
                           std::optional<Confidentiality> cap, std::optional<Integrity> egress) {
  auto position = [&](Middleware m) {
    return std::find(chain.begin(), chain.end(), m) - chain.begin();
  };
  ExpectedLabels want;
  want.has_tracker = position(Middleware::kTracker) < static_cast<long>(chain.size());
  const bool has_policy = position(Middleware::kPolicy) < static_cast<long>(chain.size());
  const bool policy_sees_labels = has_policy && want.has_tracker &&
                                  position(Middleware::kTracker) < position(Middleware::kPolicy);
  bool arguments_trusted = true;
  for (const ContentLabel& l : argument_labels) {
    arguments_trusted = arguments_trusted && l.integrity == Integrity::kTrusted;
    want.arguments_confidentiality = std::max(want.arguments_confidentiality, l.confidentiality);
  }
  const bool conversation_trusted = conversation.integrity == Integrity::kTrusted;
  const bool violation = !conversation_trusted || !arguments_trusted ||
                         (cap.has_value() && std::max(conversation.confidentiality,
                                                      want.arguments_confidentiality) > *cap);
  want.blocked = policy_sees_labels && violation;
  want.trusted = egress == Integrity::kTrusted && want.has_tracker && conversation_trusted &&
                 arguments_trusted;
  return want;
}

}  // namespace azure_pricing::conformance::properties
