// One lookup end to end, as far as this library goes without a sandbox: validate the host
// bounds and the arguments (refusing before anything runs), build the fixed argv, hand it to a
// CliRunner, and accept or reject what comes back.
#ifndef REF_PRICING_LOOKUP_H_
#define REF_PRICING_LOOKUP_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ref/pricing/bounds.h"
#include "ref/pricing/envelope.h"
#include "ref/pricing/package.h"
#include "ref/pricing/region_plan.h"
#include "ref/pricing/report.h"
#include "ref/status/status.h"

namespace azure_pricing {

// Runs the CLI once within the bounds. The sandbox layer implements this (see host.h); tests
// script it. An error status means there is no CLI result to judge: the sandbox was refused, could
// not be acquired or disposed, or failed to execute.
class CliRunner {
 public:
  virtual ~CliRunner() = default;
  virtual StatusOr<CliResult> Run(const std::vector<std::string>& argv,
                                  const std::vector<std::string>& env,
                                  const HostBounds& bounds) = 0;
};

struct LookupPlan {
  std::vector<std::string> argv;
  std::vector<std::string> env;
  RegionPlan region;  // expanded when the query asks for an ARM region
};

// Validation and planning only; nothing runs. Like every entry point, the first call in a
// process emits the experimental warning (package.h), through `logger` or else on stderr.
StatusOr<LookupPlan> PlanLookup(std::string_view arguments_json, const HostBounds& bounds,
                                Logger* logger = nullptr);

struct LookupOutcome {
  Status status;                   // ok() when completed
  std::optional<LookupPlan> plan;  // set unless refused
  std::optional<Report> report;    // set when completed

  Outcome outcome() const { return status.outcome(); }
  std::string_view reason() const { return status.ok() ? "" : status.reason(); }
  // The fixed message for a person or a model: the completion (and truncation) text when
  // completed, the refusal or failure text otherwise.
  std::string message() const;
};

LookupOutcome RunLookup(std::string_view arguments_json, const HostBounds& bounds,
                        CliRunner& runner, Logger* logger = nullptr);

// {"outcome": ..., "reason": ..., "message": ..., "report": {...}} (report only when completed).
std::string OutcomeToJson(const LookupOutcome& outcome);

}  // namespace azure_pricing

#endif  // REF_PRICING_LOOKUP_H_
