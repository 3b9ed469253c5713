// Runs conformance cases kept as data (conformance/cases/*.json, schema in case.schema.json)
// against the reference implementation. Case files are read with a JSON library independent of
// the one under test, and expectations are the case's own, written from the spec and the
// recordings, never from the code.
#ifndef CONFORMANCE_CASE_RUNNER_H_
#define CONFORMANCE_CASE_RUNNER_H_

#include <functional>
#include <string>
#include <vector>

#include "conformance/host/scripted_host.h"
#include "ref/status/status.h"

namespace azure_pricing::conformance {

// Relative to the workspace root, which is where tests and `bazel run` start.
inline constexpr char kCaseDirectory[] = "conformance/cases";
inline constexpr char kCaseSchema[] = "conformance/cases/case.schema.json";

struct CaseResult {
  std::string file;
  std::string id;
  // False for a case left out by the run's selection: only its requirements and expectation
  // are filled in, so the catalog still counts its citations.
  bool ran = true;
  std::vector<std::string> requirements;
  std::string expected_outcome;  // as the case states it: completed, refused, ...
  std::string expected_reason;   // empty when the case names none
  std::string actual;             // what the first call did, outcome[/reason]; empty if unknown
  bool passed = false;
  std::string detail;  // why it failed; empty when it passed
  // The case also states the reference's exact wording (message_contains and the like): judged
  // apart, as a RECOMMENDED check of PROFILE-003 (docs/profile.md), so wording never decides the
  // verdict. Known from the case itself, so set for a case that did not run too.
  bool has_wording = false;
  bool wording_passed = true;
  std::string wording_detail;
  // JSON text, for the failure line and the --json report: what the case gave the
  // implementation (arguments, host, backend, labels, middleware, each call's CLI result), what
  // it expected, and what each call did.
  std::string inputs;
  std::string expected_value;
  std::string actual_value;
};

// Every case of one file, checked first against case.schema.json (an unknown or misspelt key
// anywhere fails the case it is in, naming the file, the case and the key). A file that cannot
// be read or is not a case file at all yields a single failed result naming the problem.
std::vector<CaseResult> RunCaseFile(const std::string& path);

// Makes one call of a host case: a host::ScriptedHostRunner in process, or a testee over the
// testee protocol (conformance/testee). A case's "then" calls come with same_host set, right
// after the case's own. An error status is a case that could not be run.
using CallExecutor =
    std::function<azure_pricing::StatusOr<host::CallReport>(const host::ScriptedCall&)>;

// The same cases and checks, with every call made by `execute`. A plan_only case is a host call
// too, whose CLI returns an empty price list; when it completes, it is judged on the argv the
// backend recorded, not on that answer.
// `selected` (when given) names the cases to run by id; the others are neither run nor returned,
// so --filter sends a testee only the cases it names.
std::vector<CaseResult> RunCaseFile(const std::string& path, const CallExecutor& execute,
                                    const std::function<bool(const std::string& id)>& selected = nullptr);

// One of the checks the runner makes of every call: its name as a failure's detail names it,
// the properties of case.schema.json's "expect" it implements, and whether it judges the
// reference's exact wording (PROFILE-003), reported apart from the verdict. A key
// "parent.member" takes one member of a property whose others stay with the parent's check; no
// key: an invariant every call is held to, whatever its case states.
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

// The case files in `directory` (every *.json but the schema), sorted, so a new file is run
// without being listed anywhere.
std::vector<std::string> CaseFiles(const std::string& directory = kCaseDirectory);

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_CASE_RUNNER_H_
