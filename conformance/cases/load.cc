#include "conformance/cases/load.h"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "azmcp/cli_version.h"
#include "conformance/cases/expectations.h"
#include "conformance/host/config_keys.h"
#include "conformance/host/config_value.h"
#include "conformance/json_schema/json_schema.h"
#include "ref/base/files.h"
#include "ref/pricing/bounds.h"

namespace azure_pricing::conformance {
namespace {

using nlohmann::ordered_json;

// The spec's argument names ("Arguments and results"). A refusal may name these: they are the
// tool's own words. Any other name came from the model and must not come back.
constexpr const char* kSpecArgumentNames[] = {"sku",          "service",  "region",
                                              "service_family", "price_type", "currency",
                                              "include_savings_plan", "filter"};

bool IsSpecArgumentName(std::string_view s) {
  for (const char* name : kSpecArgumentNames) {
    if (s == name) return true;
  }
  return false;
}

void CollectUnknownNames(const ordered_json& arguments, std::vector<std::string>& out) {
  if (!arguments.is_object()) return;
  for (const auto& item : arguments.items()) {
    if (!IsSpecArgumentName(item.key())) out.push_back(item.key());
  }
}

// Quoted runs of raw text, for inputs that are not JSON the runner could read. An argument's
// name is the tool's own word, which a refusal names (PROFILE-001's «argument»), not an echo.
void CollectQuotedRuns(const std::string& text, std::vector<std::string>& out) {
  size_t open = text.find('"');
  while (open != std::string::npos) {
    const size_t close = text.find('"', open + 1);
    if (close == std::string::npos) break;
    std::string run = text.substr(open + 1, close - open - 1);
    if (!IsSpecArgumentName(run)) out.push_back(std::move(run));
    open = text.find('"', close + 1);
  }
}

void CollectLines(const std::string& text, std::vector<std::string>& out) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
}

// A plan_only call is a host call too, so a testee answers it like any other: the CLI returns an
// empty price list, recorded from the real azmcp.
constexpr char kPlanningCliStdout[] = "fixtures/azmcp-3.0.0-beta.46/cli-stdout/success-empty.json";

// The CLI's scripted answer to a call: its "cli", or a plan_only call's empty price list.
ordered_json CliOf(const ordered_json& entry) {
  if (entry.value("plan_only", false)) return {{"stdout_file", kPlanningCliStdout}};
  return entry.value("cli", ordered_json::object());
}

// Where a problem is: "FILE: case ID: ... at /cases/I/...".
struct Place {
  const std::string& file;
  const std::string& id;
  std::string path;  // the JSON path of the call

