// The gate's --json reports as pages to read: one run, annotated (the page `gate --html` writes),
// or several side by side. `tools/bazel run //tools:gate_report -- --help`.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "conformance/catalog/catalog.h"
#include "conformance/gate/record.h"
#include "conformance/html_report/compare_page.h"
#include "conformance/html_report/run_page.h"
#include "ref/base/files.h"
#include "ref/base/main_guard.h"
#include "ref/base/paths.h"
#include "ref/base/runfiles.h"

namespace azure_pricing::conformance {
namespace {

constexpr char kUsage[] =
    "usage: gate_report RUN.json -o PAGE.html\n"
    "       gate_report --compare RUN.json RUN.json [RUN.json ...] -o PAGE.html\n"
    "Renders the gate's --json reports as one self-contained HTML page (no network): a run\n"
    "with the specification annotated by its results (what `gate --html` writes), or several\n"
    "runs as a matrix of checks by run, with per-requirement totals and a \"differs\" filter.\n"
    "Runs must have run the same suites; runs of different gate or profile versions are lined\n"
    "up by suite/id with a warning. The page is written whole or not at all.\n"
    "Exits 0 when the page is written, 1 when a report is not one the gate wrote or the runs\n"
    "ran different suites, 64 on a usage error (a missing input, an unwritable output).\n";

struct Options {
  bool help = false;
  bool compare = false;
  std::vector<std::string> inputs;  // as given
  std::string output;               // as given
};

// `problem` names what does not read; the options are meaningful only when it stays empty.
Options ParseOptions(int argc, char** argv, std::string& problem) {
  Options o;
  for (int i = 1; i < argc && problem.empty(); ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      o.help = true;
    } else if (arg == "--compare") {
      o.compare = true;
    } else if (arg == "-o" || arg == "--output") {
      if (i + 1 >= argc) problem = arg + " needs a value";
      else if (!o.output.empty()) problem = arg + " is given more than once";
      else o.output = argv[++i];
    } else if (arg.size() > 1 && arg[0] == '-') {
      problem = "unknown option " + arg;
    } else {
      o.inputs.push_back(arg);
    }
  }
  if (!problem.empty() || o.help) return o;
  if (o.output.empty()) problem = "-o PAGE.html is required";
  else if (o.inputs.empty()) problem = "no --json report given";
  else if (!o.compare && o.inputs.size() > 1) problem = "several reports need --compare";
  else if (o.compare && o.inputs.size() < 2) problem = "--compare needs at least two reports";
  for (const std::string& input : o.inputs) {
    if (!problem.empty()) break;
    if (const Status s = base::CheckReadableFile(base::CallerPath(input)); !s.ok()) {
      problem = base::PathProblem("report", input, s);
    }
  }
  if (const Status s = base::CheckWritableFile(base::CallerPath(o.output));
      problem.empty() && !s.ok()) {
    problem = base::PathProblem("-o", o.output, s);
  }
  return o;
}

int Fail(const std::string& line) {
  std::fprintf(stderr, "gate_report: %s\n", line.c_str());
  return 1;
}

int Main(int argc, char** argv) {
  std::string problem;
  const Options o = ParseOptions(argc, argv, problem);
  if (!problem.empty()) {
    std::fprintf(stderr, "gate_report: %s\n%s", problem.c_str(), kUsage);
    return 64;
  }
  if (o.help) {
    std::printf("%s", kUsage);
    return 0;
  }
  std::vector<html_report::NamedRun> runs;
  for (const std::string& input : o.inputs) {
    StatusOr<JsonReport> report = ReadJsonReport(base::CallerPath(input));
    if (!report.ok()) return Fail(input + ": not a report the gate wrote with --json");
    runs.push_back({.name = input, .report = std::move(*report)});
  }
  const std::optional<Catalog> catalog = LoadCatalog(base::Runfile("conformance/requirements.json"));
  if (!catalog) std::fprintf(stderr, "gate_report: warning: the requirement catalog did not load\n");
  const Catalog* c = catalog ? &*catalog : nullptr;
  if (!o.compare) {
    if (!html_report::WriteRunPage(base::CallerPath(o.output), runs.front().report, c).ok()) {
      return Fail(o.output + ": cannot be written");
    }
  } else {
    if (const std::string mismatch = html_report::SuiteMismatch(runs); !mismatch.empty()) {
      return Fail("runs of different suites cannot be compared: " + mismatch);
    }
    for (const std::string& w : html_report::VersionWarnings(runs)) {
      std::fprintf(stderr, "gate_report: warning: %s\n", w.c_str());
    }
    const StatusOr<std::string> page = html_report::ComparePage(runs, c);
    if (!page.ok() || !base::WriteFileAtomically(base::CallerPath(o.output), *page).ok()) {
      return Fail(o.output + ": cannot be written");
    }
  }
  std::printf("wrote %s (%s)\n", o.output.c_str(),
              o.compare ? (std::to_string(runs.size()) + " runs side by side").c_str()
                        : runs.front().report.header.implementation.c_str());
  return 0;
}

}  // namespace
}  // namespace azure_pricing::conformance

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain(
      "gate_report", [&] { return azure_pricing::conformance::Main(argc, argv); });
}
