#include "conformance/host/scripted_host.h"

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string_view>
#include <utility>

#include "conformance/host/config_keys.h"
#include "ref/json/json.h"
#include "ref/labels/middleware.h"
#include "ref/pricing/host.h"
#include "ref/pricing/reasons.h"
#include "ref/sandbox/router.h"
#include "ref/status/status_macros.h"

namespace azure_pricing::conformance::host {

using azure_pricing::Outcome;
using azure_pricing::Status;
using azure_pricing::StatusOr;
namespace json = azure_pricing::json;

namespace {

// The function result states its outcome in words (ref/labels/tool.h).
std::optional<Outcome> OutcomeNamed(std::string_view name) {
  for (Outcome o : {Outcome::kCompleted, Outcome::kRefused, Outcome::kFailed, Outcome::kBlocked}) {
    if (azure_pricing::OutcomeName(o) == name) return o;
  }
  return std::nullopt;
}

Status Invalid(const std::string& what) {
  return Status(Outcome::kRefused, kInvalidConfiguration, what);
}

// Every name of an enum whose enumerators run from 0 to `last`, for telling a person what a
// configuration value may be ("trusted, untrusted").
template <typename Enum>
std::string NamesOf(Enum last) {
  std::string out;
  for (int i = 0; i <= static_cast<int>(last); ++i) {
    if (i > 0) out += ", ";
    out += Name(static_cast<Enum>(i));
  }
  return out;
}

class Config {
 public:
  static StatusOr<Config> Of(const std::string& part, const json::Value& value) {
    if (!value.is_object()) return Invalid("the " + part + " configuration is not a JSON object");
    return Config(part, value);
  }

  // Every key must be one of `known` (config_keys.h).
  Status Keys(std::span<const std::string_view> known) const {
    for (const json::Member& m : value_.members()) {
      bool ok = false;
      for (std::string_view k : known) ok = ok || m.key == k;
      if (!ok) return Invalid("the " + part_ + " configuration has an unknown key: " + m.key);
    }
    return azure_pricing::OkStatus();
  }

  const json::Value* Get(std::string_view key) const {
    const json::Value* v = value_.Find(key);
    return (v == nullptr || v->is_null()) ? nullptr : v;
  }

  Status String(std::string_view key, std::optional<std::string>& out) const {
    const json::Value* v = Get(key);
    if (v == nullptr) return azure_pricing::OkStatus();
    if (!v->is_string()) return WrongType(key);
    out = v->as_string();
    return azure_pricing::OkStatus();
  }
  Status Int(std::string_view key, int64_t& out) const {
    const json::Value* v = Get(key);
    if (v == nullptr) return azure_pricing::OkStatus();
    // Range first: casting an out-of-range double is undefined.
    if (!v->is_number() || !(v->as_number() >= -9.0e15 && v->as_number() <= 9.0e15) ||
        v->as_number() != static_cast<double>(static_cast<int64_t>(v->as_number()))) {
      return WrongType(key);
    }
    out = static_cast<int64_t>(v->as_number());
    return azure_pricing::OkStatus();
  }
  Status Bool(std::string_view key, bool& out) const {
    const json::Value* v = Get(key);
    if (v == nullptr) return azure_pricing::OkStatus();
    if (!v->is_bool()) return WrongType(key);
    out = v->as_bool();
    return azure_pricing::OkStatus();
  }
  Status Strings(std::string_view key, std::optional<std::vector<std::string>>& out) const {
    const json::Value* v = Get(key);
    if (v == nullptr) return azure_pricing::OkStatus();
    if (!v->is_array()) return WrongType(key);
    std::vector<std::string> items;
    for (const json::Value& item : v->items()) {
      if (!item.is_string()) return WrongType(key);
      items.push_back(item.as_string());
    }
    out = std::move(items);
    return azure_pricing::OkStatus();
  }
  // A list of names replacing `out` when present; every name must parse.
  template <typename T, typename Parse>
  Status EnumSet(std::string_view key, Parse parse, T last, std::set<T>& out) const {
    std::optional<std::vector<std::string>> names;
    if (Status s = Strings(key, names); !s.ok() || !names) return s;
    out.clear();
    for (const std::string& name : *names) {
      const std::optional<T> value = parse(name);
      if (!value) return NotOneOf(key, NamesOf(last), "each of ");
      out.insert(*value);
    }
    return azure_pricing::OkStatus();
  }
  Status WrongType(std::string_view key) const {
    return Invalid("the " + part_ + " configuration's " + std::string(key) +
                   " has the wrong type or value");
  }
  // A name outside its enum: the message lists the names it may be.
  Status NotOneOf(std::string_view key, const std::string& names,
                  std::string_view each = "") const {
    return Invalid(std::string(each) + "the " + part_ + " configuration's " + std::string(key) +
                   " must be one of: " + names);
  }
  StatusOr<Config> Child(std::string_view key) const {
    const json::Value* v = Get(key);
    if (v == nullptr) return Config(part_ + "." + std::string(key), json::Value::Object());
    if (!v->is_object()) return WrongType(key);
    return Config(part_ + "." + std::string(key), *v);
  }
  const json::Value& value() const { return value_; }
  const std::string& part() const { return part_; }

