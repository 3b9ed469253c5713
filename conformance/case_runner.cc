#include "conformance/case_runner.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "conformance/host/scripted_host.h"
#include "ref/pricing/lookup.h"

namespace azure_pricing::conformance {
namespace {

using nlohmann::ordered_json;

std::optional<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Collects every string inside a JSON value (the arguments a model sent, or a CLI envelope).
void CollectStrings(const ordered_json& v, std::vector<std::string>& out) {
  if (v.is_string()) {
    out.push_back(v.get<std::string>());
  } else if (v.is_structured()) {
    for (const auto& item : v) CollectStrings(item, out);
  }
}

// Quoted runs of raw text, for inputs that are not JSON the runner could read.
void CollectQuotedRuns(const std::string& text, std::vector<std::string>& out) {
  size_t open = text.find('"');
  while (open != std::string::npos) {
    const size_t close = text.find('"', open + 1);
    if (close == std::string::npos) break;
    out.push_back(text.substr(open + 1, close - open - 1));
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

}  // namespace

std::string EchoProblem(const std::string& message, const std::vector<std::string>& inputs) {
  for (const std::string& s : inputs) {
    if (s.size() >= 6 && message.find(s) != std::string::npos) {
      return "message echoes an input of " + std::to_string(s.size()) + " bytes";
    }
  }
  return "";
}

namespace {

std::string RunOne(const ordered_json& c) {
  std::string args_text;
  std::vector<std::string> inputs;
  if (c.contains("arguments_text")) {
    args_text = c["arguments_text"].get<std::string>();
    CollectQuotedRuns(args_text, inputs);
  } else if (c.contains("arguments")) {
    args_text = c["arguments"].dump();
    CollectStrings(c["arguments"], inputs);
  } else {
    return "case has neither arguments nor arguments_text";
  }
  HostBounds bounds;
  if (c.contains("host")) {
    const ordered_json& h = c["host"];
    if (h.contains("max_rows")) bounds.max_rows = h["max_rows"].get<int64_t>();
    if (h.contains("exec_timeout_seconds")) {
      bounds.exec_timeout_seconds = h["exec_timeout_seconds"].get<int64_t>();
    }
    if (h.contains("max_output_bytes"))
      bounds.max_output_bytes = h["max_output_bytes"].get<int64_t>();
  }
  const ordered_json& expect = c["expect"];
  const std::string want_outcome = expect["outcome"].get<std::string>();
  std::ostringstream problems;

  if (!c.contains("cli")) {
    StatusOr<LookupPlan> plan = PlanLookup(args_text, bounds);
    const std::string got =
        plan.ok() ? "planned" : std::string(OutcomeName(plan.status().outcome()));
    if (got != want_outcome) problems << "outcome " << got << ", want " << want_outcome << "; ";
    if (!plan.ok()) {
      if (expect.contains("reason") &&
          plan.status().reason() != expect["reason"].get<std::string>()) {
        problems << "reason " << plan.status().reason() << ", want "
                 << expect["reason"].get<std::string>() << "; ";
      }
      if (expect.contains("message_contains")) {
        for (const auto& part : expect["message_contains"]) {
          if (plan.status().message().find(part.get<std::string>()) == std::string::npos) {
            problems << "message lacks \"" << part.get<std::string>() << "\"; ";
          }
        }
      }
      problems << EchoProblem(plan.status().message(), inputs);
    } else if (expect.contains("argv")) {
      if (ordered_json(plan->argv) != expect["argv"]) {
        problems << "argv " << ordered_json(plan->argv).dump() << ", want " << expect["argv"].dump()
                 << "; ";
      }
    }
    return problems.str();
  }

  const ordered_json& cli = c["cli"];
  fakes::sandbox::CallScript script;
  for (const auto& [name, out] :
       {std::pair<std::string, std::string*>{"stdout", &script.exec.stdout_bytes},
        std::pair<std::string, std::string*>{"stderr", &script.exec.stderr_bytes}}) {
    if (cli.contains(name + "_file")) {
      std::optional<std::string> text = ReadFile(cli[name + "_file"].get<std::string>());
      if (!text) return "cannot read " + cli[name + "_file"].get<std::string>();
      *out = std::move(*text);
    } else if (cli.contains(name)) {
      *out = cli[name].get<std::string>();
    }
  }
  script.exec.exit_code = cli.value("exit_code", 0);
  // A timeout is a delay past the host's time limit; an overflow is more output than its budget.
  if (cli.value("timed_out", false)) script.exec.delay_ms = 601'000;
  if (cli.value("output_limit_exceeded", false)) {
    script.exec.stderr_bytes.append(static_cast<size_t>(bounds.max_output_bytes) + 1, 'x');
  }
  script.exec.delay_ms = std::max<int64_t>(script.exec.delay_ms, cli.value("delay_ms", 0));
  script.exec.exec_error = cli.value("exec_error", false);
  script.fail_acquire = cli.value("fail_acquire", false);
  script.fail_dispose = cli.value("fail_dispose", false);
  // What the CLI said must not come back either.
  const ordered_json envelope = ordered_json::parse(script.exec.stdout_bytes, nullptr, false);
  if (envelope.is_discarded()) {
    CollectLines(script.exec.stdout_bytes, inputs);
  } else {
    CollectStrings(envelope, inputs);
  }
  if (!cli.value("output_limit_exceeded", false)) CollectLines(script.exec.stderr_bytes, inputs);

  conformance::host::ScriptedCall call;
  call.arguments = args_text;
  if (c.contains("host")) call.host_json = c["host"].dump();
  if (c.contains("backend")) call.backend_json = c["backend"].dump();
  if (c.contains("labels")) call.labels_json = c["labels"].dump();
  if (c.contains("middleware")) {
    for (const auto& m : c["middleware"]) call.middleware.push_back(m.get<std::string>());
  }
  call.scripts = {script};
  azure_pricing::StatusOr<conformance::host::CallReport> ran = conformance::host::RunScriptedCall(call);
  if (!ran.ok()) return "case configuration: " + ran.status().message();
  const conformance::host::CallReport& got_report = *ran;
  const std::string got(OutcomeName(got_report.outcome));
  const std::string message =
      got_report.trusted_messages.empty() ? "" : got_report.trusted_messages.front();
  if (got != want_outcome) problems << "outcome " << got << ", want " << want_outcome << "; ";
  if (expect.contains("reason") && got_report.reason != expect["reason"].get<std::string>()) {
    problems << "reason " << got_report.reason << ", want " << expect["reason"].get<std::string>()
             << "; ";
  }
  if ((got == "refused" || got == "blocked") && got_report.execs != 0) {
    problems << got << " after running the CLI; ";
  }
  // Every acquired sandbox is disposed, whatever happened, and every exec is bounded.
  if (got_report.sandbox_acquisitions != got_report.sandbox_disposals) {
    problems << "acquired " << got_report.sandbox_acquisitions << " sandboxes, disposed "
             << got_report.sandbox_disposals << "; ";
  }
  if (got_report.unbounded_execs != 0) problems << "ran the CLI without BoundedExec; ";
  if (got_report.file_operations != 0) problems << "moved files in or out of the sandbox; ";
  for (const char* field : {"sandbox_acquisitions", "sandbox_disposals"}) {
    if (!expect.contains(field)) continue;
    const int value = std::string(field) == "sandbox_acquisitions" ? got_report.sandbox_acquisitions
                                                                   : got_report.sandbox_disposals;
    if (value != expect[field].get<int>()) {
      problems << field << " " << value << ", want " << expect[field].dump() << "; ";
    }
  }
  if (expect.contains("tools") &&
      static_cast<int>(got_report.tools) != expect["tools"].get<int>()) {
    problems << "tools " << got_report.tools << ", want " << expect["tools"].dump() << "; ";
  }
  if (expect.contains("violations") &&
      ordered_json(got_report.violations) != expect["violations"]) {
    problems << "violations " << ordered_json(got_report.violations).dump() << ", want "
             << expect["violations"].dump() << "; ";
  }
  if (expect.contains("result_label")) {
    ordered_json label = nullptr;
    if (got_report.result_label.has_value()) {
      label = {
          {"integrity", std::string(labels::Name(got_report.result_label->integrity))},
          {"confidentiality", std::string(labels::Name(got_report.result_label->confidentiality))}};
    }
    if (label != expect["result_label"]) {
      problems << "result_label " << label.dump() << ", want " << expect["result_label"].dump()
               << "; ";
    }
  }
  if (expect.contains("trusted_messages_contain")) {
    std::string all;
    for (const std::string& m : got_report.trusted_messages) all += m + "\n";
    for (const auto& part : expect["trusted_messages_contain"]) {
      if (all.find(part.get<std::string>()) == std::string::npos) {
        problems << "trusted messages lack \"" << part.get<std::string>() << "\"; ";
      }
    }
  }
  // Refusal and failure text must not echo input. (The standing guidance that follows it is fixed
  // prose that may share words such as "Reservation" with the rows.)
  if (got != "completed") {
    if (std::string echo = EchoProblem(message, inputs); !echo.empty()) problems << echo << "; ";
  }
  if (expect.contains("message_contains")) {
    for (const auto& part : expect["message_contains"]) {
      if (message.find(part.get<std::string>()) == std::string::npos) {
        problems << "message lacks \"" << part.get<std::string>() << "\"; ";
      }
    }
  }
  if (got_report.output.has_value()) {
    const ordered_json report = ordered_json::parse(*got_report.output, nullptr, false);
    if (report.is_discarded()) return problems.str() + "report is not JSON; ";
    std::vector<std::string> keys;
    for (const auto& item : report.items()) keys.push_back(item.key());
    // An expanded query adds its selection fields; any other keeps the original shape.
    const bool expanded = expect.contains("selected_rows") || expect.contains("requested_region") ||
                          expect.contains("selection_notes") || expect.contains("matched_by");
    std::vector<std::string> want_keys = {"prices", "returned_rows", "received_rows", "truncated",
                                          "upstream_limit_reached"};
    if (expanded) {
      for (const char* k : {"requested_region", "selected_rows", "selection_notes"}) {
        want_keys.push_back(k);
      }
    }
    if (keys != want_keys) problems << "report keys " << ordered_json(keys).dump() << "; ";
    if (expect.contains("matched_by")) {
      ordered_json got = ordered_json::array();
      for (const auto& row : report["prices"]) got.push_back(row.value("matched_by", ""));
      if (got != expect["matched_by"]) {
        problems << "matched_by " << got.dump() << ", want " << expect["matched_by"].dump() << "; ";
      }
    }
    for (const char* field :
         {"returned_rows", "received_rows", "truncated", "upstream_limit_reached", "selected_rows",
          "requested_region", "selection_notes"}) {
      if (!expect.contains(field)) continue;
      if (!report.contains(field)) {
        problems << "report has no " << field << "; ";
      } else if (report[field] != expect[field]) {
        problems << field << " " << report[field].dump() << ", want " << expect[field].dump()
                 << "; ";
      }
    }
    if (static_cast<int64_t>(report["prices"].size()) != report["returned_rows"].get<int64_t>()) {
      problems << "prices length differs from returned_rows; ";
    }
    if (expect.contains("first_row")) {
      if (report["prices"].empty()) {
        problems << "no first row; ";
      } else if (report["prices"][0] != expect["first_row"] ||
                 report["prices"][0].dump() != expect["first_row"].dump()) {
        // ordered_json compares key order too: the CLI's order is part of the contract.
        problems << "first row " << report["prices"][0].dump() << ", want "
                 << expect["first_row"].dump() << "; ";
      }
    }
  } else if (expect.contains("returned_rows") || expect.contains("first_row")) {
    problems << "no report; ";
  }
  return problems.str();
}

}  // namespace

std::vector<CaseResult> RunCaseFile(const std::string& path) {
  std::vector<CaseResult> results;
  auto broken = [&](const std::string& why) {
    CaseResult r;
    r.file = path;
    r.id = "(file)";
    r.detail = why;
    results = {r};
    return results;
  };
  std::optional<std::string> text = ReadFile(path);
  if (!text) return broken("cannot read case file");
  const ordered_json doc = ordered_json::parse(*text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("cases") ||
      !doc["cases"].is_array()) {
    return broken("case file is not an object with a cases array");
  }
  std::set<std::string> ids;
  for (const ordered_json& c : doc["cases"]) {
    CaseResult r;
    r.file = path;
    if (!c.is_object() || !c.contains("id") || !c["id"].is_string() || !c.contains("expect") ||
        !c.contains("requirements") || !c["requirements"].is_array() || c["requirements"].empty()) {
      r.id = "(malformed)";
      r.detail = "case lacks id, requirements or expect";
      results.push_back(r);
      continue;
    }
    r.id = c["id"].get<std::string>();
    for (const auto& req : c["requirements"]) r.requirements.push_back(req.get<std::string>());
    if (!ids.insert(r.id).second) {
      r.detail = "duplicate case id";
    } else {
      try {
        r.detail = RunOne(c);
      } catch (const std::exception&) {
        r.detail = "case does not follow case.schema.json";
      }
    }
    r.passed = r.detail.empty();
    results.push_back(std::move(r));
  }
  return results;
}

std::vector<std::string> DefaultCaseFiles() {
  return {"conformance/cases/arguments.json", "conformance/cases/replay.json",
          "conformance/cases/selection.json", "conformance/cases/host.json"};
}

}  // namespace azure_pricing::conformance
