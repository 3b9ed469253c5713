#include "ref/status/status.h"

namespace azure_pricing {

std::string_view OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kCompleted:
      return "completed";
    case Outcome::kRefused:
      return "refused";
    case Outcome::kFailed:
      return "failed";
    case Outcome::kBlocked:
      return "blocked";
  }
  return "failed";
}

}  // namespace azure_pricing