 private:
  Config(std::string part, json::Value value) : part_(std::move(part)), value_(std::move(value)) {}
  std::string part_;
  json::Value value_;
};

StatusOr<labels::ContentLabel> ParseLabel(const Config& c) {
  RETURN_IF_ERROR(c.Keys(kLabelKeys));
  std::optional<std::string> integrity, confidentiality;
  RETURN_IF_ERROR(c.String("integrity", integrity));
  RETURN_IF_ERROR(c.String("confidentiality", confidentiality));
  labels::ContentLabel label;
  if (integrity) {
    auto i = labels::ParseIntegrity(*integrity);
    if (!i) return c.NotOneOf("integrity", NamesOf(labels::Integrity::kUntrusted));
    label.integrity = *i;
  }
  if (confidentiality) {
    auto k = labels::ParseConfidentiality(*confidentiality);
    if (!k) return c.NotOneOf("confidentiality", NamesOf(labels::Confidentiality::kUserIdentity));
    label.confidentiality = *k;
  }
  return label;
}

struct HostSetup {
  azure_pricing::ToolOptions options;
  std::string agent_id = "conformance-agent";
  bool router_present = true;
  bool router_has_backend = true;
  ::azure_pricing::sandbox::RouterOptions router;
};

StatusOr<HostSetup> ParseHost(const json::Value& value) {
  ASSIGN_OR_RETURN(Config c, Config::Of("host", value));
  RETURN_IF_ERROR(c.Keys(kHostKeys));
  HostSetup h;
  // The harness host runs container-class backends on purpose, as a Docker host would.
  h.router.min_isolation = ::azure_pricing::sandbox::Isolation::kContainer;
  std::optional<std::string> image, egress, conf;
  h.options.image = "azure-pricing-conformance/fake-image";
  RETURN_IF_ERROR(c.String("image", image));
  if (image) h.options.image = *image;
  std::optional<std::string> agent_id;
  RETURN_IF_ERROR(c.String("agent_id", agent_id));
  if (agent_id) h.agent_id = *agent_id;
  RETURN_IF_ERROR(c.Int("exec_timeout_seconds", h.options.bounds.exec_timeout_seconds));
  RETURN_IF_ERROR(c.Int("max_output_bytes", h.options.bounds.max_output_bytes));
  RETURN_IF_ERROR(c.Int("max_rows", h.options.bounds.max_rows));
  RETURN_IF_ERROR(c.String("outbound_max_confidentiality", h.options.outbound_max_confidentiality));
  RETURN_IF_ERROR(c.String("egress_integrity", egress));
  if (egress) {
    h.options.egress_integrity = labels::ParseIntegrity(*egress);
    if (!h.options.egress_integrity) {
      return c.NotOneOf("egress_integrity", NamesOf(labels::Integrity::kUntrusted));
    }
  }
  RETURN_IF_ERROR(c.String("confidentiality", conf));
  if (conf) {
    h.options.confidentiality = labels::ParseConfidentiality(*conf);
    if (!h.options.confidentiality) {
      return c.NotOneOf("confidentiality", NamesOf(labels::Confidentiality::kUserIdentity));
    }
  }
  ASSIGN_OR_RETURN(Config r, c.Child("router"));
  RETURN_IF_ERROR(r.Keys(kRouterKeys));
  RETURN_IF_ERROR(r.Bool("present", h.router_present));
  RETURN_IF_ERROR(r.Bool("enabled", h.router.enabled));
  RETURN_IF_ERROR(r.Bool("has_backend", h.router_has_backend));
  RETURN_IF_ERROR(r.EnumSet("denied_capabilities", ::azure_pricing::sandbox::ParseCapability,
                            ::azure_pricing::sandbox::Capability::kEgressMethods,
                            h.router.denied_capabilities));
  std::optional<std::string> floor;
  RETURN_IF_ERROR(r.String("min_isolation", floor));
  if (floor) {
    auto iso = ::azure_pricing::sandbox::ParseIsolation(*floor);
    if (!iso) return r.NotOneOf("min_isolation", NamesOf(::azure_pricing::sandbox::Isolation::kVm));
    h.router.min_isolation = *iso;
  }
  return h;
}

}  // namespace

StatusOr<BackendSetup> ParseBackendSetup(const json::Value& value) {
  ASSIGN_OR_RETURN(Config c, Config::Of("backend", value));
  RETURN_IF_ERROR(c.Keys(kBackendKeys));
  BackendSetup b;
  fakes::sandbox::BackendDeclaration& d = b.declaration;
  std::optional<std::string> name, isolation;
  RETURN_IF_ERROR(c.String("name", name));
  if (name) d.name = *name;
  RETURN_IF_ERROR(c.String("isolation", isolation));
  if (isolation) {
    auto iso = ::azure_pricing::sandbox::ParseIsolation(*isolation);
    if (!iso) return c.NotOneOf("isolation", NamesOf(::azure_pricing::sandbox::Isolation::kVm));
    d.isolation = *iso;
  }
  RETURN_IF_ERROR(c.EnumSet("os_families", ::azure_pricing::sandbox::ParseOsFamily,
                            ::azure_pricing::sandbox::OsFamily::kWindows, d.os_families));
  RETURN_IF_ERROR(c.EnumSet("capabilities", ::azure_pricing::sandbox::ParseCapability,
                            ::azure_pricing::sandbox::Capability::kEgressMethods, d.capabilities));
  RETURN_IF_ERROR(c.EnumSet("egress_modes", ::azure_pricing::sandbox::ParseEgress,
                            ::azure_pricing::sandbox::Egress::kUnrestricted, d.egress_modes));
  std::optional<std::vector<std::string>> list;
  if (const json::Value* v = c.value().Find("egress_method_tokens")) {
    if (v->is_null()) {
      d.egress_method_tokens.reset();
    } else {
      RETURN_IF_ERROR(c.Strings("egress_method_tokens", list));
      d.egress_method_tokens = std::set<std::string>(list->begin(), list->end());
    }
  }
  RETURN_IF_ERROR(c.Bool("bounded_exec", d.bounded_exec));
  RETURN_IF_ERROR(c.Bool("withhold_bounded_exec", b.withhold_bounded_exec));
  return b;
}

namespace {

struct LabelSetup {
  labels::ContentLabel conversation;
  std::vector<labels::ContentLabel> arguments;
};

StatusOr<LabelSetup> ParseLabels(const json::Value& value) {
  ASSIGN_OR_RETURN(Config c, Config::Of("labels", value));
  RETURN_IF_ERROR(c.Keys(kLabelsKeys));
  LabelSetup l;
  ASSIGN_OR_RETURN(Config conv, c.Child("conversation"));
  ASSIGN_OR_RETURN(labels::ContentLabel label, ParseLabel(conv));
  l.conversation = label;
  if (const json::Value* args = c.Get("arguments")) {
    if (!args->is_array()) return c.WrongType("arguments");
    for (const json::Value& item : args->items()) {
      if (!item.is_object()) return c.WrongType("arguments");
      ASSIGN_OR_RETURN(Config one, Config::Of("labels.arguments", item));
      ASSIGN_OR_RETURN(labels::ContentLabel arg, ParseLabel(one));
      l.arguments.push_back(arg);
    }
  }
  return l;
}

class CollectingLogger : public azure_pricing::Logger {
 public:
  explicit CollectingLogger(std::vector<std::string>* out) : out_(out) {}
  void Warning(std::string_view category, std::string_view message) override {
    out_->push_back(std::string(category) + ": " + std::string(message));
  }

