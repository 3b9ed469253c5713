// Runs conformance cases kept as data (conformance/cases/*.json, schema in case.schema.json)
// against an implementation: the pipeline's three stages, load (load.h), run (run.h) and judge
// (expectations.h), behind one call per file. Case files are read with a JSON library
// independent of the one under test, and expectations are the case's own, written from the spec
// and the recordings, never from the code.
#ifndef CONFORMANCE_CASES_CASE_RUNNER_H_
#define CONFORMANCE_CASES_CASE_RUNNER_H_

#include <functional>
#include <string>
#include <vector>

#include "conformance/host/scripted_host.h"

namespace azure_pricing::conformance {

using CallExecutor = host::CallExecutor;

// Relative to the workspace root, which is where tests and `bazel run` start.
inline constexpr char kCaseDirectory[] = "conformance/cases";

struct CaseResult {
  std::string file;
  std::string id;
  // False for a case left out by the run's selection, or only described (DescribeCaseFile):
  // only its requirements and expectation are filled in, so the catalog still counts its
  // citations.
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

// Every case of one file, with every call made by `execute`. The file is loaded first (checked
// against case.schema.json, every file a case names read): a problem there fails the case it is
// in, naming the file, the case and the JSON path, and a file that cannot be read or is not a
// case file at all yields a single failed result naming the problem. A plan_only case is a host
// call too, whose CLI returns an empty price list; when it completes, it is judged on the argv
// the backend recorded, not on that answer.
// `selected` (when given) names the cases to run by id; the others are described, not run, so
// --filter sends a testee only the cases it names.
std::vector<CaseResult> RunCaseFile(const std::string& path, const CallExecutor& execute,
                                    const std::function<bool(const std::string& id)>& selected = nullptr);

// The same, with every call made by the reference in process (a host::ScriptedHostRunner).
std::vector<CaseResult> RunCaseFile(const std::string& path);

// Every case of one file as it describes itself, loaded and not run (ran false): its
// requirements, expected outcome and wording, for the catalog's citations; the file's own
// problem as a failed result, as RunCaseFile gives it.
std::vector<CaseResult> DescribeCaseFile(const std::string& path);

// The case files in `directory` (every *.json but the schema), sorted, so a new file is run
// without being listed anywhere.
std::vector<std::string> CaseFiles(const std::string& directory = kCaseDirectory);

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_CASES_CASE_RUNNER_H_
