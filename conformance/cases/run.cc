#include "conformance/cases/run.h"

#include <utility>
#include <vector>

namespace azure_pricing::conformance {
namespace {

using nlohmann::ordered_json;

// The call as the executor takes it: the case's configuration, the call's arguments and script.
host::ScriptedCall MakeCall(const ResolvedCase& c, const ResolvedCall& call, bool same_host) {
  host::ScriptedCall out;
  out.arguments = call.arguments;
  out.call_id = call.call_id;
  out.same_host = same_host;
  out.host = c.host;
  out.backend = c.backend;
  out.labels = c.labels;
  out.middleware = c.middleware;
  out.scripts = {call.script};
  return out;
}

// Makes one call into `got`; an error text when the case itself cannot be run.
std::string Observe(const ResolvedCase& c, const ResolvedCall& call, bool same_host,
                    const host::CallExecutor& execute, Observed& got) {
  got.inputs = call.inputs;
  StatusOr<host::CallReport> ran = execute(MakeCall(c, call, same_host));
  // A host that refuses the case's configuration answers with no report: the case judges the
  // refusal's outcome and reason (a configuration an implementation must not accept), and a
  // case that expected a call fails on them, as it would on any other reason.
  if (!ran.ok() && ran.status().reason() == host::kInvalidConfiguration) {
    got.outcome = OutcomeName(ran.status().outcome());
    got.reason = std::string(ran.status().reason());
    return "";
  }
  if (!ran.ok()) return "case configuration: " + ran.status().message();
  got.outcome = OutcomeName(ran->outcome);
  got.reason = ran->reason;
  got.message = ran->trusted_messages.empty() ? "" : ran->trusted_messages.front();
  got.argv = ran->argv;
  if (ran->output.has_value()) got.output = ordered_json::parse(*ran->output, nullptr, false);
  got.report = std::move(*ran);
  // A plan's expectations speak of the argv it ran or its refusal; the empty answer's report
  // belongs to the lookup cases.
  if (call.plan_only) {
    got.plan_only = true;
    got.output.reset();
  }
  return "";
}

// One call: the case's own (index 0, in a new host) or one of its "then" calls (in its host).
Problems RunCall(const ResolvedCase& c, size_t index, const host::CallExecutor& execute,
                 CaseRun& run, std::vector<host::CallReport>& reports) {
  const ResolvedCall& call = c.calls[index];
  Observed got;
  if (std::string error = Observe(c, call, index > 0, execute, got); !error.empty()) {
    return {.required = error};
  }
  if (run.actual.empty()) run.actual = got.outcome + (got.reason.empty() ? "" : "/" + got.reason);
  if (got.report) reports.push_back(*got.report);
  run.observed.push_back(ObservedJson(got));
  return CheckCall(call.expect, got);
}

}  // namespace

CaseRun RunResolvedCase(const ResolvedCase& c, const host::CallExecutor& execute) {
  CaseRun run;
  std::vector<host::CallReport> reports;  // one per host call
  for (size_t i = 0; i < c.calls.size(); ++i) {
    const Problems call = RunCall(c, i, execute, run, reports);
    if (i == 0) {
      run.problems = call;
      continue;
    }
    const std::string prefix = "call " + std::to_string(i + 1) + ": ";
    if (!call.required.empty()) run.problems.required += prefix + call.required;
    if (!call.wording.empty()) run.problems.wording += prefix + call.wording;
    run.problems.has_wording = run.problems.has_wording || call.has_wording;
  }
  if (c.across_calls) run.problems.required += CheckAcrossCalls(*c.across_calls, reports);
  return run;
}

}  // namespace azure_pricing::conformance