  std::string Problem(const std::string& what, const std::string& member) const {
    return file + ": case " + id + ": " + what + " at " + path + member;
  }
};

// The host's output budget, for a CLI that overflows it.
int64_t MaxOutputBytes(const ordered_json& c) {
  const ordered_json& h = c.value("host", ordered_json::object());
  return h.contains("max_output_bytes") ? h["max_output_bytes"].get<int64_t>()
                                        : HostBounds{}.max_output_bytes;
}

// A file in one version's own recordings (fixtures/azmcp-VERSION-differential/, -local/,
// -dry-run/) is read from the current version's (azmcp/cli_version.h): those are the only ones
// the build gives the gate, and tools/cli_upgrade records them for every version it moves to.
// The imported recordings (fixtures/azmcp-VERSION/) and every other path are read as written.
std::string CurrentVersionsRecording(const std::string& file) {
  constexpr std::string_view kPrefix = "fixtures/azmcp-";
  if (file.rfind(kPrefix, 0) != 0) return file;
  const size_t slash = file.find('/', kPrefix.size());
  if (slash == std::string::npos) return file;
  const std::string folder = file.substr(kPrefix.size(), slash - kPrefix.size());
  for (const std::string_view kind : {"-differential", "-local", "-dry-run"}) {
    if (folder.size() > kind.size() && folder.ends_with(kind)) {
      return std::string(kPrefix) + AZMCP_CLI_VERSION + std::string(kind) + file.substr(slash);
    }
  }
  return file;
}

// stdout and stderr: the bytes given, or a file's, read now; an error text when it cannot be.
std::string ReadStreams(const ordered_json& cli, const Place& at,
                        fakes::sandbox::CallScript& script) {
  for (const auto& [name, out] :
       {std::pair<std::string, std::string*>{"stdout", &script.exec.stdout_bytes},
        std::pair<std::string, std::string*>{"stderr", &script.exec.stderr_bytes}}) {
    if (cli.contains(name + "_file")) {
      const std::string file = CurrentVersionsRecording(cli[name + "_file"].get<std::string>());
      StatusOr<std::string> text = base::ReadFile(file);
      if (!text.ok()) {
        return at.Problem("cannot read " + file + " (" + std::string(text.status().reason()) + ")",
                          "/cli/" + name + "_file");
      }
      *out = std::move(*text);
    } else if (cli.contains(name)) {
      *out = cli[name].get<std::string>();
    }
  }
  return "";
}

// The sandbox's scripted answer for a call's "cli"; an error text when it cannot be made.
std::string MakeScript(const ordered_json& cli, int64_t max_output_bytes, const Place& at,
                       fakes::sandbox::CallScript& script) {
  if (std::string error = ReadStreams(cli, at, script); !error.empty()) return error;
  // Bytes no JSON string can hold (invalid UTF-8): the first occurrence of "find" in stdout
  // becomes the bytes spelled in hex.
  if (cli.contains("stdout_patch")) {
    const ordered_json& patch = cli["stdout_patch"];
    const std::string find = patch["find"].get<std::string>();
    const std::string hex = patch["replace_hex"].get<std::string>();
    const size_t at_byte = script.exec.stdout_bytes.find(find);
    if (at_byte == std::string::npos) {
      return at.Problem("stdout_patch: \"" + find + "\" is not in stdout", "/cli/stdout_patch");
    }
    std::string bytes;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) {
      bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    }
    script.exec.stdout_bytes.replace(at_byte, find.size(), bytes);
  }
  script.exec.exit_code = cli.value("exit_code", 0);
  script.exec.times_out = cli.value("timed_out", false);
  // An overflow is more output than the host's budget.
  if (cli.value("output_limit_exceeded", false)) {
    script.exec.stderr_bytes.append(static_cast<size_t>(max_output_bytes) + 1, 'x');
  }
  script.exec.delay_ms = cli.value("delay_ms", 0);
  script.exec.exec_error = cli.value("exec_error", false);
  script.exec.ignore_output_budget = cli.value("backend_ignores_output_budget", false);
  script.fail_acquire = cli.value("fail_acquire", false);
  script.fail_dispose = cli.value("fail_dispose", false);
  return "";
}

// What the CLI said must not come back in a message either.
void CollectCliText(const ordered_json& cli, const fakes::sandbox::CallScript& script,
                    std::vector<std::string>& inputs) {
  const ordered_json envelope = ordered_json::parse(script.exec.stdout_bytes, nullptr, false);
  if (envelope.is_discarded()) {
    CollectLines(script.exec.stdout_bytes, inputs);
  } else {
    CollectStrings(envelope, inputs);
  }
  if (!cli.value("output_limit_exceeded", false)) CollectLines(script.exec.stderr_bytes, inputs);
}

