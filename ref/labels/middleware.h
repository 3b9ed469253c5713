// Function middleware as Microsoft Agent Framework runs it: each middleware gets the invocation
// context and a `next` that runs the rest of the chain and then the function body. Two of them
// carry FIDES:
//
// LabelTrackingFunctionMiddleware publishes the conversation label (context_label), the label of
// the call's arguments (argument_label) and their join (effective_invocation_label) before the
// call, and after it labels every result item and joins the result into the conversation.
//
// PolicyEnforcementFunctionMiddleware checks, before the function body runs: an untrusted
// conversation or untrusted arguments into a tool that does not accept untrusted input; a
// conversation or arguments more confidential than the tool's max_allowed_confidentiality
// (absent = no check). With block_on_violation it terminates the call; otherwise it only logs.
// Without a published context_label it runs the call unchecked (fail-open), so the tracker must
// come first.
//
//   labels::LabelTrackingFunctionMiddleware tracker;
//   labels::PolicyEnforcementFunctionMiddleware policy(/*block_on_violation=*/true);
//   labels::InvokeFunction(tool, context, {&tracker, &policy});
#ifndef REF_LABELS_MIDDLEWARE_H_
#define REF_LABELS_MIDDLEWARE_H_

#include <functional>
#include <set>
#include <string>
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
  };
  LabelTrackingFunctionMiddleware();
  explicit LabelTrackingFunctionMiddleware(Options options);

  void Process(InvocationContext& context, const std::function<void()>& next) override;

  // The conversation so far; starts trusted/public and only ever joins upward.
  const ContentLabel& context_label() const { return context_label_; }
  // What earlier turns contributed (a user message carrying private data, a tool result).
  void JoinIntoContext(const ContentLabel& label);
  void ResetContextLabel() { context_label_ = ContentLabel{}; }

 private:
  Options options_;
  ContentLabel context_label_;
};

class PolicyEnforcementFunctionMiddleware : public FunctionMiddleware {
 public:
  explicit PolicyEnforcementFunctionMiddleware(bool block_on_violation = true,
                                               std::set<std::string> allow_untrusted_tools = {});

  void Process(InvocationContext& context, const std::function<void()>& next) override;

  struct AuditEntry {
    std::string function;
    std::vector<std::string> violations;
    bool blocked = false;
  };
  const std::vector<AuditEntry>& audit_log() const { return audit_log_; }
  // Warnings the framework would log: unchecked calls (no context label), invalid caps.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  bool block_on_violation_;
  std::set<std::string> allow_untrusted_tools_;
  std::vector<AuditEntry> audit_log_;
  std::vector<std::string> warnings_;
};

// The policy's violation names, as the framework reports them.
inline constexpr char kViolationUntrustedContext[] = "untrusted_context";
inline constexpr char kViolationUntrustedArguments[] = "untrusted_arguments";
inline constexpr char kViolationMaxAllowedConfidentiality[] = "max_allowed_confidentiality";

inline constexpr char kBlockedError[] = "The call was blocked by the information-flow policy.";

}  // namespace azure_pricing::labels

#endif  // REF_LABELS_MIDDLEWARE_H_