 private:
  std::vector<std::string>* out_;
};

void AppendLabel(std::string& out, const labels::ContentLabel& label) {
  out += "{\"integrity\":";
  json::AppendQuoted(out, labels::Name(label.integrity));
  out += ",\"confidentiality\":";
  json::AppendQuoted(out, labels::Name(label.confidentiality));
  out += "}";
}

void AppendStrings(std::string& out, const std::vector<std::string>& items) {
  out += "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ",";
    json::AppendQuoted(out, items[i]);
  }
  out += "]";
}

}  // namespace

namespace {

// The framework's middleware, in the order the call names them. Not movable: `chain` points
// into the members.
struct MiddlewareChain {
  labels::LabelTrackingFunctionMiddleware tracker;
  std::vector<std::unique_ptr<labels::PolicyEnforcementFunctionMiddleware>> policies;
  std::vector<labels::FunctionMiddleware*> chain;
};

Status BuildChain(const ScriptedCall& call, const LabelSetup& labels_setup, MiddlewareChain& out) {
  out.tracker.JoinIntoContext(labels_setup.conversation);
  for (const std::string& name : call.middleware) {
    if (name == "tracker") {
      out.chain.push_back(&out.tracker);
    } else if (name == "policy" || name == "policy-log") {
      out.policies.push_back(
          std::make_unique<labels::PolicyEnforcementFunctionMiddleware>(name == "policy"));
      out.chain.push_back(out.policies.back().get());
    } else {
      return Invalid("unknown middleware " + name + " (tracker, policy, policy-log)");
    }
  }
  return azure_pricing::OkStatus();
}

// One call of the tool through the chain; an error only when the host itself went wrong.
Status InvokeTool(const labels::Tool& tool, const ScriptedCall& call,
                  const LabelSetup& labels_setup, const MiddlewareChain& middleware,
                  CallReport& report) {
  labels::InvocationContext ctx;
  ctx.arguments = call.arguments;
  ctx.call_id = call.call_id;
  ctx.argument_labels = labels_setup.arguments;
  labels::InvokeFunction(tool, ctx, middleware.chain);
  if (ctx.blocked.has_value()) {
    report.outcome = Outcome::kBlocked;
    report.reason = reasons::kPolicyViolation;
    report.violations = ctx.blocked->violations;
    report.trusted_messages = {ctx.blocked->error};
    return azure_pricing::OkStatus();
  }
  if (!ctx.result.has_value()) return Invalid("the tool did not run");
  const std::optional<Outcome> outcome = OutcomeNamed(ctx.result->outcome);
  if (!outcome.has_value()) return Invalid("the tool ended with an outcome the host does not know");
  report.outcome = *outcome;
  report.reason = ctx.result->reason;
  for (const labels::Content& item : ctx.result->items) {
    if (item.name == azure_pricing::kOutputItem) {
      report.output = item.text;
      report.result_label = item.security_label;
      report.output_variable = item.variable_id;
    } else {
      report.trusted_messages.push_back(item.text);
    }
  }
  return azure_pricing::OkStatus();
}

// The conversation label after the call and this call's audit entries, named as the policy's
// violations are: a confidentiality entry by its subtype.
void CollectLabelTracking(const MiddlewareChain& middleware, std::vector<size_t>& audit_seen,
                          CallReport& report) {
  report.conversation_label = middleware.tracker.context_label();
  for (size_t i = 0; i < middleware.policies.size(); ++i) {
    const auto& log = middleware.policies[i]->audit_log();
    for (size_t e = audit_seen[i]; e < log.size(); ++e) {
      report.audit_log.push_back(log[e].subtype.value_or(log[e].type));
    }
    audit_seen[i] = log.size();
  }
}

}  // namespace

