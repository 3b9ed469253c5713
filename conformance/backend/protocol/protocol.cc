#include "conformance/backend/protocol/protocol.h"

#include <array>
#include <climits>
#include <exception>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>
#include <vector>

#include "conformance/line_protocol/wire_json.h"
#include "ref/sandbox/declaration_coverage.h"
#include "ref/status/status_macros.h"

namespace azure_pricing::conformance::backend::protocol {
namespace {

// Ordered, so that every line starts with "seq" and reads the way PROTOCOL.md shows it.
using Json = nlohmann::ordered_json;
using line_protocol::AsInt64;
using line_protocol::Line;
using line_protocol::ParseStrict;

using sandbox::BackendDeclaration;
using sandbox::EgressRule;
using sandbox::EgressUpstream;
using sandbox::ExecResult;
using sandbox::SandboxKey;
using sandbox::Spec;

constexpr std::array<std::pair<Op, const char*>, 5> kOps = {{
    {Op::kHello, kOpHello},
    {Op::kAcquire, kOpAcquire},
    {Op::kExecBounded, kOpExecBounded},
    {Op::kDispose, kOpDispose},
    {Op::kStop, kOpStop},
}};

// This protocol's reasons beyond the core's, and the ones of backend.h and spec.h a backend
// answers with, each with the fixed text a received error gets.
constexpr line_protocol::KnownReason kKnownReasons[] = {
    {sandbox::kExecTimeoutReason, "The bounded exec passed its timeout; the program was killed."},
    {sandbox::kExecOutputLimitReason,
     "The program's output passed the exec's limit; the program was killed."},
    {sandbox::kEgressRedirectUnsupported,
     "The backend cannot redirect its egress to a test upstream."},
    {sandbox::kInvalidSpec, "The backend found the sandbox spec invalid."},
    {sandbox::kSpecNotServed, "The backend does not serve a spec beyond its declaration."},
    {kBackendException, "The backend threw an exception instead of returning a status."},
    {kAdapterTimeout, "The adapter did not answer before its deadline; it was killed."},
    {kAdapterExited, "The adapter exited or closed its output; no answer came."},
    {kAdapterProtocolError,
     "The adapter's answer is not a protocol answer to the request; the adapter was killed."},
    {kAdapterSpawnFailed, "The adapter program could not be started."},
    {kAdapterFilesUnsupported, "The backend protocol does not carry file transfer."},
};

constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const size_t n = std::min<size_t>(3, bytes.size() - i);
    uint32_t group = 0;
    for (size_t k = 0; k < 3; ++k) {
      group = (group << 8) | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
    }
    for (size_t k = 0; k < 4; ++k) {
      out.push_back(k <= n ? kBase64Alphabet[(group >> (18 - 6 * k)) & 63] : '=');
    }
  }
  return out;
}

int Base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Standard alphabet, padded, no line breaks: what Python's base64.b64encode and Go's
// base64.StdEncoding write.
std::optional<std::string> Base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  size_t pad = 0;
  while (pad < 2 && pad < text.size() && text[text.size() - 1 - pad] == '=') ++pad;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  uint32_t group = 0;
  for (size_t i = 0; i < text.size() - pad; ++i) {
    const int v = Base64Value(text[i]);
    if (v < 0) return std::nullopt;
    group = (group << 6) | static_cast<uint32_t>(v);
    if (i % 4 == 3) {
      for (int k = 2; k >= 0; --k) out.push_back(static_cast<char>((group >> (8 * k)) & 0xff));
      group = 0;
    }
  }
  if (pad == 1) {
    group <<= 6;
    out.push_back(static_cast<char>((group >> 16) & 0xff));
    out.push_back(static_cast<char>((group >> 8) & 0xff));
  } else if (pad == 2) {
    group <<= 12;
    out.push_back(static_cast<char>((group >> 16) & 0xff));
  }
  return out;
}

template <typename T>
Json Names(const std::set<T>& values) {
  Json out = Json::array();
  for (T v : values) out.push_back(std::string(sandbox::Name(v)));
  return out;
}

template <typename Container>
Json Strings(const Container& values) {
  Json out = Json::array();
  for (const std::string& v : values) out.push_back(v);
  return out;
}

