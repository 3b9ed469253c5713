// The framework's view of a tool and of one invocation of it: the tool's name, description,
// parameter schema, additional properties (where FIDES declarations live) and function; the
// invocation context that middleware reads and writes; and the labelled content a function
// returns. A model of agent_framework's FunctionTool / FunctionInvocationContext, reduced to what
// label tracking and policy enforcement use.
#ifndef REF_LABELS_TOOL_H_
#define REF_LABELS_TOOL_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ref/labels/labels.h"

namespace azure_pricing::labels {

// Keys of Tool::additional_properties that the middlewares read.
inline constexpr char kSourceIntegrity[] = "source_integrity";
inline constexpr char kConfidentiality[] = "confidentiality";
inline constexpr char kMaxAllowedConfidentiality[] = "max_allowed_confidentiality";
inline constexpr char kAcceptsUntrusted[] = "accepts_untrusted";

// One item of a function result. `name` says which part of the result it is (for a sandbox
// result: "completed", "guidance" or "output").
struct Content {
  std::string name;
  std::string text;
  std::optional<ContentLabel> security_label;
  // Set when the label tracker hid the item behind a variable reference. The model is shown the
  // reference (LabelTrackingFunctionMiddleware::ModelView); `text` stays here for the host, which
  // in the framework would fetch it back from the tracker's variable store.
  std::optional<std::string> variable_id;
};

struct FunctionResult {
  std::vector<Content> items;
  // How the function body ended, in its own words: "completed", "refused" or "failed".
  std::string outcome;
  std::string reason;
};

struct InvocationContext;

struct Tool {
  std::string name;
  std::string description;
  std::string parameters_schema;  // JSON Schema text
  std::map<std::string, std::string> additional_properties;
  std::function<FunctionResult(InvocationContext&)> func;

  const std::string* Property(const std::string& key) const {
    auto it = additional_properties.find(key);
    return it == additional_properties.end() ? nullptr : &it->second;
  }
};

// What the policy middleware leaves in the context when it blocks a call.
struct BlockedCall {
  std::string error;  // the host's fixed sentence (kBlockedError), which its report carries
  std::string function;
  ContentLabel context_label;
  // Every violation, in check order: "untrusted_context", "untrusted_arguments", ... The
  // framework's own result lists them only when there are two or more.
  std::vector<std::string> violations;
  // The rest of the framework's result (FrameworkResultJson renders it as the model receives
  // it): the first violation's type where the framework names one (it does not for
  // untrusted_context), and that violation's text.
  std::optional<std::string> violation_type;
  std::string result_error;
};

struct InvocationContext {
  const Tool* function = nullptr;
  std::string call_id;
  std::string arguments;                      // JSON text as the model sent it
  std::vector<ContentLabel> argument_labels;  // labels the framework holds for argument values

  // Published by the label tracker; absent when it has not run (yet).
  struct Metadata {
    std::optional<ContentLabel> context_label;
    std::optional<ContentLabel> argument_label;
    std::optional<ContentLabel> effective_invocation_label;
    std::optional<ContentLabel> result_label;
  } metadata;

  std::optional<FunctionResult> result;  // set once the function body ran
  std::optional<BlockedCall> blocked;    // set when a middleware terminated the call
};

}  // namespace azure_pricing::labels

#endif  // REF_LABELS_TOOL_H_
