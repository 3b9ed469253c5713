#include "conformance/gate/record.h"

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "ref/base/files.h"

namespace azure_pricing::conformance {
namespace {

std::string XmlEscaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\n': out += "&#10;"; break;
      default:
        // XML 1.0 has no other control characters; drop them rather than write invalid XML.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t') out += c;
    }
  }
  return out;
}

Status Write(const std::string& path, const std::string& text) {
  if (!base::WriteFileAtomically(path, text).ok()) {
    return ProgramError(kReportWriteFailed, "the report file cannot be written");
  }
  return OkStatus();
}

bool FailsGate(const GateRecord& r) {
  return r.verdict == Verdict::kFailed && r.level == Level::kRequired;
}

std::string TestCase(const GateRecord& r) {
  char time[32];
  std::snprintf(time, sizeof time, "%.3f", r.seconds);
  std::string out = "    <testcase classname=\"" + XmlEscaped(r.suite) + "\" name=\"" +
                    XmlEscaped(r.id) + "\" time=\"" + time + "\">\n";
  out += "      <properties><property name=\"level\" value=\"" +
         std::string(LevelName(r.level)) + "\"/></properties>\n";
  const std::string message = XmlEscaped(r.detail);
  if (FailsGate(r)) {
    out += "      <failure message=\"" + message + "\"/>\n";
  } else if (r.verdict != Verdict::kPassed) {
    const std::string what = r.verdict == Verdict::kFailed ? "failed (RECOMMENDED)"
                                                           : std::string(VerdictName(r.verdict));
    out += "      <skipped message=\"" + what + ": " + message + "\"/>\n";
  }
  return out + "    </testcase>\n";
}

// A <testsuite>'s properties: who was judged and against which profile version on each (a CI
// view shows one suite at a time), and the backend's own verdict on the backend suite.
std::string SuiteProperties(const std::string& suite, const ReportHeader& header,
                            const std::vector<GateRecord>& records) {
  const auto property = [](const std::string& name, const std::string& value) {
    return "<property name=\"" + name + "\" value=\"" + XmlEscaped(value) + "\"/>";
  };
  // A run that judged no implementation (--suite catalog, a backend alone) names none.
  std::string out = "    <properties>";
  if (!header.implementation.empty()) out += property("implementation", header.implementation);
  if (!header.profile_version.empty()) {
    out += property("profile_version", header.profile_version);
  }
  const std::optional<BackendVerdict> backend = JudgeBackend(records);
  if (suite == kBackendSuite && backend) {
    out += property("backend_verdict", backend->conformant ? "CONFORMANT" : "NOT CONFORMANT");
  }
  return out + "</properties>\n";
}

// A record's JSON-text member as JSON, or as a string if it is not JSON.
nlohmann::ordered_json AsJson(const std::string& text) {
  nlohmann::ordered_json v = nlohmann::ordered_json::parse(text, nullptr, false);
  return v.is_discarded() ? nlohmann::ordered_json(text) : v;
}

Status Unreadable() {
  return ProgramError(kReportUnreadable, "the --json report cannot be read as the gate writes it");
}

std::optional<Verdict> VerdictNamed(std::string_view name) {
  for (const Verdict v : {Verdict::kPassed, Verdict::kFailed, Verdict::kKnown, Verdict::kSkipped,
                          Verdict::kNotApplicable}) {
    if (VerdictName(v) == name) return v;
  }
  return std::nullopt;
}

std::optional<Level> LevelNamed(std::string_view name) {
  for (const Level level : {Level::kRequired, Level::kRecommended}) {
    if (LevelName(level) == name) return level;
  }
  return std::nullopt;
}

