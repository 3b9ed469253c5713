#include "ref/pricing/host.h"

#include <atomic>
#include <iostream>
#include <memory>
#include <utility>

#include "ref/pricing/lookup.h"
#include "ref/pricing/messages.h"
#include "ref/pricing/report.h"
#include "ref/pricing/schema.h"
#include "ref/status/status_macros.h"

namespace azure_pricing {

namespace {

// Everything one attached tool shares between its calls: nothing of a call survives into the
// next one except the call counter.
struct AttachedTool {
  sandbox::Router* router;
  std::string agent_id;
  CallerContext context;
  ToolOptions options;
  sandbox::Spec spec;
  std::atomic<long long> calls{0};
};

Status DisposeFailed() {
  return Status(Outcome::kFailed, sandbox::kDisposeFailed, messages::kDisposeFailed);
}

// Acquire, bounded exec, dispose: one sandbox per Run, disposed on every path.
class SandboxCliRunner : public CliRunner {
 public:
  SandboxCliRunner(AttachedTool& tool, sandbox::SandboxKey key)
      : tool_(tool), key_(std::move(key)) {}

  StatusOr<CliResult> Run(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                          const HostBounds& bounds) override {
    // Written out, not ASSIGN_OR_RETURN: conformance/source_mutants/mutants.json rewrites these lines.
    StatusOr<sandbox::Lease> lease = tool_.router->Acquire(tool_.spec, key_);
    if (!lease.ok()) return lease.status();
    sandbox::BoundedExec* bounded = lease->sandbox().bounded_exec();
    if (bounded == nullptr) {
      if (!lease->Dispose().ok()) return DisposeFailed();
      return Status(Outcome::kRefused, reasons::kBoundedExecMissing,
                    messages::kSandboxWithoutBoundedExec);
    }
    sandbox::ExecRequest request;
    request.argv = argv;
    request.env = env;
    request.timeout_seconds = bounds.exec_timeout_seconds;
    request.max_output_bytes = bounds.max_output_bytes;
    StatusOr<sandbox::ExecResult> exec = bounded->ExecBounded(request);
    const Status disposed = lease->Dispose();
    // The result may be fine, but a sandbox that may have outlived its call is not.
    if (!disposed.ok()) return DisposeFailed();
    CliResult result;
    if (!exec.ok()) {
      if (exec.status().reason() == sandbox::kExecTimeoutReason) {
        result.timed_out = true;
      } else if (exec.status().reason() == sandbox::kExecOutputLimitReason) {
        result.output_limit_exceeded = true;
      } else {
        return Status(Outcome::kFailed, reasons::kExecFailed, messages::kExecFailed);
      }
      return result;
    }
    result.stdout_bytes = std::move(exec->stdout_bytes);
    result.stderr_bytes = std::move(exec->stderr_bytes);
    result.exit_code = exec->exit_code;
    return result;
  }

