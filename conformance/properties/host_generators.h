// RapidCheck generators for the host side (testonly): labels, middleware chains and scripted
// sandbox faults.
#ifndef CONFORMANCE_PROPERTIES_HOST_GENERATORS_H_
#define CONFORMANCE_PROPERTIES_HOST_GENERATORS_H_

#include <rapidcheck.h>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "fakes/sandbox/fake_backend.h"
#include "ref/labels/labels.h"
#include "ref/labels/tool.h"
#include "ref/pricing/host.h"
#include "ref/sandbox/router.h"

namespace azure_pricing::conformance::properties {

// Unset or a value, half and half.
template <typename T>
rc::Gen<std::optional<T>> GenOptional(rc::Gen<T> gen) {
  return rc::gen::exec(
      [gen] { return *rc::gen::arbitrary<bool>() ? std::optional<T>(*gen) : std::optional<T>(); });
}

rc::Gen<labels::Integrity> GenIntegrity();
rc::Gen<labels::Confidentiality> GenConfidentiality();
rc::Gen<labels::ContentLabel> GenLabel();

enum class Middleware { kTracker, kPolicy, kPolicyLogOnly };
// Any order of any subset, each middleware at most once.
rc::Gen<std::vector<Middleware>> GenChain();

// A small valid success envelope (three rows) as the CLI prints it.
std::string SuccessEnvelope();

// One call's sandbox behaviour: success, or any of the faults the fake backend can script
// (timeout, output overflow past 4 KiB, exec error, acquire or dispose failure, a non-zero exit,
// stderr, a non-JSON stdout), and independently a failing dispose.
rc::Gen<fakes::sandbox::CallScript> GenCallScript();

// True when the script lets a lookup complete (under PropertyToolOptions()).
bool ScriptSucceeds(const fakes::sandbox::CallScript& script);

// The host options the fault scripts are sized for: a 5 s timeout and a 4 KiB output budget.
ToolOptions PropertyToolOptions();

// One attached azure_pricing_get over the fake backend, behind a container-floor router.
struct PricingHost {
  explicit PricingHost(const ToolOptions& options = PropertyToolOptions());
  fakes::sandbox::FakeBackend backend;
  sandbox::Router router;
  labels::Tool tool;
};

}  // namespace azure_pricing::conformance::properties

namespace azure_pricing::labels {
void showValue(const ContentLabel& label, std::ostream& os);
void showValue(Integrity value, std::ostream& os);
void showValue(Confidentiality value, std::ostream& os);
}  // namespace azure_pricing::labels

namespace azure_pricing::fakes::sandbox {
void showValue(const CallScript& script, std::ostream& os);
}  // namespace azure_pricing::fakes::sandbox

#endif  // CONFORMANCE_PROPERTIES_HOST_GENERATORS_H_
