// A whole host on one page, for the command line and the conformance cases: a router over the
// scripted fake backend, make_azure_pricing_tools with the host's options, the framework's
// middleware chain with given labels, and one call of the tool. Everything is configured from
// JSON (the same text a case file or `azure_pricing --host-json/--backend-json/--labels-json`
// holds), and the result says what the framework and the backend saw.
//
// The keys each JSON may hold are in config_keys.h, their meanings in
// conformance/testee/PROTOCOL.md. Absent backend keys keep PricingCapableDeclaration();
// "egress_method_tokens": null means every token. The middleware are names in chain order:
// "tracker", "policy" (block_on_violation), "policy-log".
#ifndef CONFORMANCE_HOST_SCRIPTED_HOST_H_
#define CONFORMANCE_HOST_SCRIPTED_HOST_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fakes/sandbox/fake_backend.h"
#include "ref/json/json.h"
#include "ref/labels/labels.h"
#include "ref/status/status.h"

namespace azure_pricing::conformance::host {

struct ScriptedCall {
  std::string arguments;  // the tool arguments as the model sent them
  // The framework's call id for this call (FunctionInvocationContext.call_id); empty: none.
  std::string call_id;
  // A further call in the previous call's host, as a conversation makes: the same tools,
  // router, middleware and backend, whose scripts this call's are appended to. The
  // configuration members below are the first call's, repeated, and are not read again.
  bool same_host = false;
  // The host configuration (config_keys.h), as values; one that is not an object is refused as
  // invalid_configuration.
  json::Value host = json::Value::Object();
  json::Value backend = json::Value::Object();
  json::Value labels = json::Value::Object();
  std::vector<std::string> middleware;
  std::vector<fakes::sandbox::CallScript>
      scripts;  // one per acquisition; past the end: exit 0 with empty output
  // Applied over the host JSON's bounds (the command line's --max-rows and friends).
  std::optional<int64_t> max_rows, exec_timeout_seconds, max_output_bytes;
};

// The scripted host's own reason codes (Outcome::kRefused), beside the tool's in
// ref/pricing/reasons.h: the configuration given to the host is unusable, or the host ended up
// with no tool to call.
inline constexpr Reason kInvalidConfiguration = "invalid_configuration";
inline constexpr Reason kNoTool = "no_tool";

struct CallReport {
  Outcome outcome = Outcome::kCompleted;
  std::string reason;                                // a reasons:: code; empty when completed
  size_t tools = 0;                                  // what make_azure_pricing_tools returned
  // The first tool as the model sees it (empty when there is none): its name, description and
  // parameter schema (JSON Schema text).
  std::string tool_name;
  std::string tool_description;
  std::string tool_parameters_schema;
  std::vector<std::string> trusted_messages;         // the trusted part, in order
  std::optional<std::string> output;                 // the price report JSON
  std::optional<labels::ContentLabel> result_label;  // the output's label as the host sees it
  std::vector<std::string> violations;               // when blocked
  std::vector<std::string> warnings;                 // experimental warning, policy warnings
  // How the host's label tracking treated the call (testee protocol version 4): the variable id
  // the model was shown instead of the output (nullopt: the output, if any, was shown as text),
  // the conversation label after the call, and the violations every policy middleware wrote to
  // the audit log during it, in chain order, named as `violations` names them.
  std::optional<std::string> output_variable;
  std::optional<labels::ContentLabel> conversation_label;
  std::vector<std::string> audit_log;
  // False for a testee that speaks an older protocol version, whose report does not carry the
  // three members above: a case that judges them cannot pass.
  bool reports_label_tracking = true;
  int sandbox_acquisitions = 0;
  int sandbox_disposals = 0;
  int sandbox_live = 0;
  int execs = 0;
  int unbounded_execs = 0;
  int file_operations = 0;
  std::vector<std::string> argv;  // of the last exec
  // What this call asked of the backend, in order: the specs and keys it acquired with and the
  // requests it ran (argv, env, budgets). Like the counts, the backend's record, never the
  // implementation's word.
  std::vector<fakes::sandbox::AcquireRecord> acquires;
  std::vector<::azure_pricing::sandbox::ExecRequest> exec_requests;
};

// Makes one call of a host case: a ScriptedHostRunner in process, or a testee over the testee
// protocol (conformance/testee). A case's "then" calls come with same_host set, right after the
// case's own. An error status is a case that could not be run.
using CallExecutor = std::function<azure_pricing::StatusOr<CallReport>(const ScriptedCall&)>;

// What a call's backend JSON declares.
struct BackendSetup {
  fakes::sandbox::BackendDeclaration declaration = fakes::sandbox::PricingCapableDeclaration();
  bool withhold_bounded_exec = false;
};
azure_pricing::StatusOr<BackendSetup> ParseBackendSetup(const json::Value& backend);

// A configuration given as text (a command line's, version 2 of the testee protocol's): its
// value when it is strict JSON, else the text as a JSON string, which the host refuses as it
// would refuse any configuration that is not an object.
json::Value ConfigFromText(std::string_view text);

// The scripted backend a call describes: its backend JSON's declaration, its scripts in order.
azure_pricing::StatusOr<std::unique_ptr<fakes::sandbox::FakeBackend>> MakeScriptedBackend(
    const ScriptedCall& call);

// The backend to put behind the router, given what the call's backend JSON declares; it must
// outlive the call. nullptr fails the call as a configuration error.
using BackendFor = std::function<::azure_pricing::sandbox::Backend*(const BackendSetup&)>;

// The one host-building path: parses a call's configuration (host, backend, labels,
// middleware, in that order) and builds router, tools and middleware around `backend_for`'s
// backend, once; Call then makes any number of calls in it, as one conversation would. The
// in-process run and the reference testee (conformance/testee) both come through here, so they
// cannot drift apart.
class ScriptedHost {
 public:
  // A configuration error (not JSON, unknown key or value) is an error status with reason
  // kInvalidConfiguration.
  static azure_pricing::StatusOr<std::unique_ptr<ScriptedHost>> Build(
      const ScriptedCall& call, const BackendFor& backend_for);
  ~ScriptedHost();
  ScriptedHost(const ScriptedHost&) = delete;
  ScriptedHost& operator=(const ScriptedHost&) = delete;

