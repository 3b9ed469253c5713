#include "ref/labels/middleware.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <utility>

#include "ref/json/json.h"

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

// The framework exempts a tool only for the boolean True (`is True`); this string map writes
// that boolean as "true", so no other spelling ("True", "1", "yes") exempts.
bool AcceptsUntrusted(const Tool& tool, const std::set<std::string>& allowed) {
  const std::string* flag = tool.Property(kAcceptsUntrusted);
  return (flag != nullptr && *flag == "true") || allowed.count(tool.name) != 0;
}

void AppendLabel(std::string& out, const ContentLabel& label) {
  out += "{\"integrity\":";
  json::AppendQuoted(out, Name(label.integrity));
  out += ",\"confidentiality\":";
  json::AppendQuoted(out, Name(label.confidentiality));
  out += "}";
}

std::string Upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
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
  // A block ends the framework's chain with an exception, so the tracker labels nothing.
  if (context.blocked.has_value() || context.function == nullptr) return;
  const ContentLabel fallback = FallbackLabel(*context.function, context, argument_label);
  if (!context.result.has_value()) {
    // No result, nothing that could reach the conversation.
    context.metadata.result_label = fallback;
    return;
  }
  LabelResult(context, fallback);
}

ContentLabel LabelTrackingFunctionMiddleware::FallbackLabel(
    const Tool& tool, const InvocationContext& context, const ContentLabel& argument_label) const {
  // A declared source_integrity is used alone (tier 2); otherwise the framework-held argument
  // labels decide (tier 3), and with none the default integrity.
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
  return fallback;
}

void LabelTrackingFunctionMiddleware::LabelResult(InvocationContext& context,
                                                  const ContentLabel& fallback) {
  const std::string& function = context.function->name;
  std::vector<ContentLabel> item_labels;
  std::vector<ContentLabel> visible_labels;
  for (Content& item : context.result->items) {
    // Per-item labels only restrict (core 1.19): an item can be less trusted or more
    // confidential than the fallback, never the other way round.
    item.security_label =
        item.security_label.has_value() ? Join(fallback, *item.security_label) : fallback;
    item_labels.push_back(*item.security_label);
    if (ShouldHide(*item.security_label, function)) {
      Hide(item, function);
    } else {
      visible_labels.push_back(*item.security_label);
    }
  }
  const ContentLabel result_label = item_labels.empty() ? fallback : JoinAll(item_labels);
  context.metadata.result_label = result_label;
  // Only what the model sees can steer it, so hidden items (and an empty result) leave the
  // conversation's integrity alone; confidentiality counts every item, since hidden values can
  // still be forwarded to a sink.
  ContentLabel exposed{context_label_.integrity, result_label.confidentiality};
  if (!visible_labels.empty()) exposed.integrity = JoinAll(visible_labels).integrity;
  JoinIntoContext(exposed);
}

bool LabelTrackingFunctionMiddleware::ShouldHide(const ContentLabel& label,
                                                 const std::string& function) const {
  // Once the conversation is untrusted, hiding protects nothing.
  return options_.auto_hide_untrusted && label.integrity == Integrity::kUntrusted &&
         context_label_.integrity == Integrity::kTrusted && function != kInspectVariableTool;
}

void LabelTrackingFunctionMiddleware::Hide(Content& item, const std::string& function) {
  char id[32];
  std::snprintf(id, sizeof id, "var_%016zx", variables_.size() + 1);
  variables_.emplace_back(id, Variable{item.text, *item.security_label, function});
  item.variable_id = id;
}

std::optional<LabelTrackingFunctionMiddleware::Variable>
LabelTrackingFunctionMiddleware::FindVariable(const std::string& variable_id) const {
  for (const auto& [id, variable] : variables_) {
    if (id == variable_id) return variable;
  }
  return std::nullopt;
}

std::vector<std::string> LabelTrackingFunctionMiddleware::ListVariables() const {
  std::vector<std::string> ids;
  for (const auto& entry : variables_) ids.push_back(entry.first);
  return ids;
}

std::string LabelTrackingFunctionMiddleware::ModelView(const Content& item) {
  if (!item.variable_id.has_value()) return item.text;
  std::string out = "{\"type\":\"variable_reference\",\"variable_id\":";
  json::AppendQuoted(out, *item.variable_id);
  out += ",\"security_label\":";
  AppendLabel(out, item.security_label.value_or(ContentLabel{Integrity::kUntrusted}));
  out += "}";
  return out;
}

struct PolicyEnforcementFunctionMiddleware::Violation {
  std::string type;                        // the name BlockedCall::violations lists
  std::string error;                       // the framework's text for a block
  std::optional<std::string> result_type;  // violation_type in the blocked result
  AuditEntry audit;
};

