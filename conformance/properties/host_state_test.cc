// A stateful model of one attached tool over a sequence of calls with scripted backend faults
// (rc::state): no sandbox outlives its call, every call gets a sandbox no earlier call had, the
// counts match the model, and no state carries between calls: each call ends exactly as the same
// call would on a freshly attached tool.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <rapidcheck/state.h>

#include <set>

#include "conformance/citations/cites.h"
#include "conformance/properties/host_generators.h"
#include "fakes/sandbox/fake_backend.h"
#include "ref/labels/middleware.h"
#include "ref/pricing/host.h"

namespace azure_pricing::conformance::properties {
CITES("INTRO-003", "INTRO-004", "INTRO-007");
namespace {

// The system under test: one attached tool, called the way a host that reuses call ids would.
struct Attached : PricingHost {
  labels::FunctionResult Call(const std::string& args) {
    labels::InvocationContext ctx;
    ctx.call_id = "call_same";  // a host that reuses call ids
    ctx.arguments = args;
    labels::InvokeFunction(tool, ctx, {});
    return *ctx.result;
  }
  std::set<std::string> seen_keys;
};

struct Model {
  int calls = 0;
  int acquisitions = 0;
};

struct CallTool : rc::state::Command<Model, Attached> {
  fakes::sandbox::CallScript script = *GenCallScript();
  bool valid_arguments = *rc::gen::weightedElement<bool>({{4, true}, {1, false}});

  std::string Arguments() const {
    return valid_arguments ? R"({"sku":"Standard_D2s_v5"})" : R"({"currency":"USD"})";
  }

  void apply(Model& m) const override {
    ++m.calls;
    if (valid_arguments && !script.fail_acquire) ++m.acquisitions;
  }

  void run(const Model& before, Attached& sut) const override {
    sut.backend.SetFallback(script);  // this call's behaviour, whether or not it acquires
    const labels::FunctionResult got = sut.Call(Arguments());
    Model after = before;
    apply(after);
    RC_ASSERT(sut.backend.live() == 0);
    RC_ASSERT(sut.backend.acquisitions() == after.acquisitions);
    RC_ASSERT(sut.backend.disposals() == after.acquisitions);
    if (after.acquisitions > before.acquisitions) {
      // The tool's job: a key no earlier call had, even though every call here reuses the same
      // framework call id.
      const std::string key = sut.backend.acquires().back().key.call_id;
      RC_ASSERT(sut.seen_keys.insert(key).second);
    }
    // A fresh tool given the same call ends the same way: nothing carried over.
    Attached fresh;
    fresh.backend.SetFallback(script);
    const labels::FunctionResult alone = fresh.Call(Arguments());
    RC_ASSERT(got.outcome == alone.outcome);
    RC_ASSERT(got.reason == alone.reason);
    // Acquisition is attempted exactly when the arguments were valid.
    RC_ASSERT(fresh.backend.acquire_attempts() == (valid_arguments ? 1 : 0));
    RC_ASSERT(got.items.size() == alone.items.size());
    for (size_t i = 0; i < got.items.size(); ++i)
      RC_ASSERT(got.items[i].text == alone.items[i].text);
  }

  void show(std::ostream& os) const override {
    os << "CallTool(valid_arguments=" << valid_arguments << ", script=";
    fakes::sandbox::showValue(script, os);
    os << ")";
  }
};

RC_GTEST_PROP(HostState, SequencesOfCallsKeepTheModel, ()) {
  Attached sut;
  rc::state::check(Model{}, sut, rc::state::gen::execOneOfWithArgs<CallTool>());
}

}  // namespace
}  // namespace azure_pricing::conformance::properties