// A JSON-valued member back to the text GateRecord keeps; empty when absent.
std::string JsonText(const nlohmann::ordered_json& record, const char* key) {
  const auto it = record.find(key);
  if (it == record.end()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

std::optional<GateRecord> RecordFromJson(const nlohmann::ordered_json& j) {
  if (!j.is_object()) return std::nullopt;
  GateRecord r;
  const std::optional<Verdict> verdict = VerdictNamed(j.value("result", ""));
  const std::optional<Level> level = LevelNamed(j.value("level", ""));
  if (!verdict || !level || !j.contains("suite") || !j.contains("id")) return std::nullopt;
  r.suite = j.at("suite").get<std::string>();
  r.id = j.at("id").get<std::string>();
  r.file = j.value("file", "");
  r.requirements = j.value("requirements", std::vector<std::string>{});
  r.verdict = *verdict;
  r.level = *level;
  r.expected = j.value("expected", "");
  r.actual = j.value("actual", "");
  r.detail = j.value("detail", "");
  r.seconds = j.value("seconds", 0.0);
  r.inputs = JsonText(j, "inputs");
  r.expected_value = JsonText(j, "expected_value");
  r.actual_value = JsonText(j, "actual_value");
  return r;
}

nlohmann::ordered_json RunFactsJson(const ReportHeader& h) {
  nlohmann::ordered_json seconds = nlohmann::ordered_json::object();
  for (const auto& [suite, s] : h.suite_seconds) seconds[suite] = s;
  return {{"gate_version", h.gate_version},
          {"date", h.date},
          {"command_line", h.command_line},
          {"backend", h.backend},
          {"suite_seconds", std::move(seconds)},
          {"wall_seconds", h.wall_seconds ? nlohmann::ordered_json(*h.wall_seconds)
                                          : nlohmann::ordered_json(nullptr)},
          {"coverage", h.coverage_line},
          {"verdict_lines", h.verdict_lines}};
}

// Throws nlohmann::json::exception on a member of another type than written.
void ReadRunFacts(const nlohmann::ordered_json& run, ReportHeader& h) {
  h.gate_version = run.value("gate_version", "");
  h.date = run.value("date", "");
  h.command_line = run.value("command_line", std::vector<std::string>{});
  h.backend = run.value("backend", "");
  if (const auto seconds = run.find("suite_seconds"); seconds != run.end()) {
    for (const auto& [suite, s] : seconds->items()) h.suite_seconds.emplace_back(suite, s.get<double>());
  }
  if (const auto wall = run.find("wall_seconds"); wall != run.end() && !wall->is_null()) {
    h.wall_seconds = wall->get<double>();
  }
  h.coverage_line = run.value("coverage", "");
  h.verdict_lines = run.value("verdict_lines", std::vector<std::string>{});
}

}  // namespace

std::string_view LevelName(Level level) {
  return level == Level::kRequired ? "REQUIRED" : "RECOMMENDED";
}

std::optional<BackendVerdict> JudgeBackend(const std::vector<GateRecord>& records) {
  BackendVerdict out;
  bool any = false;
  for (const GateRecord& r : records) {
    if (r.suite != kBackendSuite) continue;
    any = true;
    if (r.verdict == Verdict::kNotApplicable) {
      ++out.not_applicable;
      continue;
    }
    ++out.required;
    out.failed += r.verdict == Verdict::kPassed ? 0 : 1;
  }
  out.conformant = out.failed == 0;
  return any ? std::optional<BackendVerdict>(out) : std::nullopt;
}

std::string_view VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPassed:
      return "passed";
    case Verdict::kFailed:
      return "failed";
    case Verdict::kKnown:
      return "known";
    case Verdict::kSkipped:
      return "skipped";
    case Verdict::kNotApplicable:
      return "not_applicable";
  }
  return "failed";
}