 private:
  AttachedTool& tool_;
  sandbox::SandboxKey key_;
};

bool Trusted(const std::optional<labels::ContentLabel>& label) {
  return label.has_value() && label->integrity == labels::Integrity::kTrusted;
}

labels::FunctionResult CallTool(AttachedTool& tool, labels::InvocationContext& ctx) {
  const long long n = ++tool.calls;
  // The framework's call id names the call; the counter keeps two calls that reuse an id (a
  // retry, a careless host) from ever sharing a sandbox key.
  sandbox::SandboxKey key{tool.agent_id, tool.context.session_id,
                          (ctx.call_id.empty() ? "call" : ctx.call_id) + "#" + std::to_string(n)};
  SandboxCliRunner runner(tool, std::move(key));
  const LookupOutcome outcome = RunLookup(ctx.arguments, tool.options.bounds, runner);

  const labels::Confidentiality host_conf =
      tool.options.confidentiality.value_or(labels::Confidentiality::kPublic);
  const labels::ContentLabel trusted{labels::Integrity::kTrusted, host_conf};
  labels::FunctionResult result;
  result.outcome = std::string(OutcomeName(outcome.outcome()));
  result.reason = std::string(outcome.reason());
  result.items.push_back({kCompletedItem, outcome.message(), trusted});
  result.items.push_back({kGuidanceItem, kPricingGuidance, trusted});
  if (outcome.report.has_value()) {
    // The report is workload data: untrusted, unless the host vouches for the source AND the
    // framework established trusted conversation and argument labels for this very call.
    const bool promote = tool.options.egress_integrity == labels::Integrity::kTrusted &&
                         Trusted(ctx.metadata.context_label) &&
                         Trusted(ctx.metadata.argument_label);
    const labels::ContentLabel stamp{
        promote ? labels::Integrity::kTrusted : labels::Integrity::kUntrusted, host_conf};
    result.items.push_back({kOutputItem, ReportToJson(*outcome.report), stamp});
  }
  return result;
}

}  // namespace

sandbox::Spec PricingSandboxSpec(const std::string& image) {
  sandbox::Spec spec;
  spec.os_family = sandbox::OsFamily::kPosix;
  spec.min_isolation = sandbox::Isolation::kContainer;
  spec.required = {sandbox::Capability::kExec};
  spec.egress = sandbox::Egress::kAllowlist;
  spec.egress_allow = {{kPricingHost, std::set<std::string>{"GET"}}};
  spec.isolation_scope = sandbox::IsolationScope::kCall;
  spec.cleanup = sandbox::Cleanup::kDispose;
  spec.image = image;
  return spec;
}

namespace {

// Everything refused at attach, before any tool exists.
Status CheckAttach(sandbox::Router& router, const std::string& agent_id, const ToolOptions& options,
                   const sandbox::Spec& spec) {
  if (options.image.empty()) {
    return Status(Outcome::kRefused, reasons::kImageRequired, messages::kImageRequired);
  }
  if (agent_id.empty()) {
    return Status(Outcome::kRefused, reasons::kAgentIdRequired, messages::kAgentIdRequired);
  }
  RETURN_IF_ERROR(ValidateHostBounds(options.bounds));
  if (options.outbound_max_confidentiality.has_value() &&
      !labels::ParseConfidentiality(*options.outbound_max_confidentiality).has_value()) {
    // The policy middleware would log an unknown cap and let every call pass.
    return Status(Outcome::kRefused, reasons::kInvalidOutboundCap, messages::kInvalidOutboundCap);
  }
  RETURN_IF_ERROR(router.EnsureCanServe(spec));
  if (!router.SelectedBackend()->declaration().bounded_exec) {
    return Status(Outcome::kRefused, reasons::kBoundedExecMissing,
                  messages::kBackendWithoutBoundedExec);
  }
  return OkStatus();
}

// The tool as the framework sees it: name, description, schema and its declared labels.
labels::Tool DescribeTool(const ToolOptions& options) {
  labels::Tool tool;
  tool.name = kToolName;
  tool.description = ToolDescription();
  tool.parameters_schema = ParameterSchemaJson();
  // The framework sees the fixed messages as trusted; the report carries its own stamp and the
  // tool's real claim about its workload stays "untrusted".
  tool.additional_properties[labels::kSourceIntegrity] = "trusted";
  tool.additional_properties[kDerivedIntegrity] = "untrusted";
  tool.additional_properties[kIsolationScopeProperty] = "call";
  if (options.confidentiality.has_value()) {
    tool.additional_properties[labels::kConfidentiality] =
        std::string(labels::Name(*options.confidentiality));
  }
  if (options.outbound_max_confidentiality.has_value()) {
    tool.additional_properties[labels::kMaxAllowedConfidentiality] =
        *options.outbound_max_confidentiality;
  }
  if (options.egress_integrity.has_value()) {
    tool.additional_properties[kEgressIntegrityProperty] =
        std::string(labels::Name(*options.egress_integrity));
  }
  return tool;
}

}  // namespace

StatusOr<std::vector<labels::Tool>> MakeAzurePricingTools(sandbox::Router* router,
                                                          const std::string& agent_id,
                                                          const CallerContext& context,
                                                          const ToolOptions& options,
                                                          Logger* logger) {
  WarnExperimentalOnce(logger);
  if (router == nullptr || !router->enabled()) return std::vector<labels::Tool>{};
  sandbox::Spec spec = PricingSandboxSpec(options.image);
  RETURN_IF_ERROR(CheckAttach(*router, agent_id, options, spec));
  auto attached = std::make_shared<AttachedTool>();
  attached->router = router;
  attached->agent_id = agent_id;
  attached->context = context;
  attached->options = options;
  attached->spec = std::move(spec);
  labels::Tool tool = DescribeTool(options);
  tool.func = [attached](labels::InvocationContext& ctx) { return CallTool(*attached, ctx); };
  return std::vector<labels::Tool>{std::move(tool)};
}

}  // namespace azure_pricing
