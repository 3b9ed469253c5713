#include "conformance/cases/expectations.h"

#include <initializer_list>
#include <set>
#include <string_view>
#include <tuple>

#include "conformance/host/config_keys.h"
#include "conformance/host/config_value.h"
#include "conformance/json_schema/json_schema.h"
#include "conformance/judge/cli_request.h"
#include "conformance/judge/json_diff.h"
#include "conformance/judge/message_facts.h"
#include "conformance/judge/profile_facts.h"
#include "ref/pricing/lookup.h"
#include "ref/zones/location_values.h"

namespace azure_pricing::conformance {
namespace {

using nlohmann::ordered_json;

using CheckFunction = std::string (*)(const ordered_json& expect, const Observed& got);
using CheckKeys = std::initializer_list<std::string_view>;

// The expect properties kChecks declares for `check`: a check of several reads its own there.
CheckKeys KeysOf(CheckFunction check);

// An input that is a location value up to the spaces around it names a constant of the tool,
// which a message may state (docs/profile.md, PROFILE-001): " Global" is refused with a message
// that says Global.
bool IsToolConstant(std::string_view input) {
  constexpr std::string_view kSpaces = " \t";
  const size_t begin = input.find_first_not_of(kSpaces);
  if (begin == std::string_view::npos) return false;
  const size_t end = input.find_last_not_of(kSpaces);
  return zones::IsLocationValue(input.substr(begin, end - begin + 1));
}

}  // namespace

// Collects every string inside a JSON value (the arguments a model sent, or a CLI envelope).
void CollectStrings(const ordered_json& v, std::vector<std::string>& out) {
  if (v.is_string()) {
    out.push_back(v.get<std::string>());
  } else if (v.is_structured()) {
    for (const auto& item : v) CollectStrings(item, out);
  }
}

std::string EchoProblem(const std::string& message, const std::vector<std::string>& inputs) {
  for (const std::string& s : inputs) {
    if (s.size() >= 6 && !IsToolConstant(s) && message.find(s) != std::string::npos) {
      return "message echoes an input of " + std::to_string(s.size()) + " bytes";
    }
  }
  return "";
}

namespace {


std::string Mismatch(const ordered_json& got, const ordered_json& want) {
  return got.dump() + ", want " + want.dump();
}

std::string Missing(const ordered_json& parts, const std::string& text, const char* what) {
  std::string problems;
  for (const auto& part : parts) {
    if (text.find(part.get<std::string>()) == std::string::npos) {
      problems += std::string(problems.empty() ? "" : ", ") + what + " lacks \"" +
                  part.get<std::string>() + "\"";
    }
  }
  return problems;
}

std::string CheckOutcome(const ordered_json& expect, const Observed& got) {
  const std::string want = expect["outcome"].get<std::string>();
  if (got.outcome != want) return got.outcome + ", want " + want;
  // A plan is judged by the command it runs: completing without one plans nothing.
  if (got.plan_only && got.outcome == "completed" && !got.Planned()) {
    return "completed without running the CLI";
  }
  return "";
}

std::string CheckReason(const ordered_json& expect, const Observed& got) {
  if (!expect.contains("reason") || got.Planned()) return "";
  const std::string want = expect["reason"].get<std::string>();
  return got.reason == want ? "" : got.reason + ", want " + want;
}

// As the CLI binds it (PROFILE-004), with the filter the CLI sends compared by structure
// (PROFILE-005).
std::string CheckArgv(const ordered_json& expect, const Observed& got) {
  if (!expect.contains("argv") || !got.argv) return "";
  // An empty argv is a call that never reached the CLI; say so, not which word it lacks.
  if (got.argv->empty()) {
    return "the CLI was never run (the call " + got.outcome +
           (got.reason.empty() ? "" : " as " + got.reason) + ")";
  }
  return judge::DescribeArgvDifference(*got.argv, expect["argv"].get<std::vector<std::string>>());
}

// A case's facts: each a string, a list of alternatives, or {"any": [...], "case_sensitive"}.
std::vector<judge::Fact> FactsOf(const ordered_json& facts) {
  std::vector<judge::Fact> out;
  for (const auto& f : facts) {
    judge::Fact fact;
    const ordered_json& any = f.is_object() ? f["any"] : f;
    if (any.is_string()) {
      fact.any.push_back(any.get<std::string>());
    } else {
      for (const auto& a : any) fact.any.push_back(a.get<std::string>());
    }
    fact.case_sensitive = f.is_object() && f.value("case_sensitive", false);
    out.push_back(std::move(fact));
  }
  return out;
}

// One clause for all the facts `text` lacks: `WHAT does not state "a", "b | c"`.
std::string MissingFactsIn(const std::vector<judge::Fact>& facts, const std::string& text,
                           const std::string& what) {
  std::string missing;
  for (const std::string& fact : judge::MissingFacts(text, facts)) {
    missing += std::string(missing.empty() ? "" : ", ") + "\"" + fact + "\"";
  }
  return missing.empty() ? "" : what + " does not state " + missing;
}

std::string MissingFactsOf(const ordered_json& facts, const std::string& text, const char* what) {
  return MissingFactsIn(FactsOf(facts), text, what);
}

// Read once: the profile is the one place the facts are written down.
const judge::ProfileFacts* Profile() {
  static const std::optional<judge::ProfileFacts> facts = judge::LoadProfileFacts();
  return facts ? &*facts : nullptr;
}

std::string MessageTableFacts(const judge::ProfileFacts& profile, const char* name,
                              const std::string& text, const std::string& what) {
  const auto it = profile.by_message.find(name);
  if (it == profile.by_message.end()) return std::string("the profile has no ") + name + " row";
  return MissingFactsIn(it->second, text, what);
}

// A completed call's fixed messages: completion, truncation and the standing guidance.
std::string CompletedCallFacts(const judge::ProfileFacts& profile, const Observed& got) {
  const std::vector<std::string>& messages = got.report->trusted_messages;
  const std::string first = messages.empty() ? "" : messages[0];
  std::string problems = MessageTableFacts(profile, "completed", first, "trusted_messages[0]");
  auto add = [&problems](const std::string& p) {
    if (!p.empty()) problems += (problems.empty() ? "" : ", ") + p;
  };
  const ordered_json* report = got.output && !got.output->is_discarded() ? &*got.output : nullptr;
  // At the CLI's ceiling the report is truncated too; its message speaks of the ceiling.
  const bool ceiling = report != nullptr && report->value("upstream_limit_reached", false) == true;
  const bool cut = report != nullptr && report->value("truncated", false) == true;
  const char* flag = ceiling ? "upstream_limit_reached" : cut ? "truncated" : nullptr;
  if (flag != nullptr) {
    add(MessageTableFacts(profile, flag, first, std::string("trusted_messages[0] (") + flag + ")"));
  }
  if (messages.size() < 2) {
    add("trusted_messages[1] (the standing guidance) is missing");
  } else {
    add(MessageTableFacts(profile, "guidance", messages[1], "trusted_messages[1] (guidance)"));
  }
  return problems;
}

// The facts docs/profile.md gives the call's messages (PROFILE-001, PROFILE-002): by reason
// for a call that ended as the case expects, by message for a completed one.
std::string CheckProfileFacts(const ordered_json& expect, const Observed& got) {
  if (!got.report || got.Planned()) return "";
  const judge::ProfileFacts* profile = Profile();
  if (profile == nullptr) return std::string("cannot read the facts of ") + judge::kProfilePath;
  if (got.outcome == "completed") return CompletedCallFacts(*profile, got);
  if (!expect.contains("reason") || expect["reason"] != got.reason) return "";
  const auto it = profile->by_reason.find({got.outcome, got.reason});
  if (it == profile->by_reason.end()) return "the profile lists no " + got.outcome + "/" + got.reason;
  return MissingFactsIn(it->second, got.message, "message (trusted_messages[0])");
}

// "message" is the first trusted message: the refusal or failure text (PROFILE-002).
std::string CheckMessageFacts(const ordered_json& expect, const Observed& got) {
  if (!expect.contains("message_facts") || got.Planned()) return "";
  return MissingFactsOf(expect["message_facts"], got.message, "message (trusted_messages[0])");
}

std::string CheckMessageWording(const ordered_json& expect, const Observed& got) {
  if (!expect.contains("message_contains") || got.Planned()) return "";
  return Missing(expect["message_contains"], got.message, "message (trusted_messages[0])");
}

// Refusal and failure text must not echo input. (The standing guidance that follows it is fixed
// prose that may share words such as "Reservation" with the rows.)
std::string CheckNoEcho(const ordered_json&, const Observed& got) {
  if (got.outcome == "completed") return "";
  return EchoProblem(got.message, got.inputs);
}

std::string CheckNoCliBeforeRefusal(const ordered_json&, const Observed& got) {
  if (!got.report || (got.outcome != "refused" && got.outcome != "blocked")) return "";
  return got.report->execs == 0 ? "" : got.outcome + " after running the CLI";
}

// Every acquired sandbox is disposed, whatever happened, and every exec is bounded.
std::string CheckSandboxesDisposed(const ordered_json&, const Observed& got) {
  if (!got.report || got.report->sandbox_acquisitions == got.report->sandbox_disposals) return "";
  return "acquired " + std::to_string(got.report->sandbox_acquisitions) + " sandboxes, disposed " +
         std::to_string(got.report->sandbox_disposals);
}

std::string CheckBoundedExec(const ordered_json&, const Observed& got) {
  return got.report && got.report->unbounded_execs != 0 ? "ran the CLI without BoundedExec" : "";
}

std::string CheckNoFileTransfer(const ordered_json&, const Observed& got) {
  return got.report && got.report->file_operations != 0 ? "moved files in or out of the sandbox"
                                                        : "";
}

// The spec a sandbox was acquired with, in the backend protocol's terms (its PROTOCOL.md), with
// the unordered lists sorted so a case can spell them in any order.
ordered_json SpecJson(const sandbox::Spec& spec) {
  std::vector<std::string> requires_;
  for (sandbox::Capability c : spec.required) requires_.emplace_back(sandbox::Name(c));
  std::sort(requires_.begin(), requires_.end());
  ordered_json allow = ordered_json::array();
  for (const sandbox::EgressRule& rule : spec.egress_allow) {
    ordered_json r = {{"host", rule.host}};
    if (rule.methods.has_value()) {
      std::vector<std::string> methods(rule.methods->begin(), rule.methods->end());
      std::sort(methods.begin(), methods.end());
      r["methods"] = methods;
    }
    allow.push_back(std::move(r));
  }
  return {{"os_family", sandbox::Name(spec.os_family)},
          {"min_isolation", sandbox::Name(spec.min_isolation)},
          {"requires", requires_},
          {"egress", sandbox::Name(spec.egress)},
          {"egress_allow", std::move(allow)},
          {"isolation_scope", sandbox::Name(spec.isolation_scope)},
          {"cleanup", sandbox::Name(spec.cleanup)},
          {"image", spec.image}};
}

// Objects compare without regard to member order (ordered_json's own == minds it).
bool SameJson(const ordered_json& a, const ordered_json& b) {
  return nlohmann::json::parse(a.dump()) == nlohmann::json::parse(b.dump());
}

ordered_json Sorted(ordered_json v) {
  if (v.is_array() && std::all_of(v.begin(), v.end(), [](const auto& x) { return x.is_string(); })) {
    std::sort(v.begin(), v.end());
  } else if (v.is_structured()) {
    for (auto& item : v) item = Sorted(item);
  }
  return v;
}

// CheckAll separates checks with "; "; within one check, problems are joined the same way.
std::string Joined(std::string problems) {
  while (problems.ends_with("; ")) problems.resize(problems.size() - 2);
  return problems;
}

// "acquires": exactly these, in order; each entry's members are compared, absent ones are not.
std::string CheckAcquires(const ordered_json& want, const host::CallReport& report) {
  if (report.acquires.size() != want.size()) {
    return std::to_string(report.acquires.size()) + " acquires, want " +
           std::to_string(want.size());
  }
  std::string problems;
  for (size_t i = 0; i < want.size(); ++i) {
    const fakes::sandbox::AcquireRecord& a = report.acquires[i];
    const ordered_json got = {
        {"spec", SpecJson(a.spec)},
        {"key", {{"agent_id", a.key.agent_id}, {"session_id", a.key.session_id}}}};
    for (const auto& item : want[i].items()) {
      if (SameJson(Sorted(item.value()), got[item.key()])) continue;
      // The path names the member at fault: "acquire 1 spec: $.egress_allow[0].methods: ...".
      problems += "acquire " + std::to_string(i + 1) + " " + item.key() + ": " +
                  judge::DescribeJsonDifference(got[item.key()], Sorted(item.value())) + "; ";
    }
  }
  return problems;
}

// "env_lacks": no exec's environment has a variable of these names ("PREFIX*" for a prefix).
std::string CheckEnvLacks(const ordered_json& names, const host::CallReport& report) {
  for (const sandbox::ExecRequest& exec : report.exec_requests) {
    for (const std::string& var : exec.env) {
      const std::string name = var.substr(0, var.find('='));
      for (const auto& n : names) {
        std::string pattern = n.get<std::string>();
        const bool prefix = pattern.ends_with('*');
        if (prefix) pattern.pop_back();
        if (prefix ? name.starts_with(pattern) : name == pattern) {
          return "the CLI's environment has " + name;
        }
      }
    }
  }
  return "";
}

// "env_contains": every exec's environment holds these NAME=value entries.
std::string CheckEnvContains(const ordered_json& entries, const host::CallReport& report) {
  for (const sandbox::ExecRequest& exec : report.exec_requests) {
    for (const auto& e : entries) {
      const std::string entry = e.get<std::string>();
      if (std::find(exec.env.begin(), exec.env.end(), entry) == exec.env.end()) {
        return "the CLI's environment lacks " + entry;
      }
    }
  }
  return "";
}

// "exec_budgets": every exec's timeout and output budget.
std::string CheckExecBudgets(const ordered_json& want, const host::CallReport& report) {
  for (const sandbox::ExecRequest& exec : report.exec_requests) {
    const ordered_json got = {{"timeout_seconds", exec.timeout_seconds},
                              {"max_output_bytes", exec.max_output_bytes}};
    for (const auto& item : want.items()) {
      if (got[item.key()] != item.value()) {
        return item.key() + " " + Mismatch(got[item.key()], item.value());
      }
    }
  }
  return "";
}

// What the backend was asked for by this call: the backend's own record.
std::string CheckBackend(const ordered_json& expect, const Observed& got) {
  if (!expect.contains("backend")) return "";
  if (!got.report) return "backend needs a host case (one with a cli section)";
  const ordered_json& want = expect["backend"];
  std::string problems;
  auto add = [&problems](const std::string& problem) {
    if (!problem.empty()) problems += problem + "; ";
  };
  if (want.contains("acquires")) add(CheckAcquires(want["acquires"], *got.report));
  if (want.contains("env_lacks")) add(CheckEnvLacks(want["env_lacks"], *got.report));
  if (want.contains("exec_budgets")) add(CheckExecBudgets(want["exec_budgets"], *got.report));
  if (want.contains("env_contains")) add(CheckEnvContains(want["env_contains"], *got.report));
  if (want.contains("execs") &&
      static_cast<int64_t>(got.report->execs) != want["execs"].get<int64_t>()) {
    add("execs " + Mismatch(got.report->execs, want["execs"]));
  }
  return Joined(problems);
}

// The string values a schema allows: its `enum`'s strings and `const`, and those of every
// `anyOf` / `oneOf` / `allOf` branch and local `$ref` ("#/$defs/X", "#/definitions/X"), since
// generators write Optional[Literal[...]] or an Enum class in those layouts and the layout is
// the implementation's choice. depth bounds a $ref cycle.
void CollectEnumStrings(const ordered_json& schema, const ordered_json& root, int depth,
                        std::vector<std::string>& out) {
  if (!schema.is_object() || depth > 8) return;
  if (schema.contains("enum") && schema["enum"].is_array()) {
    for (const auto& v : schema["enum"]) {
      if (v.is_string()) out.push_back(v.get<std::string>());
    }
  }
  if (schema.contains("const") && schema["const"].is_string()) {
    out.push_back(schema["const"].get<std::string>());
  }
  for (const char* key : {"anyOf", "oneOf", "allOf"}) {
    if (!schema.contains(key) || !schema[key].is_array()) continue;
    for (const auto& branch : schema[key]) CollectEnumStrings(branch, root, depth + 1, out);
  }
  if (schema.contains("$ref") && schema["$ref"].is_string() && root.is_object()) {
    const std::string ref = schema["$ref"].get<std::string>();
    for (const char* defs : {"$defs", "definitions"}) {
      const std::string prefix = std::string("#/") + defs + "/";
      if (!ref.starts_with(prefix) || !root.contains(defs) || !root[defs].is_object()) continue;
      const std::string name = ref.substr(prefix.size());
      if (root[defs].contains(name)) CollectEnumStrings(root[defs][name], root, depth + 1, out);
    }
  }
}

// A property's allowed strings, sorted, each once (null, which marks it optional, is no string).
std::vector<std::string> EnumStrings(const ordered_json& property, const ordered_json& root) {
  std::vector<std::string> out;
  CollectEnumStrings(property, root, 0, out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string AllLines(const std::vector<std::string>& lines) {
  std::string all;
  for (const std::string& line : lines) all += line + "\n";
  return all;
}

// The description and every string of the parameter schema, one per line, so a fact is looked
// for in text as the model reads it, whatever the schema's member order or JSON escapes.
std::string ToolText(const host::CallReport& r) {
  std::vector<std::string> strings;
  const ordered_json schema = ordered_json::parse(r.tool_parameters_schema, nullptr, false);
  if (!schema.is_discarded()) CollectStrings(schema, strings);
  return r.tool_description + "\n" + AllLines(strings);
}

// The tool as the model sees it: its name, its parameter schema's properties and enums, and text
// the description and schema must hold between them.
std::string CheckTool(const ordered_json& expect, const Observed& got) {
  if (!expect.contains("tool")) return "";
  if (!got.report) return "tool needs a host call";
  const ordered_json& want = expect["tool"];
  const host::CallReport& r = *got.report;
  std::string problems;
  if (want.contains("name") && r.tool_name != want["name"]) {
    problems += "name " + Mismatch(r.tool_name, want["name"]) + "; ";
  }
  const ordered_json schema = ordered_json::parse(r.tool_parameters_schema, nullptr, false);
  const ordered_json& props = schema.is_object() ? schema.value("properties", ordered_json())
                                                 : ordered_json();
  if (want.contains("parameters")) {
    std::vector<std::string> names, wanted = want["parameters"];
    if (props.is_object()) {
      for (const auto& item : props.items()) names.push_back(item.key());
    }
    std::sort(names.begin(), names.end());
    std::sort(wanted.begin(), wanted.end());
    if (names != wanted) problems += "parameters " + Mismatch(names, wanted) + "; ";
  }
  const ordered_json enums = want.value("enums", ordered_json::object());
  for (const auto& item : enums.items()) {
    std::vector<std::string> wanted = item.value();
    std::sort(wanted.begin(), wanted.end());
    const std::vector<std::string> have =
        EnumStrings(props.is_object() ? props.value(item.key(), ordered_json()) : ordered_json(),
                    schema);
    if (have != wanted) problems += item.key() + " enum " + Mismatch(have, wanted) + "; ";
  }
  if (want.contains("text_facts")) {
    problems += MissingFactsOf(want["text_facts"], ToolText(r), "description and schema");
  }
  return Joined(problems);
}

std::string CheckToolWording(const ordered_json& expect, const Observed& got) {
  if (!got.report || !expect.contains("tool") || !expect["tool"].contains("text_contains")) {
    return "";
  }
  return Missing(expect["tool"]["text_contains"], ToolText(*got.report), "description and schema");
}

std::optional<int64_t> CountOf(std::string_view key, const host::CallReport& report) {
  if (key == "sandbox_acquisitions") return report.sandbox_acquisitions;
  if (key == "sandbox_disposals") return report.sandbox_disposals;
  if (key == "tools") return static_cast<int64_t>(report.tools);
  return std::nullopt;
}

std::string CheckCounts(const ordered_json& expect, const Observed& got) {
  if (!got.report) return "";
  std::string problems;
  for (std::string_view key : KeysOf(CheckCounts)) {
    const std::string field(key);
    const std::optional<int64_t> value = CountOf(key, *got.report);
    if (!expect.contains(field)) continue;
    const std::string sep = problems.empty() ? "" : ", ";
    if (!value) {
      problems += sep + "the runner counts no " + field;
    } else if (*value != expect[field].get<int64_t>()) {
      problems += sep + field + " " + Mismatch(*value, expect[field]);
    }
  }
  return problems;
}

std::string CheckViolations(const ordered_json& expect, const Observed& got) {
  if (!got.report || !expect.contains("violations")) return "";
  const ordered_json violations(got.report->violations);
  return violations == expect["violations"] ? "" : Mismatch(violations, expect["violations"]);
}

std::string CheckResultLabel(const ordered_json& expect, const Observed& got) {
  if (!got.report || !expect.contains("result_label")) return "";
  const ordered_json label = host::JsonOfLabel<ordered_json>(got.report->result_label);
  return label == expect["result_label"] ? "" : Mismatch(label, expect["result_label"]);
}

// Hiding (the framework's auto_hide_untrusted) and the audit log are the host's record of the
// call; a report of an older testee protocol version does not carry them, so it cannot pass.
std::string CheckLabelTracking(const ordered_json& expect, const Observed& got) {
  const bool states = expect.contains("output_hidden") || expect.contains("conversation_label") ||
                      expect.contains("audit_log");
  if (!got.report || !states) return "";
  const host::CallReport& r = *got.report;
  if (!r.reports_label_tracking) {
    return "not reported: the testee's protocol version carries no output_variable, "
           "conversation_label or audit_log (version 4 does)";
  }
  std::string problems;
  auto add = [&problems](const std::string& problem) {
    problems += (problems.empty() ? "" : "; ") + problem;
  };
  if (expect.contains("output_hidden") &&
      r.output_variable.has_value() != expect["output_hidden"].get<bool>()) {
    add(expect["output_hidden"].get<bool>()
            ? "the output was shown to the model as text; expected it hidden behind a variable "
              "reference"
            : "the output was hidden behind a variable reference; expected it shown as text");
  }
  if (expect.contains("conversation_label")) {
    const ordered_json label = host::JsonOfLabel<ordered_json>(r.conversation_label);
    if (label != expect["conversation_label"]) {
      add("conversation_label " + Mismatch(label, expect["conversation_label"]));
    }
  }
  if (expect.contains("audit_log") && ordered_json(r.audit_log) != expect["audit_log"]) {
    add("audit_log " + Mismatch(ordered_json(r.audit_log), expect["audit_log"]));
  }
  return problems;
}

std::string CheckTrustedMessageFacts(const ordered_json& expect, const Observed& got) {
  if (!got.report || !expect.contains("trusted_messages_facts")) return "";
  return MissingFactsOf(expect["trusted_messages_facts"], AllLines(got.report->trusted_messages),
                        "trusted messages");
}

std::string CheckTrustedMessageWording(const ordered_json& expect, const Observed& got) {
  if (!got.report || !expect.contains("trusted_messages_contain")) return "";
  return Missing(expect["trusted_messages_contain"], AllLines(got.report->trusted_messages),
                 "trusted messages");
}

// The host's warnings for this call: the scripted host runs each case as a fresh process, so the
// experimental warning of the first use is among them.
std::string CheckWarningFacts(const ordered_json& expect, const Observed& got) {
  if (!got.report || !expect.contains("warnings_facts")) return "";
  return MissingFactsOf(expect["warnings_facts"], AllLines(got.report->warnings), "warnings");
}

std::string CheckWarningWording(const ordered_json& expect, const Observed& got) {
  if (!got.report || !expect.contains("warnings_contain")) return "";
  return Missing(expect["warnings_contain"], AllLines(got.report->warnings), "warnings");
}

std::string CheckReportPresent(const ordered_json& expect, const Observed& got) {
  if (!got.report || got.output) return "";
  return expect.contains("returned_rows") || expect.contains("first_row") ? "no report" : "";
}

std::string CheckReportIsJson(const ordered_json&, const Observed& got) {
  return got.output && got.output->is_discarded() ? "report is not JSON" : "";
}

// The report's checks below run only on a report that parsed.
const ordered_json* ParsedReport(const Observed& got) {
  return got.output && !got.output->is_discarded() ? &*got.output : nullptr;
}

// The report's keys, by the shape the case states ("report_shape", plain unless it says
// expanded): an expanded query's report adds its selection fields. Judged of every report.
std::string CheckReportKeys(const ordered_json& expect, const Observed& got) {
  const ordered_json* report = ParsedReport(got);
  if (report == nullptr) return "";
  std::vector<std::string> keys;
  for (const auto& item : report->items()) keys.push_back(item.key());
  std::vector<std::string> want = {"prices", "returned_rows", "received_rows", "truncated",
                                   "upstream_limit_reached"};
  if (expect.value("report_shape", "plain") == "expanded") {
    want.insert(want.end(), {"requested_region", "selected_rows", "selection_notes"});
  }
  // Member order carries no meaning (PROFILE-006).
  std::sort(keys.begin(), keys.end());
  std::sort(want.begin(), want.end());
  return keys == want ? "" : Mismatch(keys, want);
}

std::string CheckMatchedBy(const ordered_json& expect, const Observed& got) {
  const ordered_json* report = ParsedReport(got);
  if (report == nullptr || !expect.contains("matched_by")) return "";
  ordered_json matched = ordered_json::array();
  for (const auto& row : (*report)["prices"]) matched.push_back(row.value("matched_by", ""));
  return matched == expect["matched_by"] ? "" : Mismatch(matched, expect["matched_by"]);
}

std::string CheckReportFields(const ordered_json& expect, const Observed& got) {
  const ordered_json* report = ParsedReport(got);
  if (report == nullptr) return "";
  std::string problems;
  for (std::string_view key : KeysOf(CheckReportFields)) {
    const std::string field(key);
    if (!expect.contains(field)) continue;
    const std::string sep = problems.empty() ? "" : ", ";
    if (!report->contains(field)) {
      problems += sep + "no " + field;
    } else if (!SameJson((*report)[field], expect[field])) {
      problems += sep + field + " " + Mismatch((*report)[field], expect[field]);
    }
  }
  return problems;
}

// The notes' facts, looked for in all notes together: how the notes are split and worded is
// free (PROFILE-011).
std::string CheckSelectionNoteFacts(const ordered_json& expect, const Observed& got) {
  const ordered_json* report = ParsedReport(got);
  if (report == nullptr || !expect.contains("selection_notes_facts")) return "";
  std::string all;
  for (const auto& note : report->value("selection_notes", ordered_json::array())) {
    if (note.is_string()) all += note.get<std::string>() + "\n";
  }
  return MissingFactsOf(expect["selection_notes_facts"], all, "selection notes");
}

std::string CheckSelectionNoteWording(const ordered_json& expect, const Observed& got) {
  const ordered_json* report = ParsedReport(got);
  if (report == nullptr || !expect.contains("selection_notes")) return "";
  const ordered_json notes = report->value("selection_notes", ordered_json());
  return notes == expect["selection_notes"] ? "" : Mismatch(notes, expect["selection_notes"]);
}

// For notes the spec requires without fixing their wording (BOUND-023): at least this many.
std::string CheckSelectionNoteCount(const ordered_json& expect, const Observed& got) {
  const ordered_json* report = ParsedReport(got);
  if (report == nullptr || !expect.contains("selection_notes_at_least")) return "";
  const ordered_json notes = report->value("selection_notes", ordered_json::array());
  const size_t want = expect["selection_notes_at_least"].get<size_t>();
  if (notes.is_array() && notes.size() >= want) return "";
  return std::to_string(notes.is_array() ? notes.size() : 0) + " notes, want at least " +
         std::to_string(want);
}

std::string CheckPricesLength(const ordered_json&, const Observed& got) {
  const ordered_json* report = ParsedReport(got);
  if (report == nullptr) return "";
  const ordered_json& returned = report->value("returned_rows", ordered_json());
  const bool same = returned.is_number_integer() && report->contains("prices") &&
                    static_cast<int64_t>((*report)["prices"].size()) == returned.get<int64_t>();
  return same ? "" : "prices length differs from returned_rows";
}

// Compared as a JSON value: member order carries no meaning (PROFILE-006).
std::string CheckFirstRow(const ordered_json& expect, const Observed& got) {
  const ordered_json* report = ParsedReport(got);
  if (report == nullptr || !expect.contains("first_row")) return "";
  const ordered_json& prices = report->value("prices", ordered_json::array());
  if (prices.empty()) return "no first row";
  return judge::DescribeJsonDifference(prices[0], expect["first_row"]);
}

// The expect properties a check implements (case.schema.json, $defs/expect): a case's keys
// mean what the check with that key does, and nothing else. "tool.text_contains" is one member
// of a property whose other members belong to the parent's check. None: an invariant every call
// is held to, whatever its case says. The case format's test requires exactly one check per
// property (ExpectationChecks).
struct ExpectationCheck {
  const char* name;  // as a failure's detail names it
  CheckKeys keys;
  CheckFunction problem;
  // The reference's exact wording (PROFILE-003): reported, never counted in the verdict.
  bool wording = false;
};

// Every case runs every check; a check that does not apply to the case says nothing. Not
// constexpr: an initializer_list member cannot be.
const ExpectationCheck kChecks[] = {
    {"outcome", {"outcome"}, CheckOutcome},
    {"reason", {"reason"}, CheckReason},
    {"argv", {"argv"}, CheckArgv},
    {"message facts", {"message_facts"}, CheckMessageFacts},
    {"profile facts", {}, CheckProfileFacts},
    {"message wording", {"message_contains"}, CheckMessageWording, true},
    {"no echo", {}, CheckNoEcho},
    {"no CLI before a refusal", {}, CheckNoCliBeforeRefusal},
    {"sandboxes disposed", {}, CheckSandboxesDisposed},
    {"bounded exec", {}, CheckBoundedExec},
    {"no file transfer", {}, CheckNoFileTransfer},
    {"counts", {"sandbox_acquisitions", "sandbox_disposals", "tools"}, CheckCounts},
    {"backend", {"backend"}, CheckBackend},
    {"tool", {"tool"}, CheckTool},
    {"tool wording", {"tool.text_contains"}, CheckToolWording, true},
    {"violations", {"violations"}, CheckViolations},
    {"result_label", {"result_label"}, CheckResultLabel},
    {"label tracking", {"output_hidden", "conversation_label", "audit_log"}, CheckLabelTracking},
    {"trusted message facts", {"trusted_messages_facts"}, CheckTrustedMessageFacts},
    {"trusted message wording", {"trusted_messages_contain"}, CheckTrustedMessageWording, true},
    {"warning facts", {"warnings_facts"}, CheckWarningFacts},
    {"warning wording", {"warnings_contain"}, CheckWarningWording, true},
    {"report present", {}, CheckReportPresent},
    {"report JSON", {}, CheckReportIsJson},
    {"report keys", {"report_shape"}, CheckReportKeys},
    {"matched_by", {"matched_by"}, CheckMatchedBy},
    {"report fields",
     {"returned_rows", "received_rows", "truncated", "upstream_limit_reached", "selected_rows",
      "requested_region"},
     CheckReportFields},
    {"selection note facts", {"selection_notes_facts"}, CheckSelectionNoteFacts},
    {"selection note wording", {"selection_notes"}, CheckSelectionNoteWording, true},
    {"selection note count", {"selection_notes_at_least"}, CheckSelectionNoteCount},
    {"prices length", {}, CheckPricesLength},
    {"first_row", {"first_row"}, CheckFirstRow},
};

CheckKeys KeysOf(CheckFunction check) {
  for (const ExpectationCheck& c : kChecks) {
    if (c.problem == check) return c.keys;
  }
  return {};
}

// Whether `expect` states `key`, a property or "parent.member".
bool States(const ordered_json& expect, std::string_view key) {
  const size_t dot = key.find('.');
  if (dot == std::string_view::npos) return expect.contains(key);
  const std::string parent(key.substr(0, dot));
  return expect.contains(parent) && expect[parent].is_object() &&
         expect[parent].contains(key.substr(dot + 1));
}

}  // namespace

std::vector<ExpectationCheckInfo> ExpectationChecks() {
  std::vector<ExpectationCheckInfo> out;
  for (const ExpectationCheck& check : kChecks) {
    out.push_back({.name = check.name,
                   .keys = std::vector<std::string>(check.keys.begin(), check.keys.end()),
                   .wording = check.wording});
  }
  return out;
}

bool StatesWording(const ordered_json& expect) {
  for (const ExpectationCheck& check : kChecks) {
    if (!check.wording) continue;
    for (std::string_view key : check.keys) {
      if (States(expect, key)) return true;
    }
  }
  return false;
}

Problems CheckCall(const ordered_json& expect, const Observed& got) {
  Problems problems{.has_wording = StatesWording(expect)};
  for (const ExpectationCheck& check : kChecks) {
    const std::string problem = check.problem(expect, got);
    if (problem.empty()) continue;
    (check.wording ? problems.wording : problems.required) +=
        std::string(check.name) + ": " + problem + "; ";
  }
  return problems;
}

std::string CheckAcrossCalls(const ordered_json& want, const std::vector<host::CallReport>& reports) {
  std::string problems;
  int acquisitions = 0, disposals = 0;
  std::set<std::tuple<std::string, std::string, std::string>> keys;
  size_t acquires = 0;
  for (const host::CallReport& r : reports) {
    acquisitions += r.sandbox_acquisitions;
    disposals += r.sandbox_disposals;
    for (const fakes::sandbox::AcquireRecord& a : r.acquires) {
      keys.insert({a.key.agent_id, a.key.session_id, a.key.call_id});
      ++acquires;
    }
  }
  if (want.contains("sandbox_acquisitions") && acquisitions != want["sandbox_acquisitions"]) {
    problems += "sandbox_acquisitions " + Mismatch(acquisitions, want["sandbox_acquisitions"]) + "; ";
  }
  if (want.contains("sandbox_disposals") && disposals != want["sandbox_disposals"]) {
    problems += "sandbox_disposals " + Mismatch(disposals, want["sandbox_disposals"]) + "; ";
  }
  if (want.value("distinct_sandbox_keys", false) && keys.size() != acquires) {
    problems += "two acquires shared a sandbox key; ";
  }
  return problems;
}

ordered_json ObservedJson(const Observed& got) {
  ordered_json o = {{"outcome", got.outcome}, {"reason", got.reason}};
  if (got.argv) o["argv"] = *got.argv;
  if (!got.report) return o;
  const host::CallReport& r = *got.report;
  o["trusted_messages"] = r.trusted_messages;
  if (r.output) {
    o["output"] = got.output && !got.output->is_discarded() ? *got.output : ordered_json(*r.output);
  }
  o["warnings"] = r.warnings;
  o["violations"] = r.violations;
  o["tools"] = r.tools;
  o["sandbox_acquisitions"] = r.sandbox_acquisitions;
  o["sandbox_disposals"] = r.sandbox_disposals;
  o["execs"] = r.execs;
  return o;
}

// One call: the case itself (`entry` is `c`, in a new host) or one of its "then" calls (in the

}  // namespace azure_pricing::conformance
