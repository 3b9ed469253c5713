// Runs conformance cases kept as data (conformance/cases/*.json, schema in case.schema.json)
// against the reference implementation. Case files are read with a JSON library independent of
// the one under test, and expectations are the case's own, written from the spec and the
// recordings, never from the code.
#ifndef CONFORMANCE_CASE_RUNNER_H_
#define CONFORMANCE_CASE_RUNNER_H_

#include <string>
#include <vector>

namespace azure_pricing::conformance {

struct CaseResult {
  std::string file;
  std::string id;
  std::vector<std::string> requirements;
  bool passed = false;
  std::string detail;  // why it failed; empty when it passed
};

// Every case of one file. A file that cannot be read or does not follow the schema yields a
// single failed result naming the problem.
std::vector<CaseResult> RunCaseFile(const std::string& path);

// Errors must not echo input: the problem when `message` contains any of `inputs` that is six
// bytes or longer, or an empty string.
std::string EchoProblem(const std::string& message, const std::vector<std::string>& inputs);

// The case files shipped with the harness, relative to the workspace root.
std::vector<std::string> DefaultCaseFiles();

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_CASE_RUNNER_H_
