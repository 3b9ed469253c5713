// A case as the load stage leaves it and the run stage takes it: every file it names read, its
// JSON kept as values. Nothing here refers to the file system, so running a case cannot read one.
#ifndef CONFORMANCE_CASES_RESOLVED_CASE_H_
#define CONFORMANCE_CASES_RESOLVED_CASE_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "fakes/sandbox/fake_backend.h"
#include "ref/json/json.h"

namespace azure_pricing::conformance {

// One call of a case: the case's own, or one of its "then" calls in the same host.
struct ResolvedCall {
  std::string arguments;  // as the model sends them: an object's JSON text, or arguments_text
  // What no message may echo: the argument strings, unknown argument names, the CLI's text.
  std::vector<std::string> inputs;
  std::string call_id;
  bool plan_only = false;
  fakes::sandbox::CallScript script;  // the CLI's scripted answer, its bytes in hand
  nlohmann::ordered_json cli;         // that answer as the case states it (for the report)
  nlohmann::ordered_json expect;
};

struct ResolvedCase {
  std::string file;
  std::string id;
  std::vector<std::string> requirements;
  std::string expected_outcome;  // as the case states it: completed, refused, ...
  std::string expected_reason;
  bool has_wording = false;  // it states the reference's exact wording (PROFILE-003)
  // Why the case cannot run (a schema problem, a file it names unreadable, no arguments), naming
  // the file, the case and the JSON path; empty when it can.
  std::string problem;
  // The host configuration, as values the scripted host takes (config_keys.h).
  json::Value host = json::Value::Object();
  json::Value backend = json::Value::Object();
  json::Value labels = json::Value::Object();
  std::vector<std::string> middleware;
  std::vector<ResolvedCall> calls;  // never empty for a case without a problem
  std::optional<nlohmann::ordered_json> across_calls;
  // What a failure and the --json report show: what the case gives the implementation, and what
  // it expects.
  nlohmann::ordered_json inputs;
  nlohmann::ordered_json expected;
};

struct CaseFile {
  std::string path;
  // The file's own problem (unreadable, not JSON, not a case file, a schema problem outside any
  // case); its cases are still loaded when it has some.
  std::string problem;
  std::vector<ResolvedCase> cases;
};

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_CASES_RESOLVED_CASE_H_
