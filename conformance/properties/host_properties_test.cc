// The host contract over generated combinations: which calls are blocked, which reports are
// promoted to trusted, that the host's confidentiality is never lowered, and that every acquired
// sandbox is disposed whatever the backend does. Expectations are computed here from the
// spec's rules, not from the library.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>

#include "conformance/citations/cites.h"
#include "conformance/properties/host_generators.h"
#include "conformance/properties/labels_oracle.h"
#include "fakes/sandbox/fake_backend.h"
#include "ref/labels/middleware.h"
#include "ref/pricing/host.h"

namespace azure_pricing::conformance::properties {
CITES("INTRO-007", "POLICY-003", "POLICY-004", "POLICY-005", "POLICY-007", "BOUND-004", "INTEG-003",
      "INTEG-004", "INTEG-005");
namespace {

using labels::Confidentiality;
using labels::ContentLabel;
using labels::Integrity;

constexpr char kArgs[] = R"({"sku":"Standard_D2s_v5","filter":"armRegionName eq 'westeurope'"})";

RC_GTEST_PROP(HostLabels, BlockingAndPromotionFollowTheRules, ()) {
  const auto egress = *GenOptional(GenIntegrity());
  const auto host_conf = *GenOptional(GenConfidentiality());
  const auto cap = *GenOptional(GenConfidentiality());
  const ContentLabel conversation = *GenLabel();
  const auto argument_labels =
      *rc::gen::container<std::vector<ContentLabel>>(*rc::gen::inRange<size_t>(0, 4), GenLabel());
  const std::vector<Middleware> chain = *GenChain();

  ToolOptions options = PropertyToolOptions();
  options.egress_integrity = egress;
  options.confidentiality = host_conf;
  if (cap) options.outbound_max_confidentiality = std::string(labels::Name(*cap));
  PricingHost host(options);
  host.backend.SetFallback({.exec = {.stdout_bytes = SuccessEnvelope()}});

  labels::LabelTrackingFunctionMiddleware tracker;
  tracker.JoinIntoContext(conversation);
  labels::PolicyEnforcementFunctionMiddleware policy(true);
  labels::PolicyEnforcementFunctionMiddleware policy_log(false);
  std::vector<labels::FunctionMiddleware*> middleware;
  for (Middleware m : chain) {
    middleware.push_back(m == Middleware::kTracker
                             ? static_cast<labels::FunctionMiddleware*>(&tracker)
                         : m == Middleware::kPolicy ? &policy
                                                    : &policy_log);
  }
  labels::InvocationContext ctx;
  ctx.arguments = kArgs;
  ctx.argument_labels = argument_labels;
  labels::InvokeFunction(host.tool, ctx, middleware);

  const ExpectedLabels want = ExpectedFor(chain, conversation, argument_labels, cap, egress);
  const bool want_blocked = want.blocked;
  const bool has_tracker = want.has_tracker;
  const Confidentiality arguments_conf = want.arguments_confidentiality;
  RC_ASSERT(ctx.blocked.has_value() == want_blocked);
  if (want_blocked) {
    RC_ASSERT(!ctx.result.has_value());
    RC_ASSERT(host.backend.acquisitions() == 0);
    return;
  }
  RC_ASSERT(ctx.result.has_value());
  RC_ASSERT(ctx.result->outcome == std::string("completed"));
  RC_ASSERT(host.backend.acquisitions() == 1);
  const labels::Content& output = ctx.result->items.back();
  RC_ASSERT(output.name == std::string(kOutputItem));
  RC_ASSERT((output.security_label->integrity == Integrity::kTrusted) == want.trusted);
  const Confidentiality host_floor = host_conf.value_or(Confidentiality::kPublic);
  RC_ASSERT(output.security_label->confidentiality >= host_floor);
  if (has_tracker) {
    RC_ASSERT(output.security_label->confidentiality == std::max(host_floor, arguments_conf));
  }
  // The trusted part stays trusted fixed text, whatever the labels: the tool declares its source
  // trusted, so the tracker's fallback for it is trusted too.
  for (size_t i = 0; i + 1 < ctx.result->items.size(); ++i) {
    RC_ASSERT(ctx.result->items[i].security_label->integrity == Integrity::kTrusted);
  }
}

RC_GTEST_PROP(HostLabels, PrivateInputWithPublicCapIsAlwaysBlocked, ()) {
  // Whatever the host says about the source's integrity.
  const auto egress = *GenOptional(GenIntegrity());
  const bool private_conversation = *rc::gen::arbitrary<bool>();
  const Confidentiality level =
      *rc::gen::element(Confidentiality::kPrivate, Confidentiality::kUserIdentity);
  ToolOptions options = PropertyToolOptions();
  options.egress_integrity = egress;
  options.outbound_max_confidentiality = "public";
  PricingHost host(options);
  labels::LabelTrackingFunctionMiddleware tracker;
  labels::PolicyEnforcementFunctionMiddleware policy(true);
  labels::InvocationContext ctx;
  ctx.arguments = kArgs;
  if (private_conversation) {
    tracker.JoinIntoContext({Integrity::kTrusted, level});
  } else {
    ctx.argument_labels = {{Integrity::kTrusted, level}};
  }
  labels::InvokeFunction(host.tool, ctx, {&tracker, &policy});
  RC_ASSERT(ctx.blocked.has_value());
  RC_ASSERT(host.backend.acquisitions() == 0);
}

RC_GTEST_PROP(HostFaults, EveryAcquiredSandboxIsDisposedAndFaultsFailClosed, ()) {
  const auto scripts = *rc::gen::container<std::vector<fakes::sandbox::CallScript>>(
      *rc::gen::inRange<size_t>(1, 6), GenCallScript());
  PricingHost host(PropertyToolOptions());
  for (const auto& s : scripts) host.backend.Script(s);
  for (const auto& s : scripts) {
    const int before = host.backend.acquisitions();
    labels::InvocationContext ctx;
    ctx.arguments = kArgs;
    labels::InvokeFunction(host.tool, ctx, {});
    RC_ASSERT(ctx.result.has_value());
    RC_ASSERT(host.backend.live() == 0);
    RC_ASSERT(host.backend.acquisitions() == host.backend.disposals());
    RC_ASSERT(host.backend.acquisitions() == before + (s.fail_acquire ? 0 : 1));
    const bool has_output = ctx.result->items.back().name == std::string(kOutputItem);
    RC_ASSERT((ctx.result->outcome == std::string("completed")) == ScriptSucceeds(s));
    RC_ASSERT(has_output == ScriptSucceeds(s));
  }
  for (const auto& e : host.backend.execs()) RC_ASSERT(e.bounded);
}

}  // namespace
}  // namespace azure_pricing::conformance::properties