SandboxMark MarkOf(const fakes::sandbox::FakeBackend& backend) {
  return {.acquisitions = backend.acquisitions(),
          .disposals = backend.disposals(),
          .file_operations = backend.file_operations(),
          .execs = backend.execs().size()};
}

void CollectSandboxCounts(const fakes::sandbox::FakeBackend& backend, CallReport& report,
                          const SandboxMark& since) {
  report.sandbox_acquisitions = backend.acquisitions() - since.acquisitions;
  report.sandbox_disposals = backend.disposals() - since.disposals;
  report.sandbox_live = backend.live();
  report.file_operations = backend.file_operations() - since.file_operations;
  const std::vector<fakes::sandbox::AcquireRecord> acquires = backend.acquires();
  const size_t first_acquire = static_cast<size_t>(since.acquisitions);
  for (size_t i = first_acquire; i < acquires.size(); ++i) report.acquires.push_back(acquires[i]);
  const std::vector<fakes::sandbox::ExecRecord> execs = backend.execs();
  for (size_t i = since.execs; i < execs.size(); ++i) {
    ++report.execs;
    if (!execs[i].bounded) ++report.unbounded_execs;
    report.argv = execs[i].request.argv;
    report.exec_requests.push_back(execs[i].request);
  }
}

StatusOr<std::unique_ptr<fakes::sandbox::FakeBackend>> MakeScriptedBackend(
    const ScriptedCall& call) {
  ASSIGN_OR_RETURN(BackendSetup setup, ParseBackendSetup(call.backend));
  auto backend = std::make_unique<fakes::sandbox::FakeBackend>(setup.declaration);
  backend->SetWithholdBoundedExec(setup.withhold_bounded_exec);
  for (const fakes::sandbox::CallScript& s : call.scripts) backend->Script(s);
  return backend;
}

