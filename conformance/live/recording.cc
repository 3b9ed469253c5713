#include "conformance/live/recording.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <utility>

#include "ref/base/files.h"
#include "ref/status/status_macros.h"

namespace azure_pricing::conformance::live {
namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

Status WriteFailed() {
  return ProgramError(kRecordingWriteFailed, "a file of the recording could not be written");
}

Status Unreadable(const std::string& what) {
  return ProgramError(kRecordingUnreadable, "the recording's " + what + " cannot be read");
}

StatusOr<RecordedQuery> RecordQuery(const CheckResult& r) {
  RecordedQuery q{.id = r.check.id, .arguments = r.check.arguments, .passed = r.passed};
  if (r.seen.execs.size() != 1 || !r.seen.execs.front().result.ok()) {
    return ProgramError(kNothingToRecord, "a query that did not run the CLI exactly once has nothing to record");
  }
  const stack::StackExec& cli = r.seen.execs.front();
  q.argv = cli.argv;
  q.exit_code = cli.result->exit_code;
  ASSIGN_OR_RETURN(std::string out, RemoveDuration(cli.result->stdout_bytes));
  q.cli_stdout = std::move(out);
  q.cli_stderr = cli.result->stderr_bytes;
  for (const UpstreamExchange& u : r.seen.upstream) {
    if (!u.body_error.empty()) {
      return ProgramError(kRecordingUnreadable, "an upstream response of the run could not be read, so it is not recorded");
    }
    q.upstream.push_back({.target = u.target, .status = u.status, .body = u.body});
  }
  return q;
}

std::string Provenance(const Recording& r) {
  std::string out = "# Live-check recording (" + r.mode + ")\n\n";
  out += "Written by `" + r.command + "`; never edited by hand: rerun the command instead.\n\n";
  out += "- recorded at: " + r.recorded_at + " (UTC)\n";
  out += "- host: " + r.host + "\n";
  out += "- CLI: " + r.cli + "; version on the wire: " + r.cli_version + "\n";
  out += "- queries: " + std::to_string(r.queries.size()) +
         " (conformance/live/checks.json; arguments in recording.json)\n";
  out += "- transformers:";
  for (const std::string& t : r.transformers) out += " `" + t + "`";
  out += "\n- upstream bodies: as the egress proxy received them (de-chunked), unchanged\n";
  return out;
}

Json QueryJson(const RecordedQuery& q) {
  Json upstream = Json::array();
  for (size_t n = 0; n < q.upstream.size(); ++n) {
    upstream.push_back({{"target", q.upstream[n].target},
                        {"status", q.upstream[n].status},
                        {"body", "upstream/" + q.id + "-" + std::to_string(n + 1) + ".body"}});
  }
  return {{"id", q.id},
          {"arguments", Json::parse(q.arguments)},
          {"argv", q.argv},
          {"exit_code", q.exit_code},
          {"passed", q.passed},
          {"cli_stdout", "cli/" + q.id + ".json"},
          {"cli_stderr", q.cli_stderr.empty() ? "" : "cli/" + q.id + ".stderr"},
          {"upstream", upstream}};
}

}  // namespace

StatusOr<std::string> RemoveDuration(const std::string& cli_stdout) {
  // The CLI writes the envelope indented by two spaces with "duration" last.
  static const std::regex kLast(",\n  \"duration\": [0-9]+\n\\}\n?$");
  std::smatch m;
  if (!std::regex_search(cli_stdout, m, kLast)) {
    return ProgramError(kTransformerDidNotApply, "the CLI's output does not end with its duration member where the transformer "
                  "expects it");
  }
  return cli_stdout.substr(0, static_cast<size_t>(m.position(0))) + "\n}\n";
}

StatusOr<Recording> RecordingFromReport(const LiveReport& report, const std::string& command) {
  Recording rec{.mode = report.mode, .host = report.upstream, .cli = report.cli,
                .cli_version = report.cli_version, .recorded_at = report.started_at,
                .command = command, .transformers = {kDurationRemoved}};
  for (const CheckResult& r : report.results) {
    if (!r.ran) continue;
    ASSIGN_OR_RETURN(RecordedQuery q, RecordQuery(r));
    rec.queries.push_back(std::move(q));
  }
  if (rec.queries.empty()) {
    return ProgramError(kNothingToRecord, "no query of the run ran");
  }
  return rec;
}

