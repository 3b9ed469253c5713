// What the host's labels must do with one call, from the rules alone: the oracle the labels
// properties hold the host to, in the gate's properties suite and in host_properties_test.
#ifndef CONFORMANCE_PROPERTIES_LABELS_ORACLE_H_
#define CONFORMANCE_PROPERTIES_LABELS_ORACLE_H_

#include <optional>
#include <vector>

#include "conformance/properties/host_generators.h"
#include "ref/labels/labels.h"

namespace azure_pricing::conformance::properties {

struct ExpectedLabels {
  bool has_tracker = false;
  bool blocked = false;
  bool trusted = false;  // the output promoted to trusted
  labels::Confidentiality arguments_confidentiality = labels::Confidentiality::kPublic;
};

// The rules, from the spec and the framework's documented behaviour: the policy blocks only
// what the tracker labelled before it; promotion needs the host's TRUSTED egress, the tracker,
// and trusted conversation and argument labels.
ExpectedLabels ExpectedFor(const std::vector<Middleware>& chain,
                           const labels::ContentLabel& conversation,
                           const std::vector<labels::ContentLabel>& argument_labels,
                           std::optional<labels::Confidentiality> cap,
                           std::optional<labels::Integrity> egress);

}  // namespace azure_pricing::conformance::properties

#endif  // CONFORMANCE_PROPERTIES_LABELS_ORACLE_H_