// Everything a host keeps between calls. Not movable: the chain, the router and the tools
// point into it.
struct ScriptedHost::State {
  HostSetup host;
  LabelSetup labels;
  MiddlewareChain middleware;
  std::unique_ptr<::azure_pricing::sandbox::Router> router;
  std::vector<std::string> warnings;  // the logger's, not yet reported
  CollectingLogger logger{&warnings};
  std::vector<size_t> policy_warnings_seen;  // per policy, how many were reported
  std::vector<size_t> policy_audit_seen;     // per policy, how many audit entries were reported
  // What make_azure_pricing_tools returned, or why there is no tool to call.
  std::vector<labels::Tool> tools;
  Status no_tool;
};

ScriptedHost::ScriptedHost(std::unique_ptr<State> state) : state_(std::move(state)) {}
ScriptedHost::~ScriptedHost() = default;

StatusOr<std::unique_ptr<ScriptedHost>> ScriptedHost::Build(const ScriptedCall& call,
                                                            const BackendFor& backend_for) {
  auto state = std::make_unique<State>();
  ASSIGN_OR_RETURN(HostSetup host, ParseHost(call.host));
  ASSIGN_OR_RETURN(BackendSetup backend_setup, ParseBackendSetup(call.backend));
  ASSIGN_OR_RETURN(LabelSetup label_setup, ParseLabels(call.labels));
  state->host = std::move(host);
  state->labels = std::move(label_setup);
  RETURN_IF_ERROR(BuildChain(call, state->labels, state->middleware));
  state->policy_warnings_seen.resize(state->middleware.policies.size(), 0);
  state->policy_audit_seen.resize(state->middleware.policies.size(), 0);

  azure_pricing::HostBounds& bounds = state->host.options.bounds;
  if (call.max_rows) bounds.max_rows = *call.max_rows;
  if (call.exec_timeout_seconds) bounds.exec_timeout_seconds = *call.exec_timeout_seconds;
  if (call.max_output_bytes) bounds.max_output_bytes = *call.max_output_bytes;

  ::azure_pricing::sandbox::Backend* backend = backend_for(backend_setup);
  if (backend == nullptr) return Invalid("the host has no backend to put behind its router");
  std::vector<::azure_pricing::sandbox::Backend*> backends;
  if (state->host.router_has_backend) backends.push_back(backend);
  state->router =
      std::make_unique<::azure_pricing::sandbox::Router>(backends, state->host.router);
  // Each scripted host is its own process as far as the warning goes.
  azure_pricing::ResetExperimentalWarning();
  const HostSetup& h = state->host;
  StatusOr<std::vector<labels::Tool>> tools = azure_pricing::MakeAzurePricingTools(
      h.router_present ? state->router.get() : nullptr, h.agent_id, {"conformance-session"},
      h.options, &state->logger);
  if (!tools.ok()) {
    state->no_tool = tools.status();
  } else if (tools->empty()) {
    state->no_tool = Status(
        Outcome::kRefused, kNoTool,
        "make_azure_pricing_tools returned no tool: the sandbox router is disabled or absent.");
  } else {
    state->tools = std::move(*tools);
  }
  return std::unique_ptr<ScriptedHost>(new ScriptedHost(std::move(state)));
}

