#include "conformance/html_report/run_page.h"

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "conformance/gate/report.h"
#include "conformance/html_report/html.h"
#include "conformance/html_report/marks.h"
#include "conformance/html_report/page_parts.h"
#include "conformance/html_report/spec_text.h"
#include "conformance/judge/json_diff.h"
#include "ref/base/files.h"
#include "ref/base/runfiles.h"

namespace azure_pricing::conformance::html_report {
namespace {

// What every section reads: the report, its marks and each record's anchor.
struct PageData {
  const JsonReport& report;
  const Catalog* catalog;
  RequirementMarks marks;
  std::vector<std::string> anchors;  // per record
};

std::string RequirementLinks(const std::vector<std::string>& ids) {
  std::string out;
  for (const std::string& id : ids) {
    out += "<a href=\"#" + Escape(RequirementAnchor(id)) + "\">" + Escape(id) + "</a> ";
  }
  return out;
}

std::string CheckAttributes(const GateRecord& r, const std::string& anchor) {
  return "class=\"check\" id=\"" + Escape(anchor) + "\" data-suite=\"" + Escape(r.suite) +
         "\" data-level=\"" + std::string(LevelName(r.level)) + "\" data-result=\"" +
         std::string(VerdictName(r.verdict)) + "\"";
}

std::string ResultCell(const GateRecord& r) {
  return "<td class=\"result r-" + std::string(VerdictName(r.verdict)) + "\">" +
         Escape(ResultLabel(r.verdict, r.level)) + "</td>";
}

bool IsFailure(const GateRecord& r) {
  return r.verdict == Verdict::kFailed || r.verdict == Verdict::kKnown ||
         r.verdict == Verdict::kSkipped;
}

std::string Header(const PageData& d) {
  const std::vector<std::string> lines = VerdictLines(d.report);
  const bool pass = CountGateFailures(d.report.records) == 0;
  std::string verdict;
  for (const std::string& line : lines) verdict += Escape(line) + "\n";
  return "<header>\n<h1>Conformance gate report: " + Escape(d.report.header.implementation) +
         "</h1>\n<pre id=\"verdict\" class=\"" + (pass ? "pass" : "fail") + "\">" + verdict +
         "</pre>\n" + RunFacts(d.report) + "</header>\n";
}

std::string Contents() {
  return "<nav class=\"toc\" aria-label=\"contents\"><a href=\"#summary-section\">summary</a>"
         "<a href=\"#spec\">specification</a><a href=\"#profile\">profile rules</a>"
         "<a href=\"#failures\">failures</a><a href=\"#backend\">backend</a>"
         "<a href=\"#checks\">all checks</a><a href=\"#requirements\">requirements</a></nav>\n";
}

std::string TallyCells(const LevelTally& t) {
  return "<td class=\"n\">" + std::to_string(t.passed) + "</td><td class=\"n\">" +
         std::to_string(t.failed) + "</td><td class=\"n\">" + std::to_string(t.known) + "</td>";
}

std::string SummaryRow(const std::string& name, const SuiteSummary& s, const std::string& cls) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f s", s.seconds);
  return "<tr" + cls + "><td>" + name + "</td>" + TallyCells(s.required) +
         TallyCells(s.recommended) + "<td class=\"n\">" + std::to_string(s.skipped) +
         "</td><td class=\"n\">" + seconds + "</td></tr>\n";
}

std::string Summary(const PageData& d) {
  const ReportHeader& h = d.report.header;
  const std::map<std::string, double> seconds(h.suite_seconds.begin(), h.suite_seconds.end());
  std::string rows;
  SuiteSummary total{.suite = "total"};
  for (const SuiteSummary& s : Summarize(d.report.records, seconds)) {
    rows += SummaryRow("<a href=\"#" + Escape(s.suite == kBackendSuite ? "backend" : "suite-" + s.suite) +
                           "\">" + Escape(s.suite) + "</a>",
                       s, "");
    for (auto [from, to] : {std::pair{&s.required, &total.required},
                            std::pair{&s.recommended, &total.recommended}}) {
      to->passed += from->passed, to->failed += from->failed, to->known += from->known;
    }
    total.skipped += s.skipped;
    total.seconds += s.seconds;
  }
  if (h.wall_seconds) total.seconds = *h.wall_seconds;
  rows += SummaryRow("total", total, " class=\"total\"");
  return "<section id=\"summary-section\">\n<h2>Summary</h2>\n<table id=\"summary\">\n"
         "<colgroup><col style=\"width:16%\"><col span=\"7\"><col style=\"width:11%\"></colgroup>\n"
         "<tr><th></th><th colspan=\"3\">REQUIRED</th><th colspan=\"3\">RECOMMENDED</th>"
         "<th></th><th></th></tr>\n<tr><th>suite</th><th class=\"n\">passed</th>"
         "<th class=\"n\">failed</th><th class=\"n\">known</th><th class=\"n\">passed</th>"
         "<th class=\"n\">not met</th><th class=\"n\">known</th><th class=\"n\">skipped</th>"
         "<th class=\"n\">time</th></tr>\n" +
         rows + "</table>\n" +
         (h.coverage_line.empty() ? "" : "<p class=\"coverage\">" + Escape(h.coverage_line) + "</p>\n") +
         "</section>\n";
}

std::string Legend(const PageData& d, const std::vector<std::string>& ids) {
  std::map<Mark, int> counts;
  for (const std::string& id : ids) ++counts[d.marks.Of(id)];
  std::string out = "<p class=\"legend\">";
  for (const Mark m : {Mark::kPassed, Mark::kFailed, Mark::kKnown, Mark::kNotMet, Mark::kNotCovered}) {
    out += "<span class=\"badge key\" data-status=\"" + std::string(MarkName(m)) + "\">" +
           Escape(MarkLabel(m)) + ": " + std::to_string(counts[m]) + "</span>";
  }
  return out + "</p>\n";
}

std::string SpecBlock(const PageData& d, const Block& block) {
  std::string out = block.heading ? "<h3>" : "<p>";
  for (const Span& run : block.spans) {
    if (run.ids.empty()) {
      out += Escape(run.text);
      continue;
    }
    std::string ids;
    for (const std::string& id : run.ids) ids += (ids.empty() ? "" : " ") + id;
    const Mark mark = d.marks.Worst(run.ids);
    out += "<span class=\"req\" data-status=\"" + std::string(MarkName(mark)) + "\" data-ids=\"" +
           Escape(ids) + "\" title=\"" + Escape(ids + ": " + std::string(MarkLabel(mark))) +
           "\">" + Escape(run.text) + "</span>";
  }
  return out + (block.heading ? "</h3>\n" : "</p>\n");
}

std::string Spec(const PageData& d, std::string_view spec_text) {
  std::string out = "<section id=\"spec\" class=\"spec\">\n<h2>The specification, annotated</h2>\n";
  if (d.catalog == nullptr || spec_text.empty()) {
    return out + "<p class=\"muted\">The requirement catalog or the specification could not be "
                 "read, so the specification cannot be annotated.</p>\n</section>\n";
  }
  std::vector<Quote> quotes;
  std::vector<std::string> ids;
  for (const Requirement& r : d.catalog->requirements) {
    if (r.source == "spec" && r.quote) {
      quotes.push_back({.id = r.id, .text = *r.quote});
      ids.push_back(r.id);
    }
  }
  const AnnotatedSpec spec = AnnotateSpec(spec_text, quotes);
  out += "<p class=\"muted\">Each passage a requirement quotes is marked with the results of the "
         "checks citing it; click one to list them.</p>\n" + Legend(d, ids);
  for (const Block& block : spec.blocks) out += SpecBlock(d, block);
  if (!spec.unplaced.empty()) {
    out += "<p class=\"muted\">Quotes the text does not hold: " + RequirementLinks(spec.unplaced) + "</p>\n";
  }
  return out + "</section>\n";
}

std::string ProfileRules(const PageData& d) {
  std::string out = "<section id=\"profile\">\n<h2>The profile's rules</h2>\n";
  if (d.catalog == nullptr) return out + "<p class=\"muted\">The catalog could not be read.</p>\n</section>\n";
  std::vector<std::string> ids;
  std::string items;
  for (const Requirement& r : d.catalog->requirements) {
    if (r.source != "profile") continue;
    ids.push_back(r.id);
    const Mark mark = d.marks.Of(r.id);
    items += "<li class=\"req profile\" data-status=\"" + std::string(MarkName(mark)) +
             "\" data-ids=\"" + Escape(r.id) + "\"><strong>" + Escape(r.id) +
             "</strong> <span class=\"m-" + std::string(MarkName(mark)) + "\">" +
             Escape(MarkLabel(mark)) + "</span> " + Escape(r.text) + "</li>\n";
  }
  return out + "<p class=\"muted\">docs/profile.md's rules and the project's, with the same marks.</p>\n" +
         Legend(d, ids) + "<ul class=\"rules\">\n" + items + "</ul>\n</section>\n";
}


// Where the whole actual value departs from the whole expected one, by JSON path.
std::string Differences(const GateRecord& r) {
  if (r.expected_value.empty() || r.actual_value.empty()) return "";
  const auto expected = nlohmann::ordered_json::parse(r.expected_value, nullptr, false);
  const auto actual = nlohmann::ordered_json::parse(r.actual_value, nullptr, false);
  if (expected.is_discarded() || actual.is_discarded()) return "";
  std::string out;
  for (const std::string& difference : judge::JsonDifferences(actual, expected, 10)) {
    out += "<li><code class=\"value\">" + Escape(difference) + "</code></li>";
  }
  return out.empty() ? "" : "<p>differs at:</p><ul class=\"differences\">" + out + "</ul>\n";
}

std::string Failure(const GateRecord& r, const std::string& anchor) {
  std::string out = "<article class=\"failure\" data-suite=\"" + Escape(r.suite) +
                    "\" data-level=\"" + std::string(LevelName(r.level)) + "\" data-result=\"" +
                    std::string(VerdictName(r.verdict)) + "\">\n<h3><a href=\"#" + Escape(anchor) +
                    "\">" + Escape(anchor) + "</a> <span class=\"r-" +
                    std::string(VerdictName(r.verdict)) + "\">" +
                    Escape(ResultLabel(r.verdict, r.level)) + "</span> <span class=\"muted\">" +
                    std::string(LevelName(r.level)) + "</span></h3>\n";
  if (!r.requirements.empty()) out += "<p>cites " + RequirementLinks(r.requirements) + "</p>\n";
  if (!r.file.empty()) out += "<p class=\"muted\">case file " + Escape(r.file) + "</p>\n";
  out += "<p>expected " + Value("expected", r.expected) + "; actual " +
         (r.actual.empty() ? "<span class=\"muted\">unknown</span>" : Value("actual", r.actual)) +
         "</p>\n";
  if (!r.detail.empty()) out += "<p>" + Value("detail", r.detail, 400) + "</p>\n";
  out += Differences(r);
  for (const auto& [label, value] : {std::pair{"inputs", &r.inputs},
                                     std::pair{"expected value", &r.expected_value},
                                     std::pair{"actual value", &r.actual_value}}) {
    if (!value->empty()) out += Value(label, PrettyJson(*value), 0);
  }
  return out + "</article>\n";
}

std::string Failures(const PageData& d) {
  std::string out = "<section id=\"failures\">\n<h2>Failures</h2>\n";
  int count = 0;
  for (size_t i = 0; i < d.report.records.size(); ++i) {
    if (!IsFailure(d.report.records[i])) continue;
    out += Failure(d.report.records[i], d.anchors[i]);
    ++count;
  }
  if (count == 0) out += "<p>None: every check passed.</p>\n";
  return out + "</section>\n";
}

std::string ProbeRow(const GateRecord& r, const std::string& anchor) {
  std::string observed = r.actual.empty() ? r.detail : r.actual;
  if (IsFailure(r) && !r.expected.empty()) observed = "expected " + r.expected + "; got " + observed;
  return "<tr " + CheckAttributes(r, anchor) + "><td><a href=\"#" + Escape(anchor) + "\">" +
         Escape(r.id) + "</a></td><td>" + Escape(r.expected) + "</td>" + ResultCell(r) + "<td>" +
         Value("observed", observed, 240) + "</td></tr>\n";
}

std::string Backend(const PageData& d) {
  std::string out = "<section id=\"backend\">\n<h2>Backend</h2>\n";
  std::string rows;
  for (size_t i = 0; i < d.report.records.size(); ++i) {
    if (d.report.records[i].suite == kBackendSuite) rows += ProbeRow(d.report.records[i], d.anchors[i]);
  }
  if (rows.empty()) return out + "<p class=\"muted\">The backend suite did not run.</p>\n</section>\n";
  for (const std::string& line : VerdictLines(d.report)) {
    if (line.rfind("backend: ", 0) == 0) out += "<p><strong>" + Escape(line) + "</strong></p>\n";
  }
  if (!d.report.header.backend.empty()) out += "<p>judged: " + Escape(d.report.header.backend) + "</p>\n";
  return out + "<table class=\"probes\">\n<colgroup><col style=\"width:24%\"><col style=\"width:33%\">"
               "<col style=\"width:10%\"><col></colgroup>\n<tr><th>probe</th><th>asserts</th>"
               "<th>result</th><th>observed</th></tr>\n" +
         rows + "</table>\n</section>\n";
}

std::string CheckRow(const GateRecord& r, const std::string& anchor) {
  std::string actual = Value("actual", r.actual, 120);
  if (!r.detail.empty()) actual += "<br>" + Value("detail", r.detail, 120);
  return "<tr " + CheckAttributes(r, anchor) + "><td><a href=\"#" + Escape(anchor) + "\">" +
         Escape(r.id) + "</a></td><td>" + std::string(LevelName(r.level)) + "</td>" +
         ResultCell(r) + "<td>" + RequirementLinks(r.requirements) + "</td><td>" +
         Value("expected", r.expected, 120) + "</td><td>" + actual + "</td></tr>\n";
}

std::string Checks(const PageData& d) {
  std::string out = "<section id=\"checks\">\n<h2>All checks</h2>\n";
  for (const std::string& suite : SuitesOf(d.report.records)) {
    if (suite == kBackendSuite) continue;  // its probes are the backend section's rows
    out += "<section class=\"checks-of-suite\" id=\"suite-" + Escape(suite) + "\">\n<h3>" +
           Escape(suite) + "</h3>\n<table>\n<colgroup><col style=\"width:27%\">"
           "<col style=\"width:10%\"><col style=\"width:9%\"><col style=\"width:16%\">"
           "<col style=\"width:16%\"><col></colgroup>\n<tr><th>check</th><th>level</th>"
           "<th>result</th><th>cites</th><th>expected</th><th>actual</th></tr>\n";
    for (size_t i = 0; i < d.report.records.size(); ++i) {
      if (d.report.records[i].suite == suite) out += CheckRow(d.report.records[i], d.anchors[i]);
    }
    out += "</table>\n</section>\n";
  }
  return out + "</section>\n";
}

std::string RequirementEntry(const PageData& d, const std::string& id, const Requirement* r) {
  const Mark mark = d.marks.Of(id);
  std::string checks;
  int passed = 0, total = 0;
  if (const auto it = d.marks.checks_by_id.find(id); it != d.marks.checks_by_id.end()) {
    for (const size_t i : it->second) {
      const GateRecord& c = d.report.records[i];
      ++total;
      passed += c.verdict == Verdict::kPassed ? 1 : 0;
      checks += "<li><a href=\"#" + Escape(d.anchors[i]) + "\">" + Escape(d.anchors[i]) +
                "</a> <span class=\"r-" + std::string(VerdictName(c.verdict)) + "\">" +
                Escape(ResultLabel(c.verdict, c.level)) + "</span></li>";
    }
  }
  std::string out = "<div class=\"req-entry\" id=\"" + Escape(RequirementAnchor(id)) +
                    "\"><strong>" + Escape(id) + "</strong> " +
                    (r == nullptr ? "" : "<span class=\"muted\">" + Escape(r->level) + "</span> ") +
                    "<span class=\"m-" + std::string(MarkName(mark)) + "\">" +
                    Escape(MarkLabel(mark)) + "</span> " + (r == nullptr ? "" : Escape(r->text));
  if (total > 0) {
    out += "<details><summary>" + std::to_string(total) + " checks, " + std::to_string(passed) +
           " passed</summary><ul class=\"checks\">" + checks + "</ul></details>";
  }
  return out + "</div>\n";
}

std::string Requirements(const PageData& d) {
  std::string out = "<section id=\"requirements\">\n<h2>Requirements and their checks</h2>\n";
  std::set<std::string> listed;
  for (const Requirement& r : d.catalog ? d.catalog->requirements : std::vector<Requirement>{}) {
    out += RequirementEntry(d, r.id, &r);
    listed.insert(r.id);
  }
  for (const auto& [id, checks] : d.marks.checks_by_id) {
    if (listed.insert(id).second) out += RequirementEntry(d, id, nullptr);  // not in the catalog
  }
  return out + "</section>\n";
}

}  // namespace

