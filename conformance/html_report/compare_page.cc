#include "conformance/html_report/compare_page.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "conformance/gate/report.h"
#include "conformance/html_report/html.h"
#include "conformance/html_report/marks.h"
#include "conformance/html_report/page_parts.h"

namespace azure_pricing::conformance::html_report {
namespace {

// One check of the matrix: its record in each run, or null where that run has none.
struct Row {
  std::string anchor;
  const GateRecord* first = nullptr;  // the first run's record that has it
  std::vector<const GateRecord*> by_run;
};

std::vector<Row> AlignChecks(const std::vector<NamedRun>& runs) {
  std::vector<Row> rows;
  std::map<std::string, size_t> index;
  for (size_t run = 0; run < runs.size(); ++run) {
    Anchors anchors;
    for (const GateRecord& r : runs[run].report.records) {
      const std::string anchor = anchors.For(r.suite, r.id);
      auto [it, added] = index.emplace(anchor, rows.size());
      if (added) rows.push_back({.anchor = anchor, .first = &r, .by_run = std::vector<const GateRecord*>(runs.size())});
      rows[it->second].by_run[run] = &r;
    }
  }
  return rows;
}

std::string ResultOf(const GateRecord* r) { return r == nullptr ? "absent" : std::string(VerdictName(r->verdict)); }

bool Differs(const Row& row) {
  for (const GateRecord* r : row.by_run) {
    if (ResultOf(r) != ResultOf(row.by_run.front())) return true;
  }
  return false;
}

std::string SuiteList(const std::vector<std::string>& suites) {
  std::string out;
  for (const std::string& s : suites) out += (out.empty() ? "" : ", ") + s;
  return out.empty() ? "no suite" : out;
}

// The run's column heading: its implementation, or its file when two runs share one.
std::vector<std::string> ColumnNames(const std::vector<NamedRun>& runs) {
  std::map<std::string, int> uses;
  for (const NamedRun& run : runs) ++uses[run.report.header.implementation];
  std::vector<std::string> names;
  for (const NamedRun& run : runs) {
    const std::string& impl = run.report.header.implementation;
    names.push_back(impl.empty() || uses[impl] > 1 ? run.name : impl);
  }
  return names;
}

std::string RunsTable(const std::vector<NamedRun>& runs) {
  std::string out =
      "<table id=\"runs\">\n<colgroup><col style=\"width:4%\"><col style=\"width:24%\">"
      "<col style=\"width:24%\"><col style=\"width:14%\"><col></colgroup>\n<tr><th>#</th>"
      "<th>run</th><th>backend</th><th>versions, date</th><th>verdict</th></tr>\n";
  for (size_t i = 0; i < runs.size(); ++i) {
    const ReportHeader& h = runs[i].report.header;
    std::string verdict;
    for (const std::string& line : VerdictLines(runs[i].report)) verdict += Escape(line) + "<br>";
    const std::string& impl = h.implementation.empty() ? "implementation not recorded" : h.implementation;
    out += "<tr><td>" + std::to_string(i + 1) + "</td><td><strong>" + Escape(impl) +
           "</strong><br><span class=\"muted\">" + Escape(runs[i].name) + "</span></td><td>" +
           Escape(h.backend.empty() ? "none" : h.backend) + "</td><td>gate " +
           Escape(h.gate_version.empty() ? "?" : h.gate_version) + "<br>profile " +
           Escape(h.profile_version.empty() ? "?" : h.profile_version) + "<br>" + Escape(h.date) +
           "</td><td>" + verdict + "</td></tr>\n";
  }
  return out + "</table>\n";
}

std::string ResultCell(const GateRecord* r) {
  const std::string result = ResultOf(r);
  std::string title;
  if (r != nullptr && r->verdict != Verdict::kPassed) {
    title = " title=\"" + Escape((r->actual.empty() ? r->detail : "got " + r->actual)) + "\"";
  }
  return "<td class=\"result r-" + result + "\" data-result=\"" + result + "\"" + title + ">" +
         (r == nullptr ? "absent" : Escape(ResultLabel(r->verdict, r->level))) + "</td>";
}

// What each run did where the runs differ or one failed: Bowtie's drill-down.
std::string DrillDown(const Row& row, const std::vector<std::string>& names) {
  std::string out = "<details><summary>details</summary><p>expected " +
                    Value("expected", row.first->expected, 120) + "</p><ul>";
  for (size_t i = 0; i < row.by_run.size(); ++i) {
    const GateRecord* r = row.by_run[i];
    out += "<li>" + Escape(names[i]) + ": " +
           (r == nullptr ? std::string("not run")
                         : Value("actual", r->actual.empty() ? r->detail : r->actual, 120)) +
           "</li>";
  }
  return out + "</ul></details>";
}

std::string MatrixRow(const Row& row, const std::vector<std::string>& names) {
  const GateRecord& r = *row.first;
  const bool differs = Differs(row);
  const bool any_failed = std::any_of(row.by_run.begin(), row.by_run.end(), [](const GateRecord* g) {
    return g == nullptr || g->verdict != Verdict::kPassed;
  });
  std::string out = "<tr class=\"check\" id=\"" + Escape(row.anchor) + "\" data-suite=\"" +
                    Escape(r.suite) + "\" data-level=\"" + std::string(LevelName(r.level)) +
                    "\" data-differs=\"" + (differs ? "true" : "false") + "\"><td><a href=\"#" +
                    Escape(row.anchor) + "\">" + Escape(r.id) + "</a> <span class=\"muted\">" +
                    std::string(LevelName(r.level)) + "</span>" +
                    (differs || any_failed ? DrillDown(row, names) : "") + "</td>";
  for (const GateRecord* g : row.by_run) out += ResultCell(g);
  return out + "</tr>\n";
}

std::string HeadingCells(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    out += "<th>" + std::to_string(i + 1) + ". " + Escape(names[i]) + "</th>";
  }
  return out;
}

std::string Matrix(const std::vector<Row>& rows, const std::vector<std::string>& names) {
  std::vector<std::string> suites;
  for (const Row& row : rows) {
    if (std::find(suites.begin(), suites.end(), row.first->suite) == suites.end()) {
      suites.push_back(row.first->suite);
    }
  }
  std::string out = "<section id=\"checks\">\n<h2>Checks by run</h2>\n";
  for (const std::string& suite : suites) {
    out += "<section class=\"checks-of-suite\" id=\"suite-" + Escape(suite) + "\">\n<h3>" +
           Escape(suite) + "</h3>\n<table class=\"matrix\">\n<colgroup><col style=\"width:40%\">"
           "</colgroup>\n<tr><th>check</th>" + HeadingCells(names) + "</tr>\n";
    for (const Row& row : rows) {
      if (row.first->suite == suite) out += MatrixRow(row, names);
    }
    out += "</table>\n</section>\n";
  }
  return out + "</section>\n";
}

std::string TotalCell(const RequirementMarks& marks, const std::vector<GateRecord>& records,
                      const std::string& id) {
  int passed = 0, total = 0;
  if (const auto it = marks.checks_by_id.find(id); it != marks.checks_by_id.end()) {
    for (const size_t i : it->second) {
      ++total;
      passed += records[i].verdict == Verdict::kPassed ? 1 : 0;
    }
  }
  const Mark mark = marks.Of(id);
  return "<td class=\"n m-" + std::string(MarkName(mark)) + "\" data-status=\"" +
         std::string(MarkName(mark)) + "\">" +
         (total == 0 ? std::string("&ndash;") : std::to_string(passed) + "/" + std::to_string(total)) +
         "</td>";
}

std::string RequirementTotals(const std::vector<NamedRun>& runs, const Catalog* catalog,
                              const std::vector<std::string>& names) {
  std::vector<RequirementMarks> marks;
  std::vector<std::string> ids;
  std::set<std::string> listed;
  for (const Requirement& r : catalog ? catalog->requirements : std::vector<Requirement>{}) {
    if (listed.insert(r.id).second) ids.push_back(r.id);
  }
  for (const NamedRun& run : runs) {
    marks.push_back(MarkRequirements(run.report.records));
    for (const auto& [id, checks] : marks.back().checks_by_id) {
      if (listed.insert(id).second) ids.push_back(id);
    }
  }
  std::string rows;
  for (const std::string& id : ids) {
    std::string cells;
    bool differs = false;
    for (size_t i = 0; i < runs.size(); ++i) {
      cells += TotalCell(marks[i], runs[i].report.records, id);
      differs = differs || marks[i].Of(id) != marks[0].Of(id);
    }
    rows += "<tr class=\"req-total\" id=\"" + Escape(RequirementAnchor(id)) + "\" data-differs=\"" +
            (differs ? "true" : "false") + "\"><td>" + Escape(id) + "</td>" + cells + "</tr>\n";
  }
  return "<section id=\"requirements\">\n<h2>Requirements: checks passed per run</h2>\n"
         "<table class=\"totals\">\n<colgroup><col style=\"width:20%\"></colgroup>\n<tr><th>requirement</th>" +
         HeadingCells(names) + "</tr>\n" + rows + "</table>\n</section>\n";
}

}  // namespace