StatusOr<CallReport> ScriptedHost::Call(const ScriptedCall& call) {
  State& s = *state_;
  CallReport report;
  if (s.tools.empty()) {
    report.outcome = s.no_tool.outcome();
    report.reason = std::string(s.no_tool.reason());
    report.trusted_messages = {s.no_tool.message()};
  } else {
    report.tools = s.tools.size();
    report.tool_name = s.tools.front().name;
    report.tool_description = s.tools.front().description;
    report.tool_parameters_schema = s.tools.front().parameters_schema;
    RETURN_IF_ERROR(InvokeTool(s.tools.front(), call, s.labels, s.middleware, report));
  }
  // This call's warnings: what the logger and each policy said since the last call.
  report.warnings = std::move(s.warnings);
  s.warnings.clear();
  for (size_t i = 0; i < s.middleware.policies.size(); ++i) {
    const std::vector<std::string>& all = s.middleware.policies[i]->warnings();
    for (size_t w = s.policy_warnings_seen[i]; w < all.size(); ++w) {
      report.warnings.push_back(all[w]);
    }
    s.policy_warnings_seen[i] = all.size();
  }
  CollectLabelTracking(s.middleware, s.policy_audit_seen, report);
  return report;
}

StatusOr<CallReport> RunHostedCall(const ScriptedCall& call, const BackendFor& backend_for) {
  ASSIGN_OR_RETURN(std::unique_ptr<ScriptedHost> host, ScriptedHost::Build(call, backend_for));
  return (host)->Call(call);
}