Json SpecJson(const Spec& spec) {
  Json rules = Json::array();
  for (const EgressRule& rule : spec.egress_allow) {
    Json r = {{"host", rule.host}};
    if (rule.methods) r["methods"] = Strings(*rule.methods);
    rules.push_back(std::move(r));
  }
  return Json{{"os_family", sandbox::Name(spec.os_family)},
              {"min_isolation", sandbox::Name(spec.min_isolation)},
              {"requires", Names(spec.required)},
              {"egress", sandbox::Name(spec.egress)},
              {"egress_allow", std::move(rules)},
              {"isolation_scope", sandbox::Name(spec.isolation_scope)},
              {"cleanup", sandbox::Name(spec.cleanup)},
              {"image", spec.image}};
}

Json DeclarationJson(const BackendDeclaration& d) {
  Json out = {{"os_families", Names(d.os_families)},
              {"isolation", sandbox::Name(d.isolation)},
              {"capabilities", Names(d.capabilities)},
              {"egress_modes", Names(d.egress_modes)}};
  if (d.egress_method_tokens) {
    out["egress_method_tokens"] = Strings(*d.egress_method_tokens);
  }
  out["bounded_exec"] = d.bounded_exec;
  return out;
}

Json RequestFields(const RequestBody& body) {
  switch (OpOf(body)) {
    case Op::kHello:
      return {{"protocol", std::get<HelloRequest>(body).protocol}};
    case Op::kAcquire: {
      const auto& a = std::get<AcquireRequest>(body);
      Json out = {{"spec", SpecJson(a.spec)},
                  {"key",
                   {{"agent_id", a.key.agent_id},
                    {"session_id", a.key.session_id},
                    {"call_id", a.key.call_id}}}};
      if (a.egress_upstream) {
        const EgressUpstream& u = *a.egress_upstream;
        out["egress_upstream"] = {{"host", u.host}, {"port", u.port}, {"ca_pem", u.ca_pem}};
      }
      return out;
    }
    case Op::kExecBounded: {
      const auto& e = std::get<ExecBoundedRequest>(body);
      return {{"sandbox", e.sandbox},
              {"argv", Strings(e.exec.argv)},
              {"env", Strings(e.exec.env)},
              {"timeout_seconds", e.exec.timeout_seconds},
              {"max_output_bytes", e.exec.max_output_bytes}};
    }
    case Op::kDispose:
      return {{"sandbox", std::get<DisposeRequest>(body).sandbox}};
    case Op::kStop:
      break;
  }
  return Json::object();
}

Json ResponseFields(const ResponseBody& body) {
  if (const auto* h = std::get_if<HelloResponse>(&body)) {
    return {{"protocol", h->protocol},
            {"backend", {{"name", h->backend.name}, {"version", h->backend.version}}},
            {"declaration", DeclarationJson(h->declaration)}};
  }
  if (const auto* a = std::get_if<AcquireResponse>(&body)) return {{"sandbox", a->sandbox}};
  if (const auto* e = std::get_if<ExecResult>(&body)) {
    return {{"exit_code", e->exit_code},
            {"stdout_base64", Base64Encode(e->stdout_bytes)},
            {"stderr_base64", Base64Encode(e->stderr_bytes)}};
  }
  return Json::object();
}

// ---- Decoding ----------------------------------------------------------------------------

template <typename T, size_t N>
std::optional<T> ParseByName(const std::array<T, N>& all, std::string_view name) {
  for (T v : all) {
    if (sandbox::Name(v) == name) return v;
  }
  return std::nullopt;
}

// spec.h spells these two with Name() only; their inverse is read off the same spellings.
std::optional<sandbox::IsolationScope> ParseScope(std::string_view name) {
  return ParseByName(
      std::array{sandbox::IsolationScope::kConversation, sandbox::IsolationScope::kCall}, name);
}

std::optional<sandbox::Cleanup> ParseCleanup(std::string_view name) {
  return ParseByName(
      std::array{sandbox::Cleanup::kReclaim, sandbox::Cleanup::kReset, sandbox::Cleanup::kDispose},
      name);
}

// Reads one object's members. The object may hold only the named members; the first problem
// makes ok() false for good, so a decoder reads everything it needs and checks once.
class Members {
 public:
  Members(const Json& object, std::initializer_list<std::string_view> allowed) : o_(object) {
    ok_ = o_.is_object();
    if (!ok_) return;
    for (const auto& item : o_.items()) {
      bool known = false;
      for (std::string_view name : allowed) known = known || item.key() == name;
      ok_ = ok_ && known;
    }
  }

  bool ok() const { return ok_; }
  void Fail() { ok_ = false; }

  // Present and not null: optional members may be written either way.
  bool Present(const char* key) const {
    if (!ok_) return false;
    auto it = o_.find(key);
    return it != o_.end() && !it->is_null();
  }