std::string RunPage(const JsonReport& report, const Catalog* catalog, std::string_view spec_text) {
  PageData d{.report = report, .catalog = catalog, .marks = MarkRequirements(report.records), .anchors = {}};
  Anchors anchors;
  for (const GateRecord& r : report.records) d.anchors.push_back(anchors.For(r.suite, r.id));
  const std::vector<std::string> lines = VerdictLines(report);
  const std::string title = lines.size() >= 2 ? lines[lines.size() - 2] : "gate report";
  return PageStart("run", title + ": " + report.header.implementation) + Header(d) +
         FilterBar(SuitesOf(report.records), false) + Contents() + Summary(d) +
         Spec(d, spec_text) + ProfileRules(d) + Failures(d) + Backend(d) + Checks(d) +
         Requirements(d) + PageEnd();
}

Status WriteRunPage(const std::string& path, const JsonReport& report, const Catalog* catalog) {
  const StatusOr<std::string> spec = base::ReadFile(base::Runfile(kSpecPath));
  const std::string page = RunPage(report, catalog, spec.ok() ? *spec : "");
  if (!base::WriteFileAtomically(path, page).ok()) {
    return ProgramError(kPageWriteFailed, "the page cannot be written");
  }
  return OkStatus();
}

}  // namespace azure_pricing::conformance::html_report