StatusOr<CallReport> ScriptedHostRunner::Run(const ScriptedCall& call) {
  if (call.same_host) {
    if (host_ == nullptr) return Invalid("a same_host call with no host before it");
    for (const fakes::sandbox::CallScript& script : call.scripts) backend_->Script(script);
  } else {
    host_.reset();
    backend_.reset();
    StatusOr<std::unique_ptr<fakes::sandbox::FakeBackend>> backend = MakeScriptedBackend(call);
    // A backend JSON that does not parse is reported by Build, in its order of checks.
    StatusOr<std::unique_ptr<ScriptedHost>> host = ScriptedHost::Build(
        call, [&backend](const BackendSetup&) -> ::azure_pricing::sandbox::Backend* {
          return backend.ok() ? backend->get() : nullptr;
        });
    if (!host.ok()) return host.status();
    backend_ = std::move(*backend);
    host_ = std::move(*host);
  }
  const SandboxMark mark = MarkOf(*backend_);
  StatusOr<CallReport> report = host_->Call(call);
  if (report.ok()) CollectSandboxCounts(*backend_, *report, mark);
  return report;
}

StatusOr<CallReport> RunScriptedCall(const ScriptedCall& call) {
  ScriptedHostRunner runner;
  return runner.Run(call);
}

std::string CallReportToJson(const CallReport& r) {
  std::string out = "{\"outcome\":";
  json::AppendQuoted(out, azure_pricing::OutcomeName(r.outcome));
  out += ",\"reason\":";
  if (r.reason.empty()) {
    out += "null";
  } else {
    json::AppendQuoted(out, r.reason);
  }
  out += ",\"message\":";
  json::AppendQuoted(out, r.trusted_messages.empty() ? "" : r.trusted_messages.front());
  if (r.output.has_value()) {
    out += ",\"report\":";
    out += *r.output;
  }
  out += ",\"result_label\":";
  if (r.result_label.has_value()) {
    AppendLabel(out, *r.result_label);
  } else {
    out += "null";
  }
  out += ",\"trusted_messages\":";
  AppendStrings(out, r.trusted_messages);
  if (!r.violations.empty()) {
    out += ",\"violations\":";
    AppendStrings(out, r.violations);
  }
  out += ",\"tools\":" + std::to_string(r.tools);
  out += ",\"sandbox_acquisitions\":" + std::to_string(r.sandbox_acquisitions);
  out += ",\"sandbox_disposals\":" + std::to_string(r.sandbox_disposals);
  out += "}";
  return out;
}

std::string ConfigurationKeysHelp() {
  std::string out =
      "Keys in --host-json, --backend-json and --labels-json (a.b: b in a; a[]: an item of a):\n";
  for (const ConfigObject& object : kConfigObjects) {
    std::string line = "  " + std::string(object.path) + ":";
    for (size_t i = 0; i < object.keys.size(); ++i) {
      const std::string key =
          " " + std::string(object.keys[i]) + (i + 1 < object.keys.size() ? "," : "");
      // Wrapped to the width of the usage text.
      if (line.size() + key.size() > 96) {
        out += line + "\n";
        line = "   ";
      }
      line += key;
    }
    out += line + "\n";
  }
  return out;
}

std::string ConfigurationValuesHelp() {
  namespace sb = ::azure_pricing::sandbox;
  return "Values in --host-json, --backend-json and --labels-json:\n"
         "  integrity, egress_integrity: " + NamesOf(labels::Integrity::kUntrusted) + "\n" +
         "  confidentiality, outbound_max_confidentiality: " +
         NamesOf(labels::Confidentiality::kUserIdentity) + "\n" +
         "  isolation, min_isolation (weakest first): " + NamesOf(sb::Isolation::kVm) + "\n" +
         "  capabilities, denied_capabilities: " + NamesOf(sb::Capability::kEgressMethods) +
         "\n" + "  os_families: " + NamesOf(sb::OsFamily::kWindows) + "\n" +
         "  egress_modes: " + NamesOf(sb::Egress::kUnrestricted) + "\n";
}

json::Value ConfigFromText(std::string_view text) {
  json::ParseResult parsed = json::ParseStrict(text);
  if (parsed.error != json::ParseError::kNone) return json::Value::String(std::string(text));
  return std::move(parsed.value);
}

}  // namespace azure_pricing::conformance::host