  const Json& Get(const char* key) {
    static const Json kNull;
    if (!ok_) return kNull;
    auto it = o_.find(key);
    if (it == o_.end()) {
      ok_ = false;
      return kNull;
    }
    return *it;
  }

  std::string Str(const char* key) {
    const Json& v = Get(key);
    if (v.is_string()) return v.get<std::string>();
    ok_ = false;
    return {};
  }

  int64_t Int(const char* key, int64_t min, int64_t max) {
    const std::optional<int64_t> v = AsInt64(Get(key));
    if (v && *v >= min && *v <= max) return *v;
    ok_ = false;
    return min;
  }

  bool Bool(const char* key) {
    const Json& v = Get(key);
    if (v.is_boolean()) return v.get<bool>();
    ok_ = false;
    return false;
  }

  std::vector<std::string> StrList(const char* key) {
    std::vector<std::string> out;
    const Json& v = Get(key);
    if (!v.is_array()) {
      ok_ = false;
      return out;
    }
    for (const Json& item : v) {
      if (!item.is_string()) ok_ = false;
      if (ok_) out.push_back(item.get<std::string>());
    }
    return out;
  }

  template <typename T>
  T Enum(const char* key, std::optional<T> (*parse)(std::string_view)) {
    const std::optional<T> v = parse(Str(key));
    if (v) return *v;
    ok_ = false;
    return T{};
  }

  template <typename T>
  std::set<T> EnumSet(const char* key, std::optional<T> (*parse)(std::string_view)) {
    std::set<T> out;
    for (const std::string& name : StrList(key)) {
      const std::optional<T> v = parse(name);
      if (v) out.insert(*v);
      ok_ = ok_ && v.has_value();
    }
    return out;
  }

 private:
  const Json& o_;
  bool ok_ = true;
};

std::optional<EgressRule> RuleFrom(const Json& j) {
  Members m(j, {"host", "methods"});
  EgressRule rule;
  rule.host = m.Str("host");
  if (m.Present("methods")) {
    const std::vector<std::string> methods = m.StrList("methods");
    rule.methods = std::set<std::string>(methods.begin(), methods.end());
  }
  if (!m.ok()) return std::nullopt;
  return rule;
}

std::optional<Spec> SpecFrom(const Json& j) {
  Members m(j, {"os_family", "min_isolation", "requires", "egress", "egress_allow",
                "isolation_scope", "cleanup", "image"});
  Spec spec;
  spec.os_family = m.Enum("os_family", sandbox::ParseOsFamily);
  spec.min_isolation = m.Enum("min_isolation", sandbox::ParseIsolation);
  spec.required = m.EnumSet("requires", sandbox::ParseCapability);
  spec.egress = m.Enum("egress", sandbox::ParseEgress);
  spec.isolation_scope = m.Enum("isolation_scope", ParseScope);
  spec.cleanup = m.Enum("cleanup", ParseCleanup);
  spec.image = m.Str("image");
  const Json& rules = m.Get("egress_allow");
  if (!rules.is_array()) return std::nullopt;
  for (const Json& r : rules) {
    std::optional<EgressRule> rule = RuleFrom(r);
    if (!rule) return std::nullopt;
    spec.egress_allow.push_back(std::move(*rule));
  }
  if (!m.ok()) return std::nullopt;
  return spec;
}

std::optional<SandboxKey> KeyFrom(const Json& j) {
  Members m(j, {"agent_id", "session_id", "call_id"});
  SandboxKey key{m.Str("agent_id"), m.Str("session_id"), m.Str("call_id")};
  if (!m.ok()) return std::nullopt;
  return key;
}

std::optional<EgressUpstream> UpstreamFrom(const Json& j) {
  Members m(j, {"host", "port", "ca_pem"});
  EgressUpstream u;
  u.host = m.Str("host");
  u.port = static_cast<int>(m.Int("port", 1, 65535));
  u.ca_pem = m.Str("ca_pem");
  if (!m.ok()) return std::nullopt;
  return u;
}

std::optional<RequestBody> AcquireFrom(const Json& doc) {
  Members m(doc, {"seq", "op", "spec", "key", "egress_upstream"});
  AcquireRequest a;
  std::optional<Spec> spec = SpecFrom(m.Get("spec"));
  std::optional<SandboxKey> key = KeyFrom(m.Get("key"));
  if (m.Present("egress_upstream")) {
    a.egress_upstream = UpstreamFrom(m.Get("egress_upstream"));
    if (!a.egress_upstream) m.Fail();
  }
  if (!m.ok() || !spec || !key) return std::nullopt;
  a.spec = std::move(*spec);
  a.key = std::move(*key);
  return a;
}

