#include "ref/pricing/lookup.h"

#include "ref/json/json.h"
#include "ref/pricing/arguments.h"
#include "ref/pricing/command.h"
#include "ref/pricing/selection.h"
#include "ref/status/status_macros.h"
#include "ref/zones/zones.h"

namespace azure_pricing {

StatusOr<LookupPlan> PlanLookup(std::string_view arguments_json, const HostBounds& bounds,
                                Logger* logger) {
  WarnExperimentalOnce(logger);
  // For the direct callers of PlanLookup and RunLookup, whose bounds nobody checked. A tool's
  // bounds were checked at attach and never change, so on its calls this never refuses.
  RETURN_IF_ERROR(ValidateHostBounds(bounds));
  ASSIGN_OR_RETURN(ToolArguments args, ParseToolArguments(arguments_json));
  RegionPlan region = PlanRegion(args, zones::ZoneTable::Bundled());
  std::vector<std::string> argv = BuildArgv(args, region);
  return LookupPlan{std::move(argv), CliEnvironment(), std::move(region)};
}

std::string LookupOutcome::message() const {
  if (!status.ok()) return status.message();
  std::string text = kCompletionMessage;
  if (report.has_value() && report->upstream_limit_reached) {
    text += " ";
    text += kUpstreamLimitMessage;
  } else if (report.has_value() && report->truncated) {
    text += " ";
    text += kTruncationMessage;
  }
  return text;
}

LookupOutcome RunLookup(std::string_view arguments_json, const HostBounds& bounds,
                        CliRunner& runner, Logger* logger) {
  LookupOutcome outcome;
  StatusOr<LookupPlan> plan = PlanLookup(arguments_json, bounds, logger);
  if (!plan.ok()) {
    outcome.status = plan.status();
    return outcome;
  }
  outcome.plan = std::move(plan).value();
  const StatusOr<CliResult> result = runner.Run(outcome.plan->argv, outcome.plan->env, bounds);
  if (!result.ok()) {
    outcome.status = result.status();
    return outcome;
  }
  StatusOr<std::vector<PriceRow>> rows = ValidateCliResult(*result, bounds.max_output_bytes);
  if (!rows.ok()) {
    outcome.status = rows.status();
    return outcome;
  }
  if (outcome.plan->region.expanded) {
    // Selection only after every row was validated; it sees all received rows.
    const int64_t received = static_cast<int64_t>(rows->size());
    Selection selection =
        SelectRows(std::move(*rows), outcome.plan->region, received >= kCliRowCeiling);
    outcome.report = BuildExpandedReport(std::move(selection), received,
                                         outcome.plan->region.requested_region, bounds.max_rows);
    return outcome;
  }
  outcome.report = BuildReport(std::move(rows).value(), bounds.max_rows);
  return outcome;
}

std::string OutcomeToJson(const LookupOutcome& outcome) {
  std::string out = "{\"outcome\":";
  json::AppendQuoted(out, OutcomeName(outcome.outcome()));
  out += ",\"reason\":";
  if (outcome.status.ok()) {
    out += "null";
  } else {
    json::AppendQuoted(out, outcome.reason());
  }
  out += ",\"message\":";
  json::AppendQuoted(out, outcome.message());
  if (outcome.report.has_value()) {
    out += ",\"report\":";
    out += ReportToJson(*outcome.report);
  }
  out.push_back('}');
  return out;
}

}  // namespace azure_pricing
