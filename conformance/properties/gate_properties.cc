#include "conformance/properties/gate_properties.h"

#include <rapidcheck.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <sstream>

#include "conformance/host/config_value.h"
#include "conformance/properties/generators.h"
#include "conformance/properties/host_generators.h"
#include "conformance/properties/labels_oracle.h"
#include "ref/json/json.h"
#include "ref/labels/labels.h"

namespace azure_pricing::conformance::properties {
namespace {

using conformance::host::CallReport;
using conformance::host::ScriptedCall;
using labels::Confidentiality;
using labels::ContentLabel;
using labels::Integrity;

constexpr char kLookup[] = R"({"sku":"Standard_D2s_v5","filter":"armRegionName eq 'westeurope'"})";

// The call, or a RapidCheck failure naming why it could not be made (a testee that errs).
CallReport Call(const GateExecutor& execute, const ScriptedCall& call) {
  const StatusOr<CallReport> report = execute(call);
  if (!report.ok()) RC_FAIL("the call could not be made: " + std::string(report.status().reason()));
  return *report;
}

// Nothing the implementation says (trusted part, warnings, violations, output) holds `text`.
bool Echoes(const CallReport& r, const std::string& text) {
  auto holds = [&](const std::string& s) { return s.find(text) != std::string::npos; };
  return std::any_of(r.trusted_messages.begin(), r.trusted_messages.end(), holds) ||
         std::any_of(r.warnings.begin(), r.warnings.end(), holds) ||
         std::any_of(r.violations.begin(), r.violations.end(), holds) ||
         (r.output && holds(*r.output));
}

// ARG-008, BOUND-015: a control character or a blank value in any string argument is refused
// before any sandbox exists, and the refusal does not repeat the value.
void BadValuesAreRefusedBeforeAnySandboxWithoutEcho(const GateExecutor& execute) {
  Json args = *GenValidArguments();
  if (!args.contains("sku")) args["sku"] = *GenSafeValue();
  const std::string key = *rc::gen::element<std::string>(
      "sku", "service", "region", "service_family", "price_type", "currency", "filter");
  const std::string prefix = *GenSafeValue();
  const std::string suffix = *GenSafeValue();
  const bool blank = *rc::gen::arbitrary<bool>();
  ScriptedCall call;
  call.arguments =
      ArgumentsText(args, key, blank ? *GenBlankValue() : prefix + *GenForbiddenCharacter() + suffix);
  call.scripts.push_back({.exec = {.stdout_bytes = SuccessEnvelope()}});
  const CallReport r = Call(execute, call);
  RC_ASSERT(r.outcome == Outcome::kRefused);
  RC_ASSERT(r.sandbox_acquisitions == 0);
  if (!blank) {
    RC_ASSERT(!Echoes(r, prefix));
    RC_ASSERT(!Echoes(r, suffix));
  }
}

// ARG-001, BOUND-015: an argument the tool does not define is refused before any sandbox, and
// neither its name nor its value comes back.
void UnknownArgumentsAreRefusedWithoutEchoingNameOrValue(const GateExecutor& execute) {
  Json args = *GenValidArguments();
  const std::string name = "x" + *GenSafeValue();
  const std::string value = *GenSafeValue();
  args[name] = value;
  ScriptedCall call;
  call.arguments = args.dump();
  call.scripts.push_back({.exec = {.stdout_bytes = SuccessEnvelope()}});
  const CallReport r = Call(execute, call);
  RC_ASSERT(r.outcome == Outcome::kRefused);
  RC_ASSERT(r.sandbox_acquisitions == 0);
  RC_ASSERT(!Echoes(r, name));
  RC_ASSERT(!Echoes(r, value));
}

// INTRO-002..005, INTRO-007, ARG-007: valid arguments run the one fixed command, once, in one
// fresh sandbox that is disposed.
void ValidArgumentsRunTheFixedArgvOnceInOneSandbox(const GateExecutor& execute) {
  const Json args = *GenValidArguments();
  ScriptedCall call;
  call.arguments = args.dump();
  call.scripts.push_back({.exec = {.stdout_bytes = SuccessEnvelope()}});
  const CallReport r = Call(execute, call);
  RC_ASSERT(r.outcome == Outcome::kCompleted);
  RC_ASSERT(r.sandbox_acquisitions == 1);
  RC_ASSERT(r.sandbox_disposals == 1);
  RC_ASSERT(r.execs == 1);
  RC_ASSERT(r.unbounded_execs == 0);
  RC_ASSERT(ArgvProblem(args, r.argv) == "");
}

// Row counts near the CLI's ceiling are drawn often; the rest anywhere in 0..6,000.
rc::Gen<int> GenRowCount() {
  return rc::gen::oneOf(rc::gen::element(0, 1, 99, 100, 101, 4999, 5000, 5001, 6000),
                        rc::gen::inRange(0, 6001));
}

// BOUND-016..018, BOUND-021: received_rows = N, returned_rows = min(N, max_rows),
// upstream_limit_reached = N >= 5,000, truncated = N > max_rows or N >= 5,000.
void RowCountsAndTruncationFollowTheCeiling(const GateExecutor& execute) {
  const int n = *GenRowCount();
  const int64_t max_rows =
      *rc::gen::oneOf(rc::gen::element<int64_t>(1, 100, 5000), rc::gen::inRange<int64_t>(1, 5001));
  ScriptedCall call;
  call.arguments = R"({"sku":"Standard_D4s_v5"})";
  call.max_rows = max_rows;
  const std::vector<Json> rows = RepeatRows(*rc::gen::container<std::vector<Json>>(3, GenRow()), n);
  call.scripts.push_back({.exec = {.stdout_bytes = PrintEnvelope(rows, 313)}});
  const CallReport r = Call(execute, call);
  RC_ASSERT(r.outcome == Outcome::kCompleted);
  RC_ASSERT(r.output.has_value());
  const Json report = Json::parse(*r.output, nullptr, false);
  RC_ASSERT(report.is_object());
  RC_ASSERT(report.value("received_rows", Json()) == Json(n));
  RC_ASSERT(report.value("returned_rows", Json()) == Json(std::min<int64_t>(n, max_rows)));
  RC_ASSERT(report.value("upstream_limit_reached", Json()) == Json(n >= 5000));
  RC_ASSERT(report.value("truncated", Json()) == Json(n > max_rows || n >= 5000));
  RC_ASSERT(report.contains("prices") && report["prices"].size() ==
                                             static_cast<size_t>(std::min<int64_t>(n, max_rows)));
}

// INTRO-007, BOUND-004: whatever the sandbox does (timeout, overflow, exec error, stderr, a
// failing acquire or dispose), every acquired sandbox is disposed, and only a clean run
// completes with an output.
void EverySandboxIsDisposedAndFaultsFailClosed(const GateExecutor& execute) {
  const fakes::sandbox::CallScript script = *GenCallScript();
  ScriptedCall call;
  call.arguments = kLookup;
  call.exec_timeout_seconds = PropertyToolOptions().bounds.exec_timeout_seconds;
  call.max_output_bytes = PropertyToolOptions().bounds.max_output_bytes;
  call.scripts.push_back(script);
  const CallReport r = Call(execute, call);
  RC_ASSERT(r.sandbox_live == 0);
  RC_ASSERT(r.sandbox_acquisitions == (script.fail_acquire ? 0 : 1));
  RC_ASSERT(r.sandbox_disposals == r.sandbox_acquisitions);
  RC_ASSERT((r.outcome == Outcome::kCompleted) == ScriptSucceeds(script));
  RC_ASSERT(r.output.has_value() == ScriptSucceeds(script));
}

// The host, labels and middleware of one generated call, as the case JSON states them.
struct LabelSetup {
  std::optional<Integrity> egress;
  std::optional<Confidentiality> host_confidentiality, cap;
  ContentLabel conversation;
  std::vector<ContentLabel> arguments;
  std::vector<Middleware> chain;
};

ScriptedCall LabelledCall(const LabelSetup& s);

// A counterexample prints as the call's host JSON, labels JSON and middleware.
void showValue(const LabelSetup& s, std::ostream& os) {
  const ScriptedCall call = LabelledCall(s);
  os << "host " << json::Serialize(call.host) << " labels " << json::Serialize(call.labels)
     << " middleware [";
  for (size_t i = 0; i < call.middleware.size(); ++i) os << (i ? "," : "") << call.middleware[i];
  os << "]";
}

ScriptedCall LabelledCall(const LabelSetup& s) {
  ScriptedCall call;
  call.arguments = kLookup;
  Json host = Json::object();
  if (s.egress) host["egress_integrity"] = std::string(labels::Name(*s.egress));
  if (s.host_confidentiality) {
    host["confidentiality"] = std::string(labels::Name(*s.host_confidentiality));
  }
  if (s.cap) host["outbound_max_confidentiality"] = std::string(labels::Name(*s.cap));
  call.host = host::ConfigValueOf(host);
  Json argument_labels = Json::array();
  for (const ContentLabel& l : s.arguments) argument_labels.push_back(host::JsonOfLabel<Json>(l));
  call.labels = host::ConfigValueOf(
      Json{{"conversation", host::JsonOfLabel<Json>(s.conversation)}, {"arguments", argument_labels}});
  for (const Middleware m : s.chain) {
    call.middleware.push_back(m == Middleware::kTracker  ? "tracker"
                              : m == Middleware::kPolicy ? "policy"
                                                         : "policy-log");
  }
  call.scripts.push_back({.exec = {.stdout_bytes = SuccessEnvelope()}});
  return call;
}

rc::Gen<LabelSetup> GenLabelSetup() {
  return rc::gen::exec([] {
    LabelSetup s;
    s.egress = *GenOptional(GenIntegrity());
    s.host_confidentiality = *GenOptional(GenConfidentiality());
    s.cap = *GenOptional(GenConfidentiality());
    s.conversation = *GenLabel();
    s.arguments =
        *rc::gen::container<std::vector<ContentLabel>>(*rc::gen::inRange<size_t>(0, 4), GenLabel());
    s.chain = *GenChain();
    return s;
  });
}

// INTEG-003..005, POLICY-003..005: blocking, promotion and confidentiality follow the labels.
void BlockingAndPromotionFollowTheLabels(const GateExecutor& execute) {
  const LabelSetup s = *GenLabelSetup();
  const CallReport r = Call(execute, LabelledCall(s));
  const ExpectedLabels want = ExpectedFor(s.chain, s.conversation, s.arguments, s.cap, s.egress);
  RC_ASSERT((r.outcome == Outcome::kBlocked) == want.blocked);
  if (want.blocked) {
    RC_ASSERT(r.sandbox_acquisitions == 0);
    return;
  }
  RC_ASSERT(r.outcome == Outcome::kCompleted);
  RC_ASSERT(r.result_label.has_value());
  RC_ASSERT((r.result_label->integrity == Integrity::kTrusted) == want.trusted);
  const Confidentiality floor = s.host_confidentiality.value_or(Confidentiality::kPublic);
  RC_ASSERT(r.result_label->confidentiality >= floor);
  if (want.has_tracker) {
    RC_ASSERT(r.result_label->confidentiality ==
              std::max(floor, want.arguments_confidentiality));
  }
}

using Body = void (*)(const GateExecutor&);

struct Entry {
  GatePropertyInfo info;
  Body body;
  // Runs cases / divisor calls: each call of the row-count property carries up to 6,000 rows
  // (3.6 MB through a testee's pipe), and its edge values come up often at any count.
  int divisor = 1;
};

const std::vector<Entry>& Entries() {
  static const std::vector<Entry> entries = {
      {{"prop-bad-values-refused-before-any-sandbox", {"ARG-008", "BOUND-015"},
        "a control character or a blank value is refused, no sandbox, no echo"},
       BadValuesAreRefusedBeforeAnySandboxWithoutEcho},
      {{"prop-unknown-argument-refused-without-echo", {"ARG-001", "BOUND-015"},
        "an unknown argument is refused, no sandbox, neither name nor value echoed"},
       UnknownArgumentsAreRefusedWithoutEchoingNameOrValue},
      {{"prop-valid-arguments-run-the-fixed-argv",
        {"INTRO-002", "INTRO-003", "INTRO-004", "INTRO-005", "INTRO-007", "ARG-007"},
        "valid arguments: one sandbox, one bounded exec of the fixed argv, disposed"},
       ValidArgumentsRunTheFixedArgvOnceInOneSandbox},
      {{"prop-row-counts-and-truncation",
        {"BOUND-016", "BOUND-017", "BOUND-018", "BOUND-021"},
        "received, returned, truncated and upstream_limit_reached follow N and max_rows"},
       RowCountsAndTruncationFollowTheCeiling, 4},
      {{"prop-every-sandbox-disposed-faults-fail-closed", {"INTRO-007", "BOUND-004"},
        "any sandbox fault: every acquired sandbox disposed; only a clean run completes"},
       EverySandboxIsDisposedAndFaultsFailClosed},
      {{"prop-labels-block-and-promote",
        {"INTEG-003", "INTEG-004", "INTEG-005", "POLICY-003", "POLICY-004", "POLICY-005"},
        "blocking, promotion and confidentiality follow the labels and the middleware order"},
       BlockingAndPromotionFollowTheLabels},
  };
  return entries;
}

// RapidCheck starts an assertion's description with "path/file.cc:LINE:"; a known-failures
// list (which holds the detail exactly) must not go stale whenever this file is edited.
std::string WithoutSourceLocation(const std::string& description) {
  const size_t cc = description.find(".cc:");
  if (cc == std::string::npos || description.find_first_of(" \n") < cc) return description;
  const size_t end = description.find(':', cc + 4);
  if (end == std::string::npos) return description;
  return description.substr(description.find_first_not_of(" \n", end + 1) == std::string::npos
                                ? description.size()
                                : description.find_first_not_of(" \n", end + 1));
}

// One line: how the property was falsified and the shrunk counterexample's values (their C++
// type names would only be noise to an implementer of another language).
std::string Describe(const rc::detail::TestResult& result) {
  std::string text;
  if (result.is<rc::detail::FailureResult>()) {
    const auto& failure = result.get<rc::detail::FailureResult>();
    text = "falsified after " + std::to_string(failure.numSuccess + 1) + " calls; counterexample:";
    for (const auto& [type, value] : failure.counterExample) text += " " + value + ";";
    text += " " + WithoutSourceLocation(failure.description);
  } else {
    std::ostringstream out;
    rc::detail::printResultMessage(result, out);
    text = out.str();
  }
  for (char& c : text) c = c == '\n' ? ' ' : c;
  return text;
}

// RapidCheck's default listener prints its own configuration (a seed the gate does not use) and,
// at exit, an RC_PARAMS line; the gate reports each result itself, with its --seed.
class QuietListener : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

GatePropertyResult RunOne(const Entry& entry, const GateExecutor& execute,
                          const GatePropertyOptions& options) {
  GatePropertyResult out{.info = entry.info};
  rc::detail::TestParams params;
  params.seed = options.seed;
  params.maxSuccess = std::max(1, options.cases / entry.divisor);
  rc::detail::TestMetadata metadata;
  metadata.id = entry.info.id;
  metadata.description = entry.info.id;
  const auto start = std::chrono::steady_clock::now();
  QuietListener quiet;
  const rc::detail::TestResult result = rc::detail::checkProperty(
      rc::detail::toProperty([&] { entry.body(execute); }), metadata, params, quiet, {});
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (result.is<rc::detail::SuccessResult>()) {
    out.passed = true;
    out.cases_passed = result.get<rc::detail::SuccessResult>().numSuccess;
    return out;
  }
  if (result.is<rc::detail::FailureResult>()) {
    out.cases_passed = result.get<rc::detail::FailureResult>().numSuccess;
  }
  out.detail = Describe(result);
  return out;
}

}  // namespace

const std::vector<GatePropertyInfo>& GateProperties() {
  static const std::vector<GatePropertyInfo> infos = [] {
    std::vector<GatePropertyInfo> out;
    for (const Entry& e : Entries()) out.push_back(e.info);
    return out;
  }();
  return infos;
}

std::vector<GatePropertyResult> RunGateProperties(
    const GateExecutor& execute, const GatePropertyOptions& options,
    const std::function<bool(const std::string& id)>& selected) {
  std::vector<GatePropertyResult> out;
  for (const Entry& e : Entries()) {
    if (selected && !selected(e.info.id)) continue;
    out.push_back(RunOne(e, execute, options));
  }
  return out;
}

}  // namespace azure_pricing::conformance::properties