Status WriteJsonReport(const std::string& path, const ReportHeader& header,
                       const std::vector<GateRecord>& records) {
  nlohmann::ordered_json doc = {{"implementation", header.implementation}};
  doc["profile_version"] = header.profile_version.empty()
                               ? nlohmann::ordered_json(nullptr)
                               : nlohmann::ordered_json(header.profile_version);
  doc["run"] = RunFactsJson(header);
  std::map<std::string, int> counts = {{"passed", 0}, {"failed", 0}, {"known", 0}, {"skipped", 0}};
  nlohmann::ordered_json by_level;
  for (const Level level : {Level::kRequired, Level::kRecommended}) {
    by_level[std::string(LevelName(level))] = {
        {"passed", 0}, {"failed", 0}, {"known", 0}, {"skipped", 0}, {"not_applicable", 0}};
  }
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const GateRecord& r : records) {
    const std::string verdict(VerdictName(r.verdict));
    ++counts[verdict];
    auto& tally = by_level[std::string(LevelName(r.level))][verdict];
    tally = tally.get<int>() + 1;
    nlohmann::ordered_json record = {{"suite", r.suite},
                                     {"id", r.id},
                                     {"file", r.file},
                                     {"requirements", r.requirements},
                                     {"level", LevelName(r.level)},
                                     {"result", verdict},
                                     {"expected", r.expected},
                                     {"actual", r.actual},
                                     {"detail", r.detail},
                                     {"seconds", r.seconds}};
    if (!r.inputs.empty()) record["inputs"] = AsJson(r.inputs);
    if (!r.expected_value.empty()) record["expected_value"] = AsJson(r.expected_value);
    if (!r.actual_value.empty()) record["actual_value"] = AsJson(r.actual_value);
    list.push_back(std::move(record));
  }
  doc["records"] = std::move(list);
  for (const char* key : {"passed", "failed", "known", "skipped", "not_applicable"}) {
    doc[key] = counts[key];
  }
  doc["by_level"] = std::move(by_level);
  if (const std::optional<BackendVerdict> backend = JudgeBackend(records)) {
    doc["backend_verdict"] = {{"verdict", backend->conformant ? "CONFORMANT" : "NOT CONFORMANT"},
                              {"required_probes", backend->required},
                              {"failed", backend->failed},
                              {"not_applicable", backend->not_applicable}};
  }
  return Write(path, doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

StatusOr<JsonReport> ReadJsonReport(const std::string& path) {
  const StatusOr<std::string> text = base::ReadFile(path);
  if (!text.ok()) return Unreadable();
  const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(*text, nullptr, false);
  if (!doc.is_object() || !doc.contains("records") || !doc["records"].is_array()) {
    return Unreadable();
  }
  JsonReport report;
  try {
    report.header.implementation = doc.value("implementation", "");
    // Reports written before the profile had a version have none.
    const auto version = doc.find("profile_version");
    if (version != doc.end() && !version->is_null()) {
      report.header.profile_version = version->get<std::string>();
    }
    if (const auto run = doc.find("run"); run != doc.end() && run->is_object()) {
      ReadRunFacts(*run, report.header);
    }
    for (const nlohmann::ordered_json& j : doc["records"]) {
      std::optional<GateRecord> record = RecordFromJson(j);
      if (!record) return Unreadable();
      report.records.push_back(std::move(*record));
    }
  } catch (const nlohmann::json::exception&) {  // a member of another type than written
    return Unreadable();
  }
  return report;
}

Status WriteJUnitReport(const std::string& path, const ReportHeader& header,
                        const std::vector<GateRecord>& records) {
  std::map<std::string, std::vector<const GateRecord*>> by_suite;
  for (const GateRecord& r : records) by_suite[r.suite].push_back(&r);
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  for (const auto& [suite, members] : by_suite) {
    int failures = 0, skipped = 0;
    for (const GateRecord* r : members) {
      failures += FailsGate(*r) ? 1 : 0;
      skipped += !FailsGate(*r) && r->verdict != Verdict::kPassed ? 1 : 0;
    }
    xml += "  <testsuite name=\"" + XmlEscaped(suite) + "\" tests=\"" +
           std::to_string(members.size()) + "\" failures=\"" + std::to_string(failures) +
           "\" skipped=\"" + std::to_string(skipped) + "\">\n";
    xml += SuiteProperties(suite, header, records);
    for (const GateRecord* r : members) xml += TestCase(*r);
    xml += "  </testsuite>\n";
  }
  return Write(path, xml + "</testsuites>\n");
}

}  // namespace azure_pricing::conformance
