// The gate's properties suite: generated calls made through the same executor as the kind cases
// (the reference in process, or a testee over the protocol), each judged by a rule written from
// the spec. Seeded, so a run and each counterexample reproduce with `--seed N`.
#ifndef CONFORMANCE_PROPERTIES_GATE_PROPERTIES_H_
#define CONFORMANCE_PROPERTIES_GATE_PROPERTIES_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "conformance/host/scripted_host.h"
#include "ref/status/status.h"

namespace azure_pricing::conformance::properties {

using GateExecutor = std::function<azure_pricing::StatusOr<conformance::host::CallReport>(
    const conformance::host::ScriptedCall&)>;

struct GatePropertyInfo {
  std::string id;
  std::vector<std::string> requirements;
  std::string rule;  // one line: what every generated call must show
};

const std::vector<GatePropertyInfo>& GateProperties();

struct GatePropertyOptions {
  uint64_t seed = 1;
  int cases = 100;  // generated calls per property (a quarter for the row-count property)
};

struct GatePropertyResult {
  GatePropertyInfo info;
  bool passed = false;
  int cases_passed = 0;
  std::string detail;  // the failed rule and the shrunk counterexample; empty when passed
  double seconds = 0;
};

// Runs the properties `selected` accepts (all, when it is empty), in catalog order.
std::vector<GatePropertyResult> RunGateProperties(
    const GateExecutor& execute, const GatePropertyOptions& options,
    const std::function<bool(const std::string& id)>& selected);

}  // namespace azure_pricing::conformance::properties

#endif  // CONFORMANCE_PROPERTIES_GATE_PROPERTIES_H_