PolicyEnforcementFunctionMiddleware::PolicyEnforcementFunctionMiddleware(
    bool block_on_violation, std::set<std::string> allow_untrusted_tools)
    : block_on_violation_(block_on_violation),
      allow_untrusted_tools_(std::move(allow_untrusted_tools)) {}

std::vector<PolicyEnforcementFunctionMiddleware::Violation>
PolicyEnforcementFunctionMiddleware::Check(const Tool& tool, const InvocationContext& context) {
  const ContentLabel& ctx = *context.metadata.context_label;
  const ContentLabel arguments = context.metadata.argument_label.value_or(ContentLabel{});
  const ContentLabel effective = Join(ctx, arguments);
  std::vector<Violation> violations;
  const bool exempt = AcceptsUntrusted(tool, allow_untrusted_tools_);
  if (!exempt && ctx.integrity == Integrity::kUntrusted) {
    violations.push_back({kViolationUntrustedContext, kBlockedUntrustedContextError, std::nullopt,
                          {kViolationUntrustedContext, std::nullopt, tool.name, ctx, std::nullopt,
                           std::nullopt,
                           "Context is UNTRUSTED and the tool does not accept untrusted input"}});
  }
  if (!exempt && context.metadata.argument_label.has_value() &&
      context.metadata.argument_label->integrity == Integrity::kUntrusted) {
    violations.push_back(
        {kViolationUntrustedArguments, kBlockedUntrustedArgumentsError,
         kViolationUntrustedArguments,
         {kViolationUntrustedArguments, std::nullopt, tool.name, ctx, arguments, effective,
          "Arguments resolve to UNTRUSTED content and the tool does not accept untrusted input"}});
  }
  // The confidentiality check always runs; absent cap = no check, invalid cap = logged, passes.
  if (const std::string* cap_text = tool.Property(kMaxAllowedConfidentiality)) {
    const std::optional<Confidentiality> cap = ParseConfidentiality(*cap_text);
    if (!cap.has_value()) {
      warnings_.push_back("invalid max_allowed_confidentiality: not checked");
    } else {
      Confidentiality highest = ctx.confidentiality;
      if (context.metadata.argument_label.has_value()) {
        highest = std::max(highest, context.metadata.argument_label->confidentiality);
      }
      if (highest > *cap) {
        const std::string reason = "Cannot write " + Upper(Name(highest)) + " data to " +
                                   Upper(Name(*cap)) +
                                   " destination (data exfiltration blocked)";
        violations.push_back({kViolationMaxAllowedConfidentiality, "Policy violation: " + reason,
                              kViolationMaxAllowedConfidentiality,
                              {kAuditConfidentialityViolation, kViolationMaxAllowedConfidentiality,
                               tool.name, ctx, arguments, effective, reason}});
      }
    }
  }
  return violations;
}

void PolicyEnforcementFunctionMiddleware::Process(InvocationContext& context,
                                                  const std::function<void()>& next) {
  const Tool* tool = context.function;
  if (tool == nullptr || !context.metadata.context_label.has_value()) {
    // Fail-open, as the framework does: nothing to check against.
    warnings_.push_back("no context label: the call ran unchecked");
    next();
    return;
  }
  const std::vector<Violation> violations = Check(*tool, context);
  for (const Violation& v : violations) audit_log_.push_back(v.audit);
  if (violations.empty() || !block_on_violation_) {
    next();
    return;
  }
  BlockedCall blocked{kBlockedError, tool->name, *context.metadata.context_label, {},
                      violations.front().result_type, violations.front().error};
  for (const Violation& v : violations) blocked.violations.push_back(v.type);
  context.blocked = std::move(blocked);
}

std::string FrameworkResultJson(const BlockedCall& blocked) {
  std::string out = "{\"error\":";
  json::AppendQuoted(out, blocked.result_error);
  out += ",\"function\":";
  json::AppendQuoted(out, blocked.function);
  out += ",\"context_label\":";
  AppendLabel(out, blocked.context_label);
  if (blocked.violation_type.has_value()) {
    out += ",\"violation_type\":";
    json::AppendQuoted(out, *blocked.violation_type);
  }
  if (blocked.violations.size() > 1) {
    out += ",\"violations\":[";
    for (size_t i = 0; i < blocked.violations.size(); ++i) {
      if (i > 0) out += ",";
      json::AppendQuoted(out, blocked.violations[i]);
    }
    out += "]";
  }
  out += "}";
  return out;
}

}  // namespace azure_pricing::labels
