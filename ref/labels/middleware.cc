#include "ref/labels/middleware.h"

#include <algorithm>
#include <utility>

namespace azure_pricing::labels {
namespace {

void RunChain(const Tool& tool, InvocationContext& context,
              const std::vector<FunctionMiddleware*>& chain, size_t index) {
  if (index == chain.size()) {
    if (tool.func) context.result = tool.func(context);
    return;
  }
  chain[index]->Process(context, [&] { RunChain(tool, context, chain, index + 1); });
}

bool AcceptsUntrusted(const Tool& tool, const std::set<std::string>& allowed) {
  const std::string* flag = tool.Property(kAcceptsUntrusted);
  return (flag != nullptr && *flag == "true") || allowed.count(tool.name) != 0;
}

}  // namespace

void InvokeFunction(const Tool& tool, InvocationContext& context,
                    const std::vector<FunctionMiddleware*>& chain) {
  context.function = &tool;
  RunChain(tool, context, chain, 0);
}

LabelTrackingFunctionMiddleware::LabelTrackingFunctionMiddleware()
    : LabelTrackingFunctionMiddleware(Options{}) {}

LabelTrackingFunctionMiddleware::LabelTrackingFunctionMiddleware(Options options)
    : options_(options) {}

void LabelTrackingFunctionMiddleware::JoinIntoContext(const ContentLabel& label) {
  context_label_ = Join(context_label_, label);
}

void LabelTrackingFunctionMiddleware::Process(InvocationContext& context,
                                              const std::function<void()>& next) {
  const ContentLabel argument_label = JoinAll(context.argument_labels);
  context.metadata.context_label = context_label_;
  context.metadata.argument_label = argument_label;
  context.metadata.effective_invocation_label = Join(context_label_, argument_label);
  next();
  if (!context.result.has_value() || context.function == nullptr) return;
  const Tool& tool = *context.function;

  // The fallback label of the call's items. A declared source_integrity is used alone (tier 2);
  // otherwise the arguments' labels decide (tier 3), and with none the default integrity.
  ContentLabel fallback;
  const std::string* declared = tool.Property(kSourceIntegrity);
  std::optional<Integrity> integrity =
      declared != nullptr ? ParseIntegrity(*declared) : std::nullopt;
  if (integrity.has_value()) {
    fallback.integrity = *integrity;
  } else if (!context.argument_labels.empty()) {
    fallback.integrity = argument_label.integrity;
  } else {
    fallback.integrity = options_.default_integrity;
  }
  const std::string* conf = tool.Property(kConfidentiality);
  std::optional<Confidentiality> declared_conf =
      conf != nullptr ? ParseConfidentiality(*conf) : std::nullopt;
  fallback.confidentiality = declared_conf.value_or(options_.default_confidentiality);
  // A declared result confidentiality cannot launder a more confidential argument.
  fallback.confidentiality = std::max(fallback.confidentiality, argument_label.confidentiality);

  // Per-item labels only restrict (core 1.19): an item can be less trusted or more confidential
  // than the fallback, never the other way round.
  std::vector<ContentLabel> item_labels;
  for (Content& item : context.result->items) {
    item.security_label =
        item.security_label.has_value() ? Join(fallback, *item.security_label) : fallback;
    item_labels.push_back(*item.security_label);
  }
  const ContentLabel result_label = item_labels.empty() ? fallback : JoinAll(item_labels);
  context.metadata.result_label = result_label;
  JoinIntoContext(result_label);
}

PolicyEnforcementFunctionMiddleware::PolicyEnforcementFunctionMiddleware(
    bool block_on_violation, std::set<std::string> allow_untrusted_tools)
    : block_on_violation_(block_on_violation),
      allow_untrusted_tools_(std::move(allow_untrusted_tools)) {}

void PolicyEnforcementFunctionMiddleware::Process(InvocationContext& context,
                                                  const std::function<void()>& next) {
  const Tool* tool = context.function;
  if (tool == nullptr || !context.metadata.context_label.has_value()) {
    // Fail-open, as the framework does: nothing to check against.
    warnings_.push_back("no context label: the call ran unchecked");
    next();
    return;
  }
  const ContentLabel& ctx = *context.metadata.context_label;
  std::vector<std::string> violations;
  const bool exempt = AcceptsUntrusted(*tool, allow_untrusted_tools_);
  if (!exempt && ctx.integrity == Integrity::kUntrusted) violations.push_back(kViolationUntrustedContext);
  if (!exempt && context.metadata.argument_label.has_value() &&
      context.metadata.argument_label->integrity == Integrity::kUntrusted) {
    violations.push_back(kViolationUntrustedArguments);
  }
  // The confidentiality check always runs; absent cap = no check, invalid cap = logged, passes.
  if (const std::string* cap_text = tool->Property(kMaxAllowedConfidentiality)) {
    const std::optional<Confidentiality> cap = ParseConfidentiality(*cap_text);
    if (!cap.has_value()) {
      warnings_.push_back("invalid max_allowed_confidentiality: not checked");
    } else {
      Confidentiality highest = ctx.confidentiality;
      if (context.metadata.argument_label.has_value()) {
        highest = std::max(highest, context.metadata.argument_label->confidentiality);
      }
      if (highest > *cap) violations.push_back(kViolationMaxAllowedConfidentiality);
    }
  }
  const bool block = !violations.empty() && block_on_violation_;
  if (!violations.empty()) audit_log_.push_back({tool->name, violations, block});
  if (block) {
    context.blocked = BlockedCall{kBlockedError, tool->name, ctx, violations};
    return;
  }
  next();
}

}  // namespace azure_pricing::labels
