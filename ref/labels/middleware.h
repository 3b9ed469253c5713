// Function middleware as Microsoft Agent Framework runs it: each middleware gets the invocation
// context and a `next` that runs the rest of the chain and then the function body. Two of them
// carry FIDES (FRAMEWORK.md says which framework version each rule follows, and why):
//
// LabelTrackingFunctionMiddleware publishes the conversation label (context_label), the label of
// the call's arguments (argument_label) and their join (effective_invocation_label) before the
// call. After it, it labels every result item, hides untrusted items behind variable references
// while the conversation is still trusted (auto_hide_untrusted, on by default), and joins the
// result into the conversation: visible items for integrity, every item for confidentiality.
//
// PolicyEnforcementFunctionMiddleware checks, before the function body runs: an untrusted
// conversation or untrusted arguments into a tool that does not accept untrusted input; a
// conversation or arguments more confidential than the tool's max_allowed_confidentiality
// (absent = no check). Each violation goes to the audit log. With block_on_violation it
// terminates the call; otherwise it only logs. Without a published context_label it runs the
// call unchecked (fail-open), so the tracker must come first.
//
//   labels::LabelTrackingFunctionMiddleware tracker;
//   labels::PolicyEnforcementFunctionMiddleware policy(/*block_on_violation=*/true);
//   labels::InvokeFunction(tool, context, {&tracker, &policy});
#ifndef REF_LABELS_MIDDLEWARE_H_
#define REF_LABELS_MIDDLEWARE_H_

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ref/labels/labels.h"
#include "ref/labels/tool.h"

namespace azure_pricing::labels {

class FunctionMiddleware {
 public:
  virtual ~FunctionMiddleware() = default;
  virtual void Process(InvocationContext& context, const std::function<void()>& next) = 0;
};

// Runs `chain` in order around the tool's function. A middleware that does not call next ends
// the call there.
void InvokeFunction(const Tool& tool, InvocationContext& context,
                    const std::vector<FunctionMiddleware*>& chain);

class LabelTrackingFunctionMiddleware : public FunctionMiddleware {
 public:
  struct Options {
    Integrity default_integrity = Integrity::kUntrusted;
    Confidentiality default_confidentiality = Confidentiality::kPublic;
    // The framework's default: an untrusted item is hidden while the conversation is trusted.
    bool auto_hide_untrusted = true;
  };
  // What the variable store holds for one hidden item.
  struct Variable {
    std::string text;
    ContentLabel label;
    std::string function;  // the tool that returned it
  };

  LabelTrackingFunctionMiddleware();
  explicit LabelTrackingFunctionMiddleware(Options options);

  void Process(InvocationContext& context, const std::function<void()>& next) override;

  // The conversation so far; starts trusted/public and only ever joins upward.
  const ContentLabel& context_label() const { return context_label_; }
  // What earlier turns contributed (a user message carrying private data, a tool result).
  void JoinIntoContext(const ContentLabel& label);
  void ResetContextLabel() { context_label_ = ContentLabel{}; }

  // The variable store: every item this tracker hid, by variable id, in the order hidden.
  std::optional<Variable> FindVariable(const std::string& variable_id) const;
  std::vector<std::string> ListVariables() const;
  // What the model is shown for an item: its text, or for a hidden item the variable reference
  // as JSON ({"type":"variable_reference","variable_id":...,"security_label":{...}}).
  static std::string ModelView(const Content& item);

 private:
  ContentLabel FallbackLabel(const Tool& tool, const InvocationContext& context,
                             const ContentLabel& argument_label) const;
  void LabelResult(InvocationContext& context, const ContentLabel& fallback);
  bool ShouldHide(const ContentLabel& label, const std::string& function) const;
  void Hide(Content& item, const std::string& function);

  Options options_;
  ContentLabel context_label_;
  std::vector<std::pair<std::string, Variable>> variables_;
};

class PolicyEnforcementFunctionMiddleware : public FunctionMiddleware {
 public:
  explicit PolicyEnforcementFunctionMiddleware(bool block_on_violation = true,
                                               std::set<std::string> allow_untrusted_tools = {});

  void Process(InvocationContext& context, const std::function<void()>& next) override;

  // One entry per violation, written whether or not the call is then blocked.
  struct AuditEntry {
    std::string type;                    // untrusted_context, untrusted_arguments or
                                         // confidentiality_violation
    std::optional<std::string> subtype;  // max_allowed_confidentiality, for the third
    std::string function;
    ContentLabel context_label;
    std::optional<ContentLabel> argument_label;   // absent for untrusted_context
    std::optional<ContentLabel> effective_label;  // absent for untrusted_context
    std::string reason;
  };
  const std::vector<AuditEntry>& audit_log() const { return audit_log_; }
  // Warnings the framework would log: unchecked calls (no context label), invalid caps.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  struct Violation;
  std::vector<Violation> Check(const Tool& tool, const InvocationContext& context);

  bool block_on_violation_;
  std::set<std::string> allow_untrusted_tools_;
  std::vector<AuditEntry> audit_log_;
  std::vector<std::string> warnings_;
};

// The policy's violation names, as the framework reports them.
inline constexpr char kViolationUntrustedContext[] = "untrusted_context";
inline constexpr char kViolationUntrustedArguments[] = "untrusted_arguments";
inline constexpr char kViolationMaxAllowedConfidentiality[] = "max_allowed_confidentiality";

inline constexpr char kAuditConfidentialityViolation[] = "confidentiality_violation";

// What a host reports for a blocked call. The framework's own texts name the violation instead,
// and two of them never say "blocked", which the conformance profile requires of the message.
inline constexpr char kBlockedError[] = "The call was blocked by the information-flow policy.";

// The framework's fixed texts for a blocked call; a confidentiality block names both levels.
inline constexpr char kBlockedUntrustedContextError[] =
    "Policy violation: Tool cannot be called in untrusted context";
inline constexpr char kBlockedUntrustedArgumentsError[] =
    "Policy violation: Tool cannot receive untrusted variable content";

// The blocked call's result as the framework hands it to the model: error, function and
// context_label always; violation_type when the first violation names one; violations only when
// there are two or more.
std::string FrameworkResultJson(const BlockedCall& blocked);

// A tool by this name is never hidden: inspecting a variable exposes it on purpose.
inline constexpr char kInspectVariableTool[] = "inspect_variable";

}  // namespace azure_pricing::labels

#endif  // REF_LABELS_MIDDLEWARE_H_