std::string SuiteMismatch(const std::vector<NamedRun>& runs) {
  std::vector<std::vector<std::string>> suites;
  for (const NamedRun& run : runs) {
    std::vector<std::string> s = SuitesOf(run.report.records);
    std::sort(s.begin(), s.end());
    suites.push_back(std::move(s));
  }
  if (std::all_of(suites.begin(), suites.end(), [&](const auto& s) { return s == suites.front(); })) {
    return "";
  }
  std::string out;
  for (size_t i = 0; i < runs.size(); ++i) {
    out += (i == 0 ? "" : "; ") + runs[i].name + " ran " + SuiteList(suites[i]);
  }
  return out;
}

std::vector<std::string> VersionWarnings(const std::vector<NamedRun>& runs) {
  std::vector<std::string> warnings;
  for (const auto member : {&ReportHeader::gate_version, &ReportHeader::profile_version}) {
    const std::string what = member == &ReportHeader::gate_version ? "gate" : "profile";
    std::string seen;
    bool differ = false;
    for (const NamedRun& run : runs) {
      const std::string& v = run.report.header.*member;
      seen += (seen.empty() ? "" : ", ") + run.name + " " + (v.empty() ? "unrecorded" : v);
      differ = differ || v != runs.front().report.header.*member;
    }
    if (differ) {
      warnings.push_back("the runs were made by different " + what + " versions (" + seen +
                         "); their checks are lined up by suite/id");
    }
  }
  return warnings;
}

