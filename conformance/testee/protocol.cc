#include "conformance/testee/protocol.h"

#include <algorithm>
#include <array>
#include <climits>
#include <exception>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>
#include <vector>

#include "conformance/host/config_value.h"
#include "conformance/line_protocol/wire_json.h"
#include "ref/json/json.h"
#include "ref/status/status_macros.h"

namespace azure_pricing::conformance::testee {
namespace {

// Ordered, so that every line starts with "seq" and reads the way PROTOCOL.md shows it.
using Json = nlohmann::ordered_json;
using line_protocol::AsInt64;
using line_protocol::Line;
using line_protocol::ParseStrict;
using conformance::host::CallReport;
using conformance::host::ScriptedCall;

constexpr std::array<std::pair<GateOp, const char*>, 3> kOps = {{
    {GateOp::kHello, kOpHello},
    {GateOp::kCase, kOpCase},
    {GateOp::kStop, kOpStop},
}};

// This protocol's reasons beyond the core's, each with the fixed text a received error gets.
constexpr line_protocol::KnownReason kKnownReasons[] = {
    {kTesteeTimeout, "The testee did not answer before its deadline; it was killed."},
    {kTesteeExited, "The testee exited or closed its output before answering."},
    {kTesteeProtocolError,
     "The testee's line is not a protocol answer to the message in flight; it was killed."},
    {kTesteeSpawnFailed, "The testee program could not be started."},
    {kTesteeBadCallback,
     "The testee sent a callback the gate could not serve (malformed, unknown op, out of order "
     "or an unknown sandbox)."},
    {conformance::host::kInvalidConfiguration,
     "The testee found the case's host configuration unusable."},
};

constexpr std::array<std::pair<Version, const char*>, 3> kVersions = {{
    {Version::kV2, kProtocolVersion2},
    {Version::kV3, kProtocolVersion3},
    {Version::kV4, kProtocolVersion},
}};

// Where a testee's line breaks the protocol, for the gate's message: a JSON path (`report`,
// `report.trusted_messages[1]`, `the line`) and what is wrong there, never a value the testee
// sent. Only the first fault is kept.
class Fault {
 public:
  bool Set(std::string_view path, std::string_view what) {
    if (text_.empty()) text_ = std::string(path) + ": " + std::string(what);
    return false;
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// A member name fit to print: the testee's own spelling when it is a plain identifier, else a
// placeholder (a name is chosen by the testee and may carry anything).
std::string PrintableName(std::string_view name) {
  const bool plain = !name.empty() && name.size() <= 64 &&
                     std::all_of(name.begin(), name.end(), [](char c) {
                       return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                              (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '$';
                     });
  return plain ? std::string(name) : std::string("<a member whose name is not an identifier>");
}

std::string MemberPath(std::string_view path, std::string_view name) {
  return path.empty() ? PrintableName(name) : std::string(path) + "." + PrintableName(name);
}

std::string ItemPath(std::string_view path, size_t index) {
  return std::string(path) + "[" + std::to_string(index) + "]";
}

const char* TypeName(const Json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "boolean";
  if (v.is_number()) return "number";
  if (v.is_string()) return "string";
  if (v.is_array()) return "array";
  return "object";
}

// False, with the fault "wrong type (number), want WANT".
bool WrongType(Fault* fault, std::string_view path, const Json& v, std::string_view want) {
  if (fault == nullptr) return false;
  return fault->Set(path.empty() ? "the line" : path,
                    std::string("wrong type (") + TypeName(v) + "), want " + std::string(want));
}

bool Expect(bool ok, Fault* fault, std::string_view path, std::string_view what) {
  if (ok || fault == nullptr) return ok;
  return fault->Set(path, what);
}

// Every member of `o` is one of `allowed`, and every one of `required` is present. `path` names
// `o` in a fault ("" for the line itself).
bool OnlyMembers(const Json& o, std::initializer_list<std::string_view> allowed,
                 std::initializer_list<const char*> required, Fault* fault = nullptr,
                 std::string_view path = "") {
  if (!o.is_object()) return WrongType(fault, path, o, "object");
  for (const auto& item : o.items()) {
    bool known = false;
    for (std::string_view name : allowed) known = known || item.key() == name;
    if (!known) return Expect(false, fault, MemberPath(path, item.key()), "unknown member");
  }
  for (const char* name : required) {
    if (!o.contains(name)) return Expect(false, fault, MemberPath(path, name), "missing");
  }
  return true;
}

bool StringList(const Json& v, std::vector<std::string>& out, Fault* fault = nullptr,
                std::string_view path = "") {
  if (!v.is_array()) return WrongType(fault, path, v, "array of strings");
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string()) return WrongType(fault, ItemPath(path, i), v[i], "string");
    out.push_back(v[i].get<std::string>());
  }
  return true;
}

// Why `line` does not parse: where the JSON breaks (a byte offset) or which member is repeated.
std::string WhyUnreadable(std::string_view line) {
  struct Frame {
    bool array = false;
    std::string key;
    size_t index = 0;
    std::set<std::string> keys;
  };
  std::vector<Frame> open;
  std::string repeated;
  auto path = [&open]() {
    std::string out;
    for (const Frame& f : open) {
      out = f.array ? ItemPath(out, f.index) : MemberPath(out, f.key);
    }
    return out;
  };
  auto element_done = [&open]() {
    if (!open.empty() && open.back().array) ++open.back().index;
  };
  Json::parser_callback_t note = [&](int, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
      case Json::parse_event_t::array_start:
        open.push_back({.array = event == Json::parse_event_t::array_start});
        break;
      case Json::parse_event_t::key:
        if (!open.empty() && parsed.is_string()) {
          open.back().key = parsed.get<std::string>();
          if (!open.back().keys.insert(open.back().key).second && repeated.empty()) {
            repeated = path();
          }
        }
        break;
      case Json::parse_event_t::value:
        element_done();
        break;
      case Json::parse_event_t::object_end:
      case Json::parse_event_t::array_end:
        if (!open.empty()) open.pop_back();
        element_done();
        break;
    }
    return true;
  };
  try {
    const Json parsed = Json::parse(line.begin(), line.end(), note);
    if (parsed.is_discarded()) return "the line: not JSON";
  } catch (const Json::parse_error& e) {
    return "the line: not JSON (at byte " + std::to_string(e.byte) + ")";
  } catch (const std::exception&) {
    return "the line: not JSON";
  }
  if (!repeated.empty()) return repeated + ": member repeated";
  return "the line: not JSON";
}

Json OptionalInt(const std::optional<int64_t>& v) { return v ? Json(*v) : Json(nullptr); }

bool ReadOptionalInt(const Json& v, std::optional<int64_t>& out) {
  if (v.is_null()) return true;
  out = AsInt64(v);
  return out.has_value();
}

// The host configuration's three members, as each version names them.
struct ConfigMember {
  const char* v2_name;  // JSON text in a string
  const char* v3_name;  // the JSON value itself
  json::Value ScriptedCall::*value;
};

constexpr ConfigMember kConfig[] = {
    {"host_json", "host", &ScriptedCall::host},
    {"backend_json", "backend", &ScriptedCall::backend},
    {"labels_json", "labels", &ScriptedCall::labels},
};

const char* ConfigName(const ConfigMember& m, Version version) {
  return version == Version::kV2 ? m.v2_name : m.v3_name;
}

// Versions 3 and 4 carry a configuration as the JSON it is, version 2 as its JSON text. A
// configuration given as text that is not JSON is held as a string (host::ConfigFromText): not an
// object, so the testee refuses it as it would the text.
Json ConfigOnWire(const json::Value& value, Version version) {
  if (version == Version::kV2) return Json(json::Serialize(value));
  return host::JsonOfConfig<Json>(value);
}

std::optional<json::Value> ConfigFromWire(const Json& value, Version version) {
  if (version != Version::kV2) return host::ConfigValueOf(value);
  if (!value.is_string()) return std::nullopt;
  return host::ConfigFromText(value.get<std::string>());
}

Json CallJson(const ScriptedCall& c, Version version) {
  Json out = {{"arguments", c.arguments},
              {"call_id", c.call_id.empty() ? Json(nullptr) : Json(c.call_id)},
              {"same_host", c.same_host}};
  for (const ConfigMember& m : kConfig) out[ConfigName(m, version)] = ConfigOnWire(c.*m.value, version);
  out["middleware"] = c.middleware;
  out["max_rows"] = OptionalInt(c.max_rows);
  out["exec_timeout_seconds"] = OptionalInt(c.exec_timeout_seconds);
  out["max_output_bytes"] = OptionalInt(c.max_output_bytes);
  return out;
}

std::optional<ScriptedCall> CallFrom(const Json& j, Version version) {
  const char* host = ConfigName(kConfig[0], version);
  const char* backend = ConfigName(kConfig[1], version);
  const char* labels = ConfigName(kConfig[2], version);
  if (!OnlyMembers(j,
                   {"arguments", "call_id", "same_host", host, backend, labels, "middleware",
                    "max_rows", "exec_timeout_seconds", "max_output_bytes"},
                   {"arguments", "same_host", host, backend, labels, "middleware"})) {
    return std::nullopt;
  }
  const Json& call_id = j.value("call_id", Json());
  if (!j["arguments"].is_string() || !j["same_host"].is_boolean() ||
      !(call_id.is_null() || call_id.is_string())) {
    return std::nullopt;
  }
  ScriptedCall c;
  c.arguments = j["arguments"].get<std::string>();
  c.same_host = j["same_host"].get<bool>();
  if (call_id.is_string()) c.call_id = call_id.get<std::string>();
  for (const ConfigMember& m : kConfig) {
    std::optional<json::Value> value = ConfigFromWire(j[ConfigName(m, version)], version);
    if (!value) return std::nullopt;
    c.*m.value = std::move(*value);
  }
  if (!StringList(j["middleware"], c.middleware)) return std::nullopt;
  const Json null;
  if (!ReadOptionalInt(j.value("max_rows", null), c.max_rows) ||
      !ReadOptionalInt(j.value("exec_timeout_seconds", null), c.exec_timeout_seconds) ||
      !ReadOptionalInt(j.value("max_output_bytes", null), c.max_output_bytes)) {
    return std::nullopt;
  }
  return c;
}

Json ReportJson(const CallReport& r, Version version) {
  Json out{{"outcome", OutcomeName(r.outcome)},
           {"reason", r.reason.empty() ? Json(nullptr) : Json(r.reason)},
           {"trusted_messages", r.trusted_messages},
           {"output", r.output ? Json(*r.output) : Json(nullptr)},
           {"result_label", host::JsonOfLabel<Json>(r.result_label)},
           {"violations", r.violations},
           {"warnings", r.warnings},
           {"tools", r.tools},
           {"tool", r.tool_name.empty()
                        ? Json(nullptr)
                        : Json{{"name", r.tool_name},
                               {"description", r.tool_description},
                               {"parameters_schema", r.tool_parameters_schema}}}};
  if (version == Version::kV4) {
    out["output_variable"] = r.output_variable ? Json(*r.output_variable) : Json(nullptr);
    out["conversation_label"] = host::JsonOfLabel<Json>(r.conversation_label);
    out["audit_log"] = r.audit_log;
  }
  return out;
}

// The tool as the model sees it: {"name", "description", "parameters_schema"} or null.
bool ToolFrom(const Json& j, CallReport& r, Fault& fault) {
  constexpr std::string_view kPath = "report.tool";
  if (j.is_null()) return true;
  if (!j.is_object()) return WrongType(&fault, kPath, j, "object or null");
  const char* const keys[] = {"name", "description", "parameters_schema"};
  if (!OnlyMembers(j, {"name", "description", "parameters_schema"},
                   {"name", "description", "parameters_schema"}, &fault, kPath)) {
    return false;
  }
  for (const char* key : keys) {
    if (!j[key].is_string()) return WrongType(&fault, MemberPath(kPath, key), j[key], "string");
  }
  r.tool_name = j["name"].get<std::string>();
  r.tool_description = j["description"].get<std::string>();
  r.tool_parameters_schema = j["parameters_schema"].get<std::string>();
  return Expect(!r.tool_name.empty(), &fault, "report.tool.name", "empty, want a name");
}

std::optional<Outcome> OutcomeNamed(const Json& v) {
  if (!v.is_string()) return std::nullopt;
  for (Outcome o : {Outcome::kCompleted, Outcome::kRefused, Outcome::kFailed, Outcome::kBlocked}) {
    if (OutcomeName(o) == v.get<std::string>()) return o;
  }
  return std::nullopt;
}

bool LabelFrom(const Json& j, std::optional<labels::ContentLabel>& out, Fault& fault,
               const std::string& kPath = "report.result_label") {
  if (j.is_null()) return true;
  if (!j.is_object()) return WrongType(&fault, kPath, j, "object or null");
  if (!OnlyMembers(j, {"integrity", "confidentiality"}, {"integrity", "confidentiality"}, &fault,
                   kPath)) {
    return false;
  }
  for (const char* key : {"integrity", "confidentiality"}) {
    if (!j[key].is_string()) return WrongType(&fault, MemberPath(kPath, key), j[key], "string");
  }
  const auto integrity = labels::ParseIntegrity(j["integrity"].get<std::string>());
  const auto confidentiality = labels::ParseConfidentiality(j["confidentiality"].get<std::string>());
  if (!integrity) {
    return fault.Set(kPath + ".integrity", "not an integrity label this gate knows");
  }
  if (!confidentiality) {
    return fault.Set(kPath + ".confidentiality",
                     "not a confidentiality label this gate knows");
  }
  out = labels::ContentLabel{};
  out->integrity = *integrity;
  out->confidentiality = *confidentiality;
  return true;
}

// Version 4's members: the output's variable id or null, the conversation label, the audit log.
bool LabelTrackingFrom(const Json& j, CallReport& r, Fault& fault) {
  const Json& variable = j["output_variable"];
  if (!variable.is_null()) {
    if (!variable.is_string()) {
      return WrongType(&fault, "report.output_variable", variable, "string or null");
    }
    r.output_variable = variable.get<std::string>();
    if (r.output_variable->empty()) {
      return fault.Set("report.output_variable", "empty, want a variable id or null");
    }
  }
  if (j["conversation_label"].is_null()) {
    return fault.Set("report.conversation_label", "null, want the conversation's label");
  }
  return LabelFrom(j["conversation_label"], r.conversation_label, fault,
                   "report.conversation_label") &&
         StringList(j["audit_log"], r.audit_log, &fault, "report.audit_log");
}

std::optional<CallReport> ReportFrom(const Json& j, Fault& fault, Version version) {
  const bool v4 = version == Version::kV4;
  const bool members =
      v4 ? OnlyMembers(j,
                       {"outcome", "reason", "trusted_messages", "output", "result_label",
                        "violations", "warnings", "tools", "tool", "output_variable",
                        "conversation_label", "audit_log"},
                       {"outcome", "reason", "trusted_messages", "output", "result_label",
                        "violations", "warnings", "tools", "tool", "output_variable",
                        "conversation_label", "audit_log"},
                       &fault, "report")
         : OnlyMembers(j,
                       {"outcome", "reason", "trusted_messages", "output", "result_label",
                        "violations", "warnings", "tools", "tool"},
                       {"outcome", "reason", "trusted_messages", "output", "result_label",
                        "violations", "warnings", "tools", "tool"},
                       &fault, "report");
  if (!members) return std::nullopt;
  CallReport r;
  r.reports_label_tracking = v4;
  if (r.reports_label_tracking && !LabelTrackingFrom(j, r, fault)) return std::nullopt;
  const Json& outcome_json = j["outcome"];
  const std::optional<Outcome> outcome = OutcomeNamed(outcome_json);
  const std::optional<int64_t> tools = AsInt64(j["tools"]);
  if (!outcome_json.is_string()) {
    WrongType(&fault, "report.outcome", outcome_json, "string");
    return std::nullopt;
  }
  if (!outcome) {
    fault.Set("report.outcome", "not one of completed, refused, failed, blocked");
    return std::nullopt;
  }
  if (!tools || *tools < 0) {
    fault.Set("report.tools", std::string("wrong type or value (") + TypeName(j["tools"]) +
                                  "), want a non-negative integer");
    return std::nullopt;
  }
  for (const char* key : {"reason", "output"}) {
    if (!(j[key].is_null() || j[key].is_string())) {
      WrongType(&fault, MemberPath("report", key), j[key], "string or null");
      return std::nullopt;
    }
  }
  r.outcome = *outcome;
  r.tools = static_cast<size_t>(*tools);
  if (j["reason"].is_string()) r.reason = j["reason"].get<std::string>();
  if (j["output"].is_string()) r.output = j["output"].get<std::string>();
  if (!StringList(j["trusted_messages"], r.trusted_messages, &fault, "report.trusted_messages") ||
      !StringList(j["violations"], r.violations, &fault, "report.violations") ||
      !StringList(j["warnings"], r.warnings, &fault, "report.warnings") ||
      !LabelFrom(j["result_label"], r.result_label, fault) || !ToolFrom(j["tool"], r, fault)) {
    return std::nullopt;
  }
  return r;
}

Status Malformed() { return StatusForReason(Outcome::kRefused, kMalformedMessage); }
Status ProtocolError(const Fault& fault) { return TesteeProtocolError(fault.text()); }

std::optional<GateMessage> BodyFrom(GateOp op, const Json& doc, int64_t seq, Version version) {
  GateMessage m{.seq = seq, .op = op};
  switch (op) {
    case GateOp::kHello:
      if (!OnlyMembers(doc, {"seq", "op", "protocol"}, {"protocol"}) ||
          !doc["protocol"].is_string()) {
        return std::nullopt;
      }
      m.protocol = doc["protocol"].get<std::string>();
      return m;
    case GateOp::kCase: {
      if (!OnlyMembers(doc, {"seq", "op", "call"}, {"call"})) return std::nullopt;
      std::optional<ScriptedCall> call = CallFrom(doc["call"], version);
      if (!call) return std::nullopt;
      m.call = std::move(*call);
      return m;
    }
    case GateOp::kStop:
      if (!OnlyMembers(doc, {"seq", "op"}, {})) return std::nullopt;
      return m;
  }
  return std::nullopt;
}

std::optional<GateOp> OpFromName(std::string_view name) {
  for (const auto& [op, text] : kOps) {
    if (name == text) return op;
  }
  return std::nullopt;
}

std::string_view OpName(GateOp op) {
  for (const auto& [o, name] : kOps) {
    if (o == op) return name;
  }
  return "unknown";
}

std::optional<Status> ErrorFrom(const Json& doc, Fault& fault) {
  if (!OnlyMembers(doc, {"seq", "ok", "error"}, {"error"}, &fault)) return std::nullopt;
  const Json& e = doc["error"];
  if (!OnlyMembers(e, {"outcome", "reason", "message"}, {"outcome", "reason", "message"}, &fault,
                   "error")) {
    return std::nullopt;
  }
  for (const char* key : {"outcome", "reason", "message"}) {
    if (!e[key].is_string()) {
      WrongType(&fault, MemberPath("error", key), e[key], "string");
      return std::nullopt;
    }
  }
  const std::optional<Outcome> outcome = OutcomeNamed(e["outcome"]);
  if (!outcome || *outcome == Outcome::kCompleted) {
    fault.Set("error.outcome", "not one of refused, failed, blocked");
    return std::nullopt;
  }
  return StatusForReason(*outcome, e["reason"].get<std::string>());
}

// The fields of an "ok":true answer to `answered`.
StatusOr<TesteeAnswer> OkAnswerFrom(const Json& doc, GateOp answered, TesteeAnswer answer,
                                    Version version) {
  Fault fault;
  switch (answered) {
    case GateOp::kHello: {
      if (!OnlyMembers(doc, {"seq", "ok", "protocol", "implementation"},
                       {"protocol", "implementation"}, &fault)) {
        return ProtocolError(fault);
      }
      if (!doc["protocol"].is_string()) {
        WrongType(&fault, "protocol", doc["protocol"], "string");
        return ProtocolError(fault);
      }
      const Json& i = doc["implementation"];
      if (!OnlyMembers(i, {"name", "version"}, {"name", "version"}, &fault, "implementation")) {
        return ProtocolError(fault);
      }
      for (const char* key : {"name", "version"}) {
        if (!i[key].is_string()) {
          WrongType(&fault, MemberPath("implementation", key), i[key], "string");
          return ProtocolError(fault);
        }
      }
      answer.protocol = doc["protocol"].get<std::string>();
      if (!VersionNamed(answer.protocol)) {
        return StatusForReason(Outcome::kFailed, kProtocolMismatch);
      }
      answer.implementation = {i["name"].get<std::string>(), i["version"].get<std::string>()};
      return answer;
    }
    case GateOp::kCase: {
      if (!OnlyMembers(doc, {"seq", "ok", "report"}, {"report"}, &fault)) {
        return ProtocolError(fault);
      }
      std::optional<CallReport> report = ReportFrom(doc["report"], fault, version);
      if (!report) return ProtocolError(fault);
      answer.report = std::move(*report);
      return answer;
    }
    case GateOp::kStop:
      if (!OnlyMembers(doc, {"seq", "ok"}, {}, &fault)) return ProtocolError(fault);
      return answer;
  }
  fault.Set("op", "not a message this gate sends");
  return ProtocolError(fault);
}

}  // namespace

Status TesteeProtocolError(std::string_view fault) {
  const Status fixed = StatusForReason(Outcome::kFailed, kTesteeProtocolError);
  if (fault.empty()) return fixed;
  return Status(Outcome::kFailed, kTesteeProtocolError,
                fixed.message() + " At fault: " + std::string(fault) + ".");
}

Status StatusForReason(Outcome outcome, std::string_view reason) {
  return line_protocol::StatusForReason(
      outcome, reason, kKnownReasons,
      {kTesteeError, "The testee reported an error this gate does not know."});
}

std::string_view VersionName(Version version) {
  for (const auto& [v, name] : kVersions) {
    if (v == version) return name;
  }
  return "unknown";
}

std::optional<Version> VersionNamed(std::string_view name) {
  for (const auto& [v, text] : kVersions) {
    if (name == text) return v;
  }
  return std::nullopt;
}

std::string EncodeGateMessage(const GateMessage& message, Version version) {
  Json out = {{"seq", message.seq}, {"op", OpName(message.op)}};
  if (message.op == GateOp::kHello) out["protocol"] = message.protocol;
  if (message.op == GateOp::kCase) out["call"] = CallJson(message.call, version);
  return Line(out);
}

std::string EncodeHelloAnswer(int64_t seq, const Implementation& implementation,
                              Version version) {
  return Line(Json{{"seq", seq},
                   {"ok", true},
                   {"protocol", VersionName(version)},
                   {"implementation",
                    {{"name", implementation.name}, {"version", implementation.version}}}});
}

std::string EncodeCaseAnswer(int64_t seq, const CallReport& report, Version version) {
  return Line(Json{{"seq", seq}, {"ok", true}, {"report", ReportJson(report, version)}});
}

std::string EncodeStopAnswer(int64_t seq) { return Line(Json{{"seq", seq}, {"ok", true}}); }

std::string EncodeErrorAnswer(std::optional<int64_t> seq, const Status& error) {
  return Line(line_protocol::ErrorAnswer(seq, OutcomeName(error.outcome()), error));
}

StatusOr<GateMessage> DecodeGateMessage(std::string_view line, std::optional<int64_t>* seq,
                                        Version version) {
  try {
    ASSIGN_OR_RETURN(line_protocol::RequestHead head, line_protocol::ReadRequestHead(line, seq));
    const std::optional<GateOp> op = OpFromName(head.op);
    if (!op) return StatusForReason(Outcome::kRefused, kUnknownOp);
    std::optional<GateMessage> message = BodyFrom(*op, head.doc, head.seq, version);
    if (!message) return Malformed();
    return std::move(*message);
  } catch (const std::exception&) {
    return Malformed();
  }
}

bool IsCallback(std::string_view line) {
  const std::optional<Json> doc = ParseStrict(line);
  return doc && doc->is_object() && doc->contains("op");
}

StatusOr<TesteeAnswer> DecodeAnswer(std::string_view line, GateOp answered, Version version) {
  Fault fault;
  try {
    const std::optional<Json> doc = ParseStrict(line);
    if (!doc) return TesteeProtocolError(WhyUnreadable(line));
    if (!doc->is_object()) {
      WrongType(&fault, "the line", *doc, "object");
      return ProtocolError(fault);
    }
    for (const char* key : {"seq", "ok"}) {
      if (!doc->contains(key)) {
        fault.Set(key, "missing");
        return ProtocolError(fault);
      }
    }
    if (!(*doc)["ok"].is_boolean()) {
      WrongType(&fault, "ok", (*doc)["ok"], "boolean");
      return ProtocolError(fault);
    }
    TesteeAnswer answer;
    const Json& seq = (*doc)["seq"];
    if (!seq.is_null()) {
      answer.seq = AsInt64(seq);
      if (!answer.seq) {
        fault.Set("seq", std::string("wrong type or value (") + TypeName(seq) +
                             "), want a 64-bit integer or null");
        return ProtocolError(fault);
      }
    }
    if (!(*doc)["ok"].get<bool>()) {
      std::optional<Status> error = ErrorFrom(*doc, fault);
      if (!error) return ProtocolError(fault);
      answer.error = std::move(*error);
      return answer;
    }
    return OkAnswerFrom(*doc, answered, std::move(answer), version);
  } catch (const std::exception&) {
    fault.Set("the line", "not readable as an answer");
    return ProtocolError(fault);
  }
}

}  // namespace azure_pricing::conformance::testee
