#include "conformance/cases/case_runner.h"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "conformance/cases/load.h"
#include "conformance/cases/resolved_case.h"
#include "conformance/cases/run.h"

namespace azure_pricing::conformance {
namespace {

std::string Dumped(const nlohmann::ordered_json& v) {
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// What a case says of itself, before it runs.
CaseResult Described(const ResolvedCase& c) {
  return {.file = c.file,
          .id = c.id,
          .ran = false,
          .requirements = c.requirements,
          .expected_outcome = c.expected_outcome,
          .expected_reason = c.expected_reason,
          .has_wording = c.has_wording};
}

CaseResult Judged(const ResolvedCase& c, const CallExecutor& execute) {
  CaseResult r = Described(c);
  r.ran = true;
  if (!c.problem.empty()) {
    r.detail = c.problem;
    return r;
  }
  r.inputs = Dumped(c.inputs);
  r.expected_value = Dumped(c.expected);
  // The schema has been checked, so a type mismatch here is a gap in the schema, not the case.
  try {
    CaseRun run = RunResolvedCase(c, execute);
    r.detail = std::move(run.problems.required);
    r.has_wording = run.problems.has_wording;
    r.wording_detail = std::move(run.problems.wording);
    r.actual = std::move(run.actual);
    r.actual_value = Dumped(run.observed);
  } catch (const std::exception&) {
    r.detail = "case is valid by case.schema.json but cannot be run: the schema lacks a rule";
  }
  r.passed = r.detail.empty();
  r.wording_passed = r.wording_detail.empty();
  return r;
}

// Each case's result as `result` makes it, after the file's own problem; a repeated id fails.
template <class ResultOf>
std::vector<CaseResult> Results(const CaseFile& file, const ResultOf& result) {
  std::vector<CaseResult> results;
  if (!file.problem.empty()) {
    results.push_back({.file = file.path, .id = "(file)", .detail = file.problem});
  }
  std::set<std::string> ids;
  for (const ResolvedCase& c : file.cases) {
    results.push_back(result(c));
    if (!ids.insert(c.id).second) {
      results.back().passed = false;
      results.back().detail = "duplicate case id";
    }
  }
  return results;
}

}  // namespace

std::vector<CaseResult> RunCaseFile(const std::string& path) {
  host::ScriptedHostRunner runner;
  return RunCaseFile(path, [&runner](const host::ScriptedCall& call) { return runner.Run(call); });
}

std::vector<CaseResult> RunCaseFile(const std::string& path, const CallExecutor& execute,
                                    const std::function<bool(const std::string& id)>& selected) {
  return Results(LoadCaseFile(path), [&](const ResolvedCase& c) {
    return selected && !selected(c.id) ? Described(c) : Judged(c, execute);
  });
}

std::vector<CaseResult> DescribeCaseFile(const std::string& path) {
  return Results(LoadCaseFile(path, LoadDepth::kDescription), Described);
}

std::vector<std::string> CaseFiles(const std::string& directory) {
  std::vector<std::string> files;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(directory, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.ends_with(".json") && !name.ends_with(".schema.json")) {
      files.push_back(it->path().lexically_normal().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace azure_pricing::conformance