StatusOr<std::string> ComparePage(const std::vector<NamedRun>& runs, const Catalog* catalog) {
  if (!SuiteMismatch(runs).empty()) {
    return ProgramError(kRunsOfDifferentSuites, "the runs ran different suites");
  }
  const std::vector<std::string> names = ColumnNames(runs);
  const std::vector<Row> rows = AlignChecks(runs);
  std::string warnings;
  for (const std::string& w : VersionWarnings(runs)) warnings += "<li>" + Escape(w) + "</li>";
  const size_t differing = static_cast<size_t>(std::count_if(rows.begin(), rows.end(), Differs));
  std::vector<std::string> suites = runs.empty() ? std::vector<std::string>{} : SuitesOf(runs.front().report.records);
  return PageStart("compare", "gate runs side by side") +
         "<header>\n<h1>Gate runs side by side</h1>\n" + RunsTable(runs) +
         (warnings.empty() ? "" : "<ul class=\"warnings\">" + warnings + "</ul>\n") +
         "<p id=\"differing\">" + std::to_string(differing) + " of " + std::to_string(rows.size()) +
         " checks differ between the runs.</p>\n</header>\n" + FilterBar(suites, true) +
         "<nav class=\"toc\" aria-label=\"contents\"><a href=\"#checks\">checks by run</a>"
         "<a href=\"#requirements\">requirements</a></nav>\n" +
         Matrix(rows, names) + RequirementTotals(runs, catalog, names) + PageEnd();
}

}  // namespace azure_pricing::conformance::html_report
