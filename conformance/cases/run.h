// The run stage of the case pipeline: a ResolvedCase's calls made through an executor (the
// reference in process, or a testee), each observed and held to its expectations
// (expectations.h). It reads no file: the load stage read everything the calls need.
#ifndef CONFORMANCE_CASES_RUN_H_
#define CONFORMANCE_CASES_RUN_H_

#include <nlohmann/json.hpp>
#include <string>

#include "conformance/cases/expectations.h"
#include "conformance/cases/resolved_case.h"
#include "conformance/host/scripted_host.h"

namespace azure_pricing::conformance {

// What a case observed and what was wrong with it.
struct CaseRun {
  Problems problems;
  std::string actual;  // the first call's outcome[/reason]
  nlohmann::ordered_json observed = nlohmann::ordered_json::array();  // each call, ObservedJson
};

// The case's own call in a new host, then its "then" calls in that host, then "across_calls".
// A call the executor cannot make is a required problem of the case.
CaseRun RunResolvedCase(const ResolvedCase& c, const host::CallExecutor& execute);

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_CASES_RUN_H_