// One call: the case itself (`entry` is `c`) or one of its "then" calls; an error text when it
// cannot be resolved.
std::string ResolveCall(const ordered_json& c, const ordered_json& entry, const Place& at,
                        ResolvedCall& call) {
  if (entry.contains("arguments_text")) {
    call.arguments = entry["arguments_text"].get<std::string>();
    CollectQuotedRuns(call.arguments, call.inputs);
  } else if (entry.contains("arguments")) {
    call.arguments = entry["arguments"].dump();
    CollectStrings(entry["arguments"], call.inputs);
    CollectUnknownNames(entry["arguments"], call.inputs);
  } else {
    return at.Problem("the call has neither arguments nor arguments_text", "");
  }
  call.call_id = entry.value("call_id", "");
  call.plan_only = entry.value("plan_only", false);
  call.cli = CliOf(entry);
  if (std::string error = MakeScript(call.cli, MaxOutputBytes(c), at, call.script);
      !error.empty()) {
    return error;
  }
  CollectCliText(call.cli, call.script, call.inputs);
  call.expect = entry.value("expect", ordered_json::object());
  return "";
}

}  // namespace

namespace {

std::optional<ordered_json> ReadJson(const std::string& path) {
  const StatusOr<std::string> text = base::ReadFile(path);
  if (!text.ok()) return std::nullopt;
  ordered_json doc = ordered_json::parse(*text, nullptr, false);
  if (doc.is_discarded()) return std::nullopt;
  return doc;
}

// Schema problems by case index; those outside any case under index -1.
std::map<int64_t, std::vector<SchemaProblem>> ProblemsByCase(const ordered_json& schema,
                                                             const ordered_json& doc) {
  std::map<int64_t, std::vector<SchemaProblem>> by_case;
  for (SchemaProblem& p : ValidateAgainstSchema(schema, doc)) {
    const bool in_case = p.path.size() >= 2 && p.path[0] == "cases";
    by_case[in_case ? std::stoll(p.path[1]) : -1].push_back(std::move(p));
  }
  return by_case;
}

std::string SchemaDetail(const std::string& file, const std::string& id,
                         const std::vector<SchemaProblem>& problems) {
  std::string detail;
  for (const SchemaProblem& p : problems) {
    detail += file + ": case " + id + ": " + p.what + " at " + PathText(p.path) + "; ";
  }
  return detail;
}

// What a case says of itself, read even when it has a problem: its requirements, expected
// outcome and whether it states the reference's wording.
void ReadDescription(const ordered_json& c, ResolvedCase& r) {
  for (const auto& req : c.value("requirements", ordered_json::array())) {
    if (req.is_string()) r.requirements.push_back(req.get<std::string>());
  }
  const ordered_json& expect = c.value("expect", ordered_json::object());
  if (expect.is_object()) {
    if (expect.value("outcome", ordered_json()).is_string()) r.expected_outcome = expect["outcome"];
    if (expect.value("reason", ordered_json()).is_string()) r.expected_reason = expect["reason"];
    r.has_wording = StatesWording(expect);
  }
  for (const auto& entry : c.value("then", ordered_json::array())) {
    const ordered_json& then_expect = entry.value("expect", ordered_json::object());
    r.has_wording = r.has_wording || (then_expect.is_object() && StatesWording(then_expect));
  }
}

// What the case gives the implementation: every call's arguments and CLI result, and the host,
// backend, labels and middleware they share. A failure shows it, so a reader needs no case file.
ordered_json InputsOf(const ordered_json& c) {
  ordered_json inputs = ordered_json::object();
  const ordered_json& unchecked = c.value("unchecked_configuration", ordered_json::object());
  for (std::string_view part : host::kConfigurationParts) {
    const std::string key(part);
    if (c.contains(key)) inputs[key] = c[key];
    if (unchecked.contains(key)) inputs[key] = unchecked[key];
  }
  auto call = [](const ordered_json& entry) {
    ordered_json out = ordered_json::object();
    for (const char* key : {"arguments", "arguments_text", "call_id", "plan_only"}) {
      if (entry.contains(key)) out[key] = entry[key];
    }
    out["cli"] = CliOf(entry);
    return out;
  };
  inputs["calls"] = ordered_json::array({call(c)});
  for (const auto& entry : c.value("then", ordered_json::array())) inputs["calls"].push_back(call(entry));
  return inputs;
}

ordered_json ExpectedOf(const ordered_json& c) {
  ordered_json expected = ordered_json::array({c.value("expect", ordered_json::object())});
  for (const auto& entry : c.value("then", ordered_json::array())) {
    expected.push_back(entry.value("expect", ordered_json::object()));
  }
  if (!c.contains("across_calls")) return expected;
  return {{"calls", expected}, {"across_calls", c["across_calls"]}};
}

// The calls and the configuration they share; an error text when one cannot be resolved.
std::string ResolveCalls(const ordered_json& c, const std::string& path, ResolvedCase& r) {
  const std::pair<const char*, json::Value*> parts[] = {
      {"host", &r.host}, {"backend", &r.backend}, {"labels", &r.labels}};
  // A configuration an implementation must refuse is given outside the schema's checks.
  const ordered_json& unchecked = c.value("unchecked_configuration", ordered_json::object());
  for (const auto& [part, value] : parts) {
    if (c.contains(part)) *value = host::ConfigValueOf(c[part]);
    if (unchecked.contains(part)) *value = host::ConfigValueOf(unchecked[part]);
  }
  for (const auto& m : unchecked.value("middleware", c.value("middleware", ordered_json::array()))) {
    r.middleware.push_back(m.get<std::string>());
  }
  const ordered_json& then = c.value("then", ordered_json::array());
  for (size_t i = 0; i <= then.size(); ++i) {
    const Place at{r.file, r.id, i == 0 ? path : path + "/then/" + std::to_string(i - 1)};
    ResolvedCall& call = r.calls.emplace_back();
    if (std::string error = ResolveCall(c, i == 0 ? c : then[i - 1], at, call); !error.empty()) {
      return error;
    }
  }
  if (c.contains("across_calls")) r.across_calls = c["across_calls"];
  r.inputs = InputsOf(c);
  r.expected = ExpectedOf(c);
  return "";
}

ResolvedCase ResolveCase(const std::string& file, const ordered_json& c, size_t index,
                         const std::vector<SchemaProblem>& problems, LoadDepth depth) {
  const ordered_json& id = c.is_object() ? c.value("id", ordered_json()) : ordered_json();
  ResolvedCase r{.file = file,
                 .id = id.is_string() ? id.get<std::string>()
                                      : "(case " + std::to_string(index) + ")"};
  if (c.is_object()) ReadDescription(c, r);
  if (depth == LoadDepth::kDescription) return r;
  if (!problems.empty()) {
    r.problem = SchemaDetail(file, r.id, problems);
    return r;
  }
  // The schema has been checked, so a type mismatch here is a gap in the schema, not the case.
  try {
    r.problem = ResolveCalls(c, "/cases/" + std::to_string(index), r);
  } catch (const std::exception&) {
    r.problem = "case is valid by case.schema.json but cannot be run: the schema lacks a rule";
  }
  if (!r.problem.empty()) r.calls.clear();
  return r;
}

}  // namespace

CaseFile LoadCaseFile(const std::string& path, LoadDepth depth) {
  CaseFile file{.path = path};
  const std::optional<ordered_json> schema = ReadJson(kCaseSchema);
  if (!schema) {
    file.problem = std::string("cannot read ") + kCaseSchema + " as JSON";
    return file;
  }
  const std::optional<ordered_json> doc = ReadJson(path);
  if (!doc) {
    file.problem = path + ": cannot read the case file as JSON";
    return file;
  }
  std::map<int64_t, std::vector<SchemaProblem>> problems = ProblemsByCase(*schema, *doc);
  file.problem = SchemaDetail(path, "(file)", problems[-1]);
  if (!doc->is_object() || !doc->contains("cases") || !(*doc)["cases"].is_array()) {
    if (file.problem.empty()) file.problem = path + ": not a case file";
    return file;
  }
  const ordered_json& cases = (*doc)["cases"];
  for (size_t i = 0; i < cases.size(); ++i) {
    file.cases.push_back(
        ResolveCase(path, cases[i], i, problems[static_cast<int64_t>(i)], depth));
  }
  return file;
}

}  // namespace azure_pricing::conformance