std::optional<RequestBody> ExecFrom(const Json& doc) {
  Members m(doc, {"seq", "op", "sandbox", "argv", "env", "timeout_seconds", "max_output_bytes"});
  ExecBoundedRequest e;
  e.sandbox = m.Str("sandbox");
  e.exec.argv = m.StrList("argv");
  e.exec.env = m.StrList("env");
  e.exec.timeout_seconds = m.Int("timeout_seconds", 0, INT64_MAX);
  e.exec.max_output_bytes = m.Int("max_output_bytes", 0, INT64_MAX);
  if (!m.ok()) return std::nullopt;
  return e;
}

std::optional<RequestBody> BodyFrom(Op op, const Json& doc) {
  switch (op) {
    case Op::kHello: {
      Members m(doc, {"seq", "op", "protocol"});
      HelloRequest h{m.Str("protocol")};
      if (!m.ok()) return std::nullopt;
      return h;
    }
    case Op::kAcquire:
      return AcquireFrom(doc);
    case Op::kExecBounded:
      return ExecFrom(doc);
    case Op::kDispose: {
      Members m(doc, {"seq", "op", "sandbox"});
      DisposeRequest d{m.Str("sandbox")};
      if (!m.ok()) return std::nullopt;
      return d;
    }
    case Op::kStop: {
      Members m(doc, {"seq", "op"});
      if (!m.ok()) return std::nullopt;
      return StopRequest{};
    }
  }
  return std::nullopt;
}

std::optional<Op> OpFromName(std::string_view name) {
  for (const auto& [op, n] : kOps) {
    if (name == n) return op;
  }
  return std::nullopt;
}

Status Malformed() { return StatusForReason(Outcome::kRefused, kMalformedMessage); }

Status ProtocolError() { return StatusForReason(Outcome::kFailed, kAdapterProtocolError); }

std::optional<BackendDeclaration> DeclarationFrom(const Json& j, const std::string& name) {
  Members m(j, {"os_families", "isolation", "capabilities", "egress_modes", "egress_method_tokens",
                "bounded_exec"});
  BackendDeclaration d;
  d.name = name;
  d.os_families = m.EnumSet("os_families", sandbox::ParseOsFamily);
  d.isolation = m.Enum("isolation", sandbox::ParseIsolation);
  d.capabilities = m.EnumSet("capabilities", sandbox::ParseCapability);
  d.egress_modes = m.EnumSet("egress_modes", sandbox::ParseEgress);
  // Absent means every token; a typo in the member name is an unknown member, not absence.
  if (m.Present("egress_method_tokens")) {
    const std::vector<std::string> tokens = m.StrList("egress_method_tokens");
    d.egress_method_tokens = std::set<std::string>(tokens.begin(), tokens.end());
  }
  d.bounded_exec = m.Bool("bounded_exec");
  if (!m.ok()) return std::nullopt;
  return d;
}

StatusOr<ResponseBody> HelloFrom(const Json& doc) {
  Members m(doc, {"seq", "ok", "protocol", "backend", "declaration"});
  HelloResponse h;
  h.protocol = m.Str("protocol");
  if (m.ok() && h.protocol != kProtocolVersion) {
    return StatusForReason(Outcome::kRefused, kProtocolMismatch);
  }
  Members b(m.Get("backend"), {"name", "version"});
  h.backend = BackendIdentity{b.Str("name"), b.Str("version")};
  std::optional<BackendDeclaration> d = DeclarationFrom(m.Get("declaration"), h.backend.name);
  if (!m.ok() || !b.ok() || !d) return ProtocolError();
  h.declaration = std::move(*d);
  return ResponseBody(std::move(h));
}

StatusOr<ResponseBody> ExecResultFrom(const Json& doc) {
  Members m(doc, {"seq", "ok", "exit_code", "stdout_base64", "stderr_base64"});
  const int64_t exit_code = m.Int("exit_code", INT_MIN, INT_MAX);
  std::optional<std::string> out = Base64Decode(m.Str("stdout_base64"));
  std::optional<std::string> err = Base64Decode(m.Str("stderr_base64"));
  if (!m.ok() || !out || !err) return ProtocolError();
  return ResponseBody(ExecResult{std::move(*out), std::move(*err), static_cast<int>(exit_code)});
}

