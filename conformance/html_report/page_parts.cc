#include "conformance/html_report/page_parts.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "conformance/gate/report.h"
#include "conformance/html_report/html.h"
#include "conformance/html_report/page_assets.h"

namespace azure_pricing::conformance::html_report {
namespace {

std::string ShellQuoted(const std::string& arg) {
  if (!arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789-_./=:,@%+") == std::string::npos) {
    return arg;
  }
  std::string out = "'";
  for (const char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string Fact(std::string_view name, const std::string& value) {
  return "<dt>" + Escape(name) + "</dt><dd>" +
         (value.empty() ? "<span class=\"muted\">not recorded</span>" : Escape(value)) +
         "</dd>\n";
}

}  // namespace

std::string PageStart(std::string_view kind, std::string_view title) {
  return "<!DOCTYPE html>\n<html lang=\"en\" data-page=\"" + Escape(kind) +
         "\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
         Escape(title) + "</title>\n<style>" + kPageStyle + "</style>\n</head>\n<body>\n";
}

std::string PageEnd() { return std::string("<script>") + kPageScript + "</script>\n</body>\n</html>\n"; }

std::string FilterBar(const std::vector<std::string>& suites, bool with_differs) {
  std::string out =
      "<nav class=\"filters\" aria-label=\"filters\">\n"
      "<label><input type=\"checkbox\" id=\"f-failed\"> failed only</label>\n";
  if (with_differs) {
    out += "<label><input type=\"checkbox\" id=\"f-differs\"> differs only</label>\n";
  }
  out += "<label>suite <select id=\"f-suite\"><option value=\"\">all</option>";
  for (const std::string& suite : suites) {
    out += "<option value=\"" + Escape(suite) + "\">" + Escape(suite) + "</option>";
  }
  out +=
      "</select></label>\n<label>level <select id=\"f-level\"><option value=\"\">all</option>"
      "<option>REQUIRED</option><option>RECOMMENDED</option></select></label>\n"
      "<span id=\"f-count\" class=\"muted\"></span>\n</nav>\n";
  return out;
}

std::vector<std::string> VerdictLines(const JsonReport& report) {
  if (!report.header.verdict_lines.empty()) return report.header.verdict_lines;
  int passed = 0;
  for (const GateRecord& r : report.records) {
    passed += r.level == Level::kRequired && r.verdict == Verdict::kPassed ? 1 : 0;
  }
  const int failures = CountGateFailures(report.records);
  std::vector<std::string> lines;
  if (const std::optional<BackendVerdict> backend = JudgeBackend(report.records)) {
    lines.push_back(std::string("backend: ") +
                    (backend->conformant ? "CONFORMANT" : "NOT CONFORMANT") + " (" +
                    std::to_string(backend->required) + " required probes)");
  }
  lines.push_back(std::string("gate: ") + (failures == 0 ? "PASS" : "FAIL"));
  lines.push_back(std::to_string(passed) + " passed, " + std::to_string(failures) + " failed");
  return lines;
}

std::string CommandLine(const std::vector<std::string>& args) {
  std::string out = "gate";
  for (const std::string& arg : args) out += " " + ShellQuoted(arg);
  return out;
}

std::string RunFacts(const JsonReport& report) {
  const ReportHeader& header = report.header;
  std::string backend = header.backend;
  if (backend.empty() && !JudgeBackend(report.records)) backend = "none: the backend suite did not run";
  return "<dl class=\"facts\">\n" + Fact("implementation", header.implementation) +
         Fact("backend", backend) + Fact("gate version", header.gate_version) +
         Fact("profile version", header.profile_version) + Fact("date", header.date) +
         Fact("command line", header.date.empty() && header.command_line.empty()
                                  ? ""
                                  : CommandLine(header.command_line)) +
         "</dl>\n";
}

std::string ResultLabel(Verdict verdict, Level level) {
  switch (verdict) {
    case Verdict::kPassed:
      return "passed";
    case Verdict::kFailed:
      return level == Level::kRequired ? "FAILED" : "not met";
    case Verdict::kKnown:
      return "known failure";
    case Verdict::kSkipped:
      return "SKIPPED";
    case Verdict::kNotApplicable:
      return "not applicable";
  }
  return "FAILED";
}

std::string Anchors::For(std::string_view suite, std::string_view id) {
  const std::string anchor = CheckAnchor(suite, id);
  const int n = ++seen_[anchor];
  return n == 1 ? anchor : anchor + "~" + std::to_string(n);
}

std::vector<std::string> SuitesOf(const std::vector<GateRecord>& records) {
  std::vector<std::string> suites;
  for (const GateRecord& r : records) {
    if (std::find(suites.begin(), suites.end(), r.suite) == suites.end()) suites.push_back(r.suite);
  }
  return suites;
}

}  // namespace azure_pricing::conformance::html_report
