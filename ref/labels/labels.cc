#include "ref/labels/labels.h"

#include <algorithm>

namespace azure_pricing::labels {

ContentLabel Join(const ContentLabel& a, const ContentLabel& b) {
  ContentLabel out;
  out.integrity = (a.integrity == Integrity::kUntrusted || b.integrity == Integrity::kUntrusted)
                      ? Integrity::kUntrusted
                      : Integrity::kTrusted;
  out.confidentiality = std::max(a.confidentiality, b.confidentiality);
  return out;
}

ContentLabel JoinAll(const std::vector<ContentLabel>& labels) {
  ContentLabel out;
  for (const ContentLabel& l : labels) out = Join(out, l);
  return out;
}

bool FlowsTo(const ContentLabel& a, const ContentLabel& b) {
  const bool integrity_ok =
      a.integrity == Integrity::kTrusted || b.integrity == Integrity::kUntrusted;
  return integrity_ok && a.confidentiality <= b.confidentiality;
}

std::string_view Name(Integrity value) {
  return value == Integrity::kTrusted ? "trusted" : "untrusted";
}

std::string_view Name(Confidentiality value) {
  switch (value) {
    case Confidentiality::kPublic:
      return "public";
    case Confidentiality::kPrivate:
      return "private";
    case Confidentiality::kUserIdentity:
      return "user_identity";
  }
  return "user_identity";
}

std::optional<Integrity> ParseIntegrity(std::string_view name) {
  if (name == "trusted") return Integrity::kTrusted;
  if (name == "untrusted") return Integrity::kUntrusted;
  return std::nullopt;
}

std::optional<Confidentiality> ParseConfidentiality(std::string_view name) {
  if (name == "public") return Confidentiality::kPublic;
  if (name == "private") return Confidentiality::kPrivate;
  if (name == "user_identity") return Confidentiality::kUserIdentity;
  return std::nullopt;
}

}  // namespace azure_pricing::labels
