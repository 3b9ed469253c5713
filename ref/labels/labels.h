// FIDES information-flow labels as Microsoft Agent Framework models them
// (agent_framework/security.py): integrity is trusted or untrusted, confidentiality is
// public < private < user_identity, and the join is "untrusted if any, the highest
// confidentiality". The empty join is trusted/public, so a fail-safe has to come from the
// caller's no-labels branch, not from the join.
#ifndef REF_LABELS_LABELS_H_
#define REF_LABELS_LABELS_H_

#include <optional>
#include <string_view>
#include <vector>

namespace azure_pricing::labels {

enum class Integrity { kTrusted, kUntrusted };
// The enumerator order is the rank.
enum class Confidentiality { kPublic, kPrivate, kUserIdentity };

struct ContentLabel {
  Integrity integrity = Integrity::kTrusted;
  Confidentiality confidentiality = Confidentiality::kPublic;

  bool operator==(const ContentLabel& other) const {
    return integrity == other.integrity && confidentiality == other.confidentiality;
  }
};

ContentLabel Join(const ContentLabel& a, const ContentLabel& b);
ContentLabel JoinAll(const std::vector<ContentLabel>& labels);  // empty: trusted/public

// The lattice order: a flows to b without losing a restriction.
bool FlowsTo(const ContentLabel& a, const ContentLabel& b);

std::string_view Name(Integrity value);
std::string_view Name(Confidentiality value);
std::optional<Integrity> ParseIntegrity(std::string_view name);
std::optional<Confidentiality> ParseConfidentiality(std::string_view name);

}  // namespace azure_pricing::labels

#endif  // REF_LABELS_LABELS_H_