StatusOr<ResponseBody> OkBodyFrom(Op answered, const Json& doc) {
  switch (answered) {
    case Op::kHello:
      return HelloFrom(doc);
    case Op::kAcquire: {
      Members m(doc, {"seq", "ok", "sandbox"});
      AcquireResponse a{m.Str("sandbox")};
      if (!m.ok() || a.sandbox.empty()) return ProtocolError();
      return ResponseBody(std::move(a));
    }
    case Op::kExecBounded:
      return ExecResultFrom(doc);
    case Op::kDispose:
    case Op::kStop:
      break;
  }
  Members m(doc, {"seq", "ok"});
  if (!m.ok()) return ProtocolError();
  return ResponseBody();
}

std::optional<Status> ErrorFrom(const Json& doc) {
  Members m(doc, {"seq", "ok", "error"});
  Members e(m.Get("error"), {"outcome", "reason", "message"});
  const std::string outcome = e.Str("outcome");
  const std::string reason = e.Str("reason");
  (void)e.Str("message");  // required, but never kept: it is the peer's text
  if (!m.ok() || !e.ok() || reason.empty()) return std::nullopt;
  if (outcome != kOutcomeRefused && outcome != kOutcomeFailed) return std::nullopt;
  return StatusForReason(outcome == kOutcomeRefused ? Outcome::kRefused : Outcome::kFailed, reason);
}

StatusOr<Response> ResponseFrom(const Json& doc, Op answered) {
  if (!doc.is_object()) return ProtocolError();
  Response r;
  auto seq = doc.find("seq");
  auto ok = doc.find("ok");
  if (seq == doc.end() || ok == doc.end() || !ok->is_boolean()) return ProtocolError();
  if (!seq->is_null()) {
    r.seq = AsInt64(*seq);
    if (!r.seq) return ProtocolError();
  }
  if (!ok->get<bool>()) {
    std::optional<Status> error = ErrorFrom(doc);
    if (!error) return ProtocolError();
    r.error = std::move(*error);
    return r;
  }
  ASSIGN_OR_RETURN(ResponseBody body, OkBodyFrom(answered, doc));
  r.body = std::move(body);
  return r;
}

}  // namespace

std::string_view OpName(Op op) {
  for (const auto& [o, name] : kOps) {
    if (o == op) return name;
  }
  return "unknown";
}

Op OpOf(const RequestBody& body) { return static_cast<Op>(body.index()); }

Status StatusForReason(Outcome outcome, std::string_view reason) {
  // A backend never reports "blocked": that is the host's.
  const Outcome wire = outcome == Outcome::kRefused ? Outcome::kRefused : Outcome::kFailed;
  return line_protocol::StatusForReason(
      wire, reason, kKnownReasons,
      {kBackendError, "The backend reported an error this suite does not know."});
}

std::string EncodeRequest(const Request& request) {
  Json message = {{"seq", request.seq}, {"op", OpName(OpOf(request.body))}};
  const Json fields = RequestFields(request.body);  // named: items() does not extend its life
  for (const auto& item : fields.items()) message[item.key()] = item.value();
  return Line(message);
}

std::string EncodeResponse(const Response& response) {
  if (!response.error.ok()) {
    const Status& s = response.error;
    return Line(line_protocol::ErrorAnswer(
        response.seq, s.outcome() == Outcome::kRefused ? kOutcomeRefused : kOutcomeFailed, s));
  }
  Json message = {{"seq", response.seq ? Json(*response.seq) : Json(nullptr)}, {"ok", true}};
  const Json fields = ResponseFields(response.body);
  for (const auto& item : fields.items()) message[item.key()] = item.value();
  return Line(message);
}

StatusOr<Request> DecodeRequest(std::string_view line, std::optional<int64_t>* seq) {
  try {
    ASSIGN_OR_RETURN(line_protocol::RequestHead head, line_protocol::ReadRequestHead(line, seq));
    const std::optional<Op> op = OpFromName(head.op);
    if (!op) return StatusForReason(Outcome::kRefused, kUnknownOp);
    std::optional<RequestBody> body = BodyFrom(*op, head.doc);
    if (!body) return Malformed();
    return Request{head.seq, std::move(*body)};
  } catch (const std::exception&) {
    return Malformed();
  }
}

StatusOr<Response> DecodeResponse(std::string_view line, Op answered) {
  try {
    const std::optional<Json> doc = ParseStrict(line);
    if (!doc) return ProtocolError();
    return ResponseFrom(*doc, answered);
  } catch (const std::exception&) {
    return ProtocolError();
  }
}

}  // namespace azure_pricing::conformance::backend::protocol
