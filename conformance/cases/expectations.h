// The judge stage of the case pipeline: what a call produced (Observed) held to a case's
// expectations by the check table, one check per property of case.schema.json's "expect", plus
// the invariants every call is held to whatever its case states. Each check says what is wrong,
// or nothing.
#ifndef CONFORMANCE_CASES_EXPECTATIONS_H_
#define CONFORMANCE_CASES_EXPECTATIONS_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "conformance/host/scripted_host.h"

namespace azure_pricing::conformance {

// What one call produced, in the terms its expectations use: the host's report, and its output
// when the tool completed.
struct Observed {
  // The call is plan_only: judged on the command it runs, not on the CLI's empty answer.
  bool plan_only = false;
  std::string outcome;  // OutcomeName
  std::string reason;
  std::string message;              // the refusal or failure text (the first trusted message)
  std::vector<std::string> inputs;  // what the message must not echo: arguments, CLI output
  std::optional<std::vector<std::string>> argv;
  std::optional<host::CallReport> report;
  std::optional<nlohmann::ordered_json> output;  // discarded when the report is not JSON

  // A plan_only call that ran the CLI and completed: what it answered is not judged, only the
  // command (argv) it ran.
  bool Planned() const {
    return plan_only && outcome == "completed" && report && report->execs > 0;
  }
};

// What one call's expectations found: the checks that count, and the wording checks.
struct Problems {
  std::string required;
  std::string wording;
  bool has_wording = false;
};


// Every check of the table over one call; the wording checks' problems apart.
Problems CheckCall(const nlohmann::ordered_json& expect, const Observed& got);

// Whether `expect` states the reference's exact wording: a key of a wording check.
bool StatesWording(const nlohmann::ordered_json& expect);

// "across_calls": what the host's calls did together; what is wrong, or nothing.
std::string CheckAcrossCalls(const nlohmann::ordered_json& want,
                             const std::vector<host::CallReport>& reports);

// A call as a failure shows it and the --json report carries it: what the implementation did,
// in the terms the expectations use.
nlohmann::ordered_json ObservedJson(const Observed& got);

// Every string inside a JSON value (the arguments a model sent, or a CLI envelope), appended.
void CollectStrings(const nlohmann::ordered_json& v, std::vector<std::string>& out);

// One of the checks of the table: its name as a failure's detail names it, the properties of
// case.schema.json's "expect" it implements, and whether it judges the reference's exact wording
// (PROFILE-003), reported apart from the verdict. A key "parent.member" takes one member of a
// property whose others stay with the parent's check; no key: an invariant every call is held
// to, whatever its case states.
struct ExpectationCheckInfo {
  std::string name;
  std::vector<std::string> keys;
  bool wording = false;
};

// Every check, in the order a failure lists their problems.
std::vector<ExpectationCheckInfo> ExpectationChecks();

// Errors must not echo input: the problem when `message` contains any of `inputs` that is six
// bytes or longer and not a location value with spaces around it (a constant of the tool, which
// the message may name), or an empty string.
std::string EchoProblem(const std::string& message, const std::vector<std::string>& inputs);

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_CASES_EXPECTATIONS_H_