  // One call with `call.arguments` and `call.call_id`. The report's sandbox counts and argv are
  // left at zero: only whoever holds the scripted backend knows them (CollectSandboxCounts).
  azure_pricing::StatusOr<CallReport> Call(const ScriptedCall& call);

 private:
  struct State;
  explicit ScriptedHost(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// ScriptedHost::Build, then one Call.
azure_pricing::StatusOr<CallReport> RunHostedCall(const ScriptedCall& call,
                                                  const BackendFor& backend_for);

// How far a backend's record had got, so a call's share of it can be told from its host's.
struct SandboxMark {
  int acquisitions = 0;
  int disposals = 0;
  int file_operations = 0;
  size_t execs = 0;
};
SandboxMark MarkOf(const fakes::sandbox::FakeBackend& backend);

// What the scripted backend saw since `since`: acquisitions, disposals, file operations, execs,
// the last exec's argv, the acquires and exec requests; live sandboxes as of now.
void CollectSandboxCounts(const fakes::sandbox::FakeBackend& backend, CallReport& report,
                          const SandboxMark& since = {});

// Scripted calls in process: a new host over MakeScriptedBackend per call, or, for a call with
// same_host, the previous call's host and backend. Each report has its own call's sandbox
// counts. A configuration error is an error status with reason kInvalidConfiguration, as is a
// same_host call with no host before it; everything the tool does is in the report.
class ScriptedHostRunner {
 public:
  azure_pricing::StatusOr<CallReport> Run(const ScriptedCall& call);

 private:
  std::unique_ptr<fakes::sandbox::FakeBackend> backend_;  // outlives host_
  std::unique_ptr<ScriptedHost> host_;
};

// One call in a host of its own (ScriptedHostRunner without a previous host).
azure_pricing::StatusOr<CallReport> RunScriptedCall(const ScriptedCall& call);

// {"outcome" (OutcomeName), "reason", "message", "report", "result_label", "trusted_messages",
//  "violations", "sandbox_acquisitions", "sandbox_disposals", "tools"}
std::string CallReportToJson(const CallReport& report);

// The keys each configuration object may hold (config_keys.h), one object per line, for --help.
std::string ConfigurationKeysHelp();

// The names each enumerated configuration value may take, one key per line, for --help; made
// from the same names the parser accepts.
std::string ConfigurationValuesHelp();

}  // namespace azure_pricing::conformance::host

#endif  // CONFORMANCE_HOST_SCRIPTED_HOST_H_
