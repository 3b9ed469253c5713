#include "conformance/testee/protocol.h"

#include <array>
#include <climits>
#include <exception>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>
#include <vector>

#include "conformance/backend/protocol/wire_json.h"

namespace azure_pricing::testee {
namespace {

// Ordered, so that every line starts with "seq" and reads the way PROTOCOL.md shows it.
using Json = nlohmann::ordered_json;
using backend_protocol::AsInt64;
using backend_protocol::Line;
using backend_protocol::ParseStrict;
using conformance::host::CallReport;
using conformance::host::ScriptedCall;

constexpr std::array<std::pair<GateOp, const char*>, 3> kOps = {{
    {GateOp::kHello, kOpHello},
    {GateOp::kCase, kOpCase},
    {GateOp::kStop, kOpStop},
}};

struct KnownReason {
  const char* reason;
  const char* message;
};

// Every reason that crosses the wire with its meaning intact, and the fixed text a received
// error gets: the peer's own message is received data and never becomes a Status message.
constexpr KnownReason kKnownReasons[] = {
    {kMalformedMessage,
     "The line is not a protocol message: not JSON, not an object, or a member missing, unknown, "
     "repeated or of the wrong type."},
    {kUnknownOp, "The message names an op this protocol version does not have."},
    {kOutOfOrder, "The message's seq is not greater than the previous message's."},
    {kNotStarted, "The first message must be hello."},
    {kAlreadyStarted, "hello was already answered."},
    {kProtocolMismatch, "The peer speaks another version of the testee protocol."},
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

// Every member of `o` is one of `allowed`, and every one of `required` is present.
bool OnlyMembers(const Json& o, std::initializer_list<std::string_view> allowed,
                 std::initializer_list<const char*> required) {
  if (!o.is_object()) return false;
  for (const auto& item : o.items()) {
    bool known = false;
    for (std::string_view name : allowed) known = known || item.key() == name;
    if (!known) return false;
  }
  for (const char* name : required) {
    if (!o.contains(name)) return false;
  }
  return true;
}

bool StringList(const Json& v, std::vector<std::string>& out) {
  if (!v.is_array()) return false;
  for (const Json& item : v) {
    if (!item.is_string()) return false;
    out.push_back(item.get<std::string>());
  }
  return true;
}

Json OptionalInt(const std::optional<int64_t>& v) { return v ? Json(*v) : Json(nullptr); }

bool ReadOptionalInt(const Json& v, std::optional<int64_t>& out) {
  if (v.is_null()) return true;
  out = AsInt64(v);
  return out.has_value();
}

Json CallJson(const ScriptedCall& c) {
  return Json{{"arguments", c.arguments},
              {"call_id", c.call_id.empty() ? Json(nullptr) : Json(c.call_id)},
              {"same_host", c.same_host},
              {"host_json", c.host_json},
              {"backend_json", c.backend_json},
              {"labels_json", c.labels_json},
              {"middleware", c.middleware},
              {"max_rows", OptionalInt(c.max_rows)},
              {"exec_timeout_seconds", OptionalInt(c.exec_timeout_seconds)},
              {"max_output_bytes", OptionalInt(c.max_output_bytes)}};
}

std::optional<ScriptedCall> CallFrom(const Json& j) {
  const char* const keys[] = {"arguments", "host_json", "backend_json", "labels_json"};
  if (!OnlyMembers(j,
                   {"arguments", "call_id", "same_host", "host_json", "backend_json",
                    "labels_json", "middleware", "max_rows", "exec_timeout_seconds",
                    "max_output_bytes"},
                   {"arguments", "same_host", "host_json", "backend_json", "labels_json",
                    "middleware"})) {
    return std::nullopt;
  }
  for (const char* key : keys) {
    if (!j[key].is_string()) return std::nullopt;
  }
  const Json& call_id = j.value("call_id", Json());
  if (!j["same_host"].is_boolean() || !(call_id.is_null() || call_id.is_string())) {
    return std::nullopt;
  }
  ScriptedCall c;
  c.arguments = j["arguments"].get<std::string>();
  c.same_host = j["same_host"].get<bool>();
  if (call_id.is_string()) c.call_id = call_id.get<std::string>();
  c.host_json = j["host_json"].get<std::string>();
  c.backend_json = j["backend_json"].get<std::string>();
  c.labels_json = j["labels_json"].get<std::string>();
  if (!StringList(j["middleware"], c.middleware)) return std::nullopt;
  const Json null;
  if (!ReadOptionalInt(j.value("max_rows", null), c.max_rows) ||
      !ReadOptionalInt(j.value("exec_timeout_seconds", null), c.exec_timeout_seconds) ||
      !ReadOptionalInt(j.value("max_output_bytes", null), c.max_output_bytes)) {
    return std::nullopt;
  }
  return c;
}

Json ReportJson(const CallReport& r) {
  Json label = nullptr;
  if (r.result_label) {
    label = {{"integrity", labels::Name(r.result_label->integrity)},
             {"confidentiality", labels::Name(r.result_label->confidentiality)}};
  }
  return Json{{"outcome", OutcomeName(r.outcome)},
              {"reason", r.reason.empty() ? Json(nullptr) : Json(r.reason)},
              {"trusted_messages", r.trusted_messages},
              {"output", r.output ? Json(*r.output) : Json(nullptr)},
              {"result_label", std::move(label)},
              {"violations", r.violations},
              {"warnings", r.warnings},
              {"tools", r.tools},
              {"tool", r.tool_name.empty()
                           ? Json(nullptr)
                           : Json{{"name", r.tool_name},
                                  {"description", r.tool_description},
                                  {"parameters_schema", r.tool_parameters_schema}}}};
}

// The tool as the model sees it: {"name", "description", "parameters_schema"} or null.
bool ToolFrom(const Json& j, CallReport& r) {
  if (j.is_null()) return true;
  const char* const keys[] = {"name", "description", "parameters_schema"};
  if (!OnlyMembers(j, {"name", "description", "parameters_schema"},
                   {"name", "description", "parameters_schema"})) {
    return false;
  }
  for (const char* key : keys) {
    if (!j[key].is_string()) return false;
  }
  r.tool_name = j["name"].get<std::string>();
  r.tool_description = j["description"].get<std::string>();
  r.tool_parameters_schema = j["parameters_schema"].get<std::string>();
  return !r.tool_name.empty();
}

std::optional<Outcome> OutcomeNamed(const Json& v) {
  if (!v.is_string()) return std::nullopt;
  for (Outcome o : {Outcome::kCompleted, Outcome::kRefused, Outcome::kFailed, Outcome::kBlocked}) {
    if (OutcomeName(o) == v.get<std::string>()) return o;
  }
  return std::nullopt;
}

bool LabelFrom(const Json& j, std::optional<labels::ContentLabel>& out) {
  if (j.is_null()) return true;
  if (!OnlyMembers(j, {"integrity", "confidentiality"}, {"integrity", "confidentiality"}) ||
      !j["integrity"].is_string() || !j["confidentiality"].is_string()) {
    return false;
  }
  const auto integrity = labels::ParseIntegrity(j["integrity"].get<std::string>());
  const auto confidentiality = labels::ParseConfidentiality(j["confidentiality"].get<std::string>());
  if (!integrity || !confidentiality) return false;
  out = labels::ContentLabel{};
  out->integrity = *integrity;
  out->confidentiality = *confidentiality;
  return true;
}

std::optional<CallReport> ReportFrom(const Json& j) {
  if (!OnlyMembers(j,
                   {"outcome", "reason", "trusted_messages", "output", "result_label",
                    "violations", "warnings", "tools", "tool"},
                   {"outcome", "reason", "trusted_messages", "output", "result_label",
                    "violations", "warnings", "tools", "tool"})) {
    return std::nullopt;
  }
  CallReport r;
  const std::optional<Outcome> outcome = OutcomeNamed(j["outcome"]);
  const std::optional<int64_t> tools = AsInt64(j["tools"]);
  if (!outcome || !tools || *tools < 0 || !(j["reason"].is_null() || j["reason"].is_string()) ||
      !(j["output"].is_null() || j["output"].is_string())) {
    return std::nullopt;
  }
  r.outcome = *outcome;
  r.tools = static_cast<size_t>(*tools);
  if (j["reason"].is_string()) r.reason = j["reason"].get<std::string>();
  if (j["output"].is_string()) r.output = j["output"].get<std::string>();
  if (!StringList(j["trusted_messages"], r.trusted_messages) ||
      !StringList(j["violations"], r.violations) || !StringList(j["warnings"], r.warnings) ||
      !LabelFrom(j["result_label"], r.result_label) || !ToolFrom(j["tool"], r)) {
    return std::nullopt;
  }
  return r;
}

Status Malformed() { return StatusForReason(Outcome::kRefused, kMalformedMessage); }
Status ProtocolError() { return StatusForReason(Outcome::kFailed, kTesteeProtocolError); }

std::optional<GateMessage> BodyFrom(GateOp op, const Json& doc, int64_t seq) {
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
      std::optional<ScriptedCall> call = CallFrom(doc["call"]);
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

std::optional<GateOp> OpFromName(const Json& name) {
  if (!name.is_string()) return std::nullopt;
  for (const auto& [op, text] : kOps) {
    if (name.get<std::string>() == text) return op;
  }
  return std::nullopt;
}

std::string_view OpName(GateOp op) {
  for (const auto& [o, name] : kOps) {
    if (o == op) return name;
  }
  return "unknown";
}

std::optional<Status> ErrorFrom(const Json& doc) {
  if (!OnlyMembers(doc, {"seq", "ok", "error"}, {"error"})) return std::nullopt;
  const Json& e = doc["error"];
  if (!OnlyMembers(e, {"outcome", "reason", "message"}, {"outcome", "reason", "message"}) ||
      !e["reason"].is_string() || !e["message"].is_string()) {
    return std::nullopt;
  }
  const std::optional<Outcome> outcome = OutcomeNamed(e["outcome"]);
  if (!outcome || *outcome == Outcome::kCompleted) return std::nullopt;
  return StatusForReason(*outcome, e["reason"].get<std::string>());
}

// The fields of an "ok":true answer to `answered`.
StatusOr<TesteeAnswer> OkAnswerFrom(const Json& doc, GateOp answered, TesteeAnswer answer) {
  switch (answered) {
    case GateOp::kHello: {
      if (!OnlyMembers(doc, {"seq", "ok", "protocol", "implementation"},
                       {"protocol", "implementation"}) ||
          !doc["protocol"].is_string()) {
        return ProtocolError();
      }
      const Json& i = doc["implementation"];
      if (!OnlyMembers(i, {"name", "version"}, {"name", "version"}) || !i["name"].is_string() ||
          !i["version"].is_string()) {
        return ProtocolError();
      }
      answer.protocol = doc["protocol"].get<std::string>();
      if (answer.protocol != kProtocolVersion) {
        return StatusForReason(Outcome::kFailed, kProtocolMismatch);
      }
      answer.implementation = {i["name"].get<std::string>(), i["version"].get<std::string>()};
      return answer;
    }
    case GateOp::kCase: {
      if (!OnlyMembers(doc, {"seq", "ok", "report"}, {"report"})) return ProtocolError();
      std::optional<CallReport> report = ReportFrom(doc["report"]);
      if (!report) return ProtocolError();
      answer.report = std::move(*report);
      return answer;
    }
    case GateOp::kStop:
      if (!OnlyMembers(doc, {"seq", "ok"}, {})) return ProtocolError();
      return answer;
  }
  return ProtocolError();
}

}  // namespace

Status StatusForReason(Outcome outcome, std::string_view reason) {
  const Outcome wire = outcome == Outcome::kCompleted ? Outcome::kFailed : outcome;
  for (const KnownReason& known : kKnownReasons) {
    if (reason == known.reason) return Status(wire, known.reason, known.message);
  }
  return Status(wire, kTesteeError, "The testee reported an error this gate does not know.");
}

std::string EncodeGateMessage(const GateMessage& message) {
  Json out = {{"seq", message.seq}, {"op", OpName(message.op)}};
  if (message.op == GateOp::kHello) out["protocol"] = message.protocol;
  if (message.op == GateOp::kCase) out["call"] = CallJson(message.call);
  return Line(out);
}

std::string EncodeHelloAnswer(int64_t seq, const Implementation& implementation) {
  return Line(Json{{"seq", seq},
                   {"ok", true},
                   {"protocol", kProtocolVersion},
                   {"implementation",
                    {{"name", implementation.name}, {"version", implementation.version}}}});
}

std::string EncodeCaseAnswer(int64_t seq, const CallReport& report) {
  return Line(Json{{"seq", seq}, {"ok", true}, {"report", ReportJson(report)}});
}

std::string EncodeStopAnswer(int64_t seq) { return Line(Json{{"seq", seq}, {"ok", true}}); }

std::string EncodeErrorAnswer(std::optional<int64_t> seq, const Status& error) {
  return Line(Json{{"seq", seq ? Json(*seq) : Json(nullptr)},
                   {"ok", false},
                   {"error",
                    {{"outcome", OutcomeName(error.outcome())},
                     {"reason", error.reason()},
                     {"message", error.message()}}}});
}

StatusOr<GateMessage> DecodeGateMessage(std::string_view line, std::optional<int64_t>* seq) {
  if (seq != nullptr) seq->reset();
  try {
    const std::optional<Json> doc = ParseStrict(line);
    if (!doc || !doc->is_object() || !doc->contains("seq")) return Malformed();
    const std::optional<int64_t> n = AsInt64((*doc)["seq"]);
    if (!n) return Malformed();
    if (seq != nullptr) *seq = n;
    if (!doc->contains("op") || !(*doc)["op"].is_string()) return Malformed();
    const std::optional<GateOp> op = OpFromName((*doc)["op"]);
    if (!op) return StatusForReason(Outcome::kRefused, kUnknownOp);
    std::optional<GateMessage> message = BodyFrom(*op, *doc, *n);
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

StatusOr<TesteeAnswer> DecodeAnswer(std::string_view line, GateOp answered) {
  try {
    const std::optional<Json> doc = ParseStrict(line);
    if (!doc || !doc->is_object() || !doc->contains("seq") || !doc->contains("ok") ||
        !(*doc)["ok"].is_boolean()) {
      return ProtocolError();
    }
    TesteeAnswer answer;
    const Json& seq = (*doc)["seq"];
    if (!seq.is_null()) {
      answer.seq = AsInt64(seq);
      if (!answer.seq) return ProtocolError();
    }
    if (!(*doc)["ok"].get<bool>()) {
      std::optional<Status> error = ErrorFrom(*doc);
      if (!error) return ProtocolError();
      answer.error = std::move(*error);
      return answer;
    }
    return OkAnswerFrom(*doc, answered, std::move(answer));
  } catch (const std::exception&) {
    return ProtocolError();
  }
}

}  // namespace azure_pricing::testee