Status WriteRecording(const Recording& r, const std::string& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    return ProgramError(kRecordingExists, "the recording's directory exists already; a recording is written whole");
  }
  if (!fs::create_directories(dir + "/cli", ec) || !fs::create_directories(dir + "/upstream", ec)) {
    return WriteFailed();
  }
  Json queries = Json::array();
  for (const RecordedQuery& q : r.queries) {
    const Json entry = QueryJson(q);
    if (!base::WriteFileAtomically(dir + "/" + entry["cli_stdout"].get<std::string>(), q.cli_stdout).ok()) {
      return WriteFailed();
    }
    if (!q.cli_stderr.empty() &&
        !base::WriteFileAtomically(dir + "/" + entry["cli_stderr"].get<std::string>(), q.cli_stderr).ok()) {
      return WriteFailed();
    }
    for (size_t n = 0; n < q.upstream.size(); ++n) {
      const std::string file = dir + "/" + entry["upstream"][n]["body"].get<std::string>();
      if (!base::WriteFileAtomically(file, q.upstream[n].body).ok()) return WriteFailed();
    }
    queries.push_back(entry);
  }
  const Json index = {{"format", 1},           {"mode", r.mode},
                      {"host", r.host},        {"cli", r.cli},
                      {"cli_version", r.cli_version}, {"recorded_at", r.recorded_at},
                      {"command", r.command},  {"transformers", r.transformers},
                      {"queries", queries}};
  if (!base::WriteFileAtomically(dir + "/recording.json", index.dump(2) + "\n").ok() ||
      !base::WriteFileAtomically(dir + "/PROVENANCE.md", Provenance(r)).ok()) {
    return WriteFailed();
  }
  return OkStatus();
}

StatusOr<Recording> ReadRecording(const std::string& dir) {
  StatusOr<std::string> text = base::ReadFile(dir + "/recording.json");
  if (!text.ok()) return Unreadable("recording.json");
  const Json index = Json::parse(*text, nullptr, false);
  if (!index.is_object() || index.value("format", 0) != 1 || !index.contains("queries")) {
    return Unreadable("recording.json");
  }
  Recording r{.mode = index.value("mode", ""), .host = index.value("host", ""),
              .cli = index.value("cli", ""), .cli_version = index.value("cli_version", ""),
              .recorded_at = index.value("recorded_at", ""), .command = index.value("command", ""),
              .transformers = index.value("transformers", std::vector<std::string>{})};
  for (const Json& q : index["queries"]) {
    RecordedQuery rq{.id = q.value("id", ""), .arguments = q.value("arguments", Json::object()).dump(),
                     .argv = q.value("argv", std::vector<std::string>{}),
                     .exit_code = q.value("exit_code", -1),
                     .passed = q.value("passed", false)};
    StatusOr<std::string> out = base::ReadFile(dir + "/" + q.value("cli_stdout", ""));
    if (!out.ok()) return Unreadable("CLI output of " + rq.id);
    rq.cli_stdout = std::move(*out);
    for (const Json& u : q.value("upstream", Json::array())) {
      StatusOr<std::string> body = base::ReadFile(dir + "/" + u.value("body", ""));
      if (!body.ok()) return Unreadable("upstream body of " + rq.id);
      rq.upstream.push_back({.target = u.value("target", ""), .status = u.value("status", 0),
                             .body = std::move(*body)});
    }
    r.queries.push_back(std::move(rq));
  }
  return r;
}

std::string ReplayJsonl(const Recording& recording) {
  std::string out;
  for (const RecordedQuery& q : recording.queries) {
    for (const RecordedExchange& u : q.upstream) {
      // A body that is not UTF-8 cannot travel in JSON text; replaced bytes make the replay
      // differ from the recording, which its test reports, where throwing would end the run.
      out += Json{{"target", u.target}, {"status", u.status}, {"body", u.body}}.dump(
                 -1, ' ', false, Json::error_handler_t::replace) +
             "\n";
    }
  }
  return out;
}

}  // namespace azure_pricing::conformance::live
