// What the gate concluded about one check (a case, a probe, a catalog check), and the files
// CI reads it from: --json (every record) and --junit (JUnit XML, one testcase per record).
#ifndef CONFORMANCE_GATE_RECORD_H_
#define CONFORMANCE_GATE_RECORD_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ref/status/status.h"

namespace azure_pricing::conformance {

enum class Verdict {
  kPassed,
  kFailed,
  kKnown,    // failed exactly as the implementation's known-failures file says
  kSkipped,  // selected but could not run (what it needs is missing); the gate wants zero
  // A backend probe whose subject the backend does not declare (closed egress it does not
  // offer, a protocol it does not speak in process): neither a pass nor a failure.
  kNotApplicable,
};

// How much a check counts (docs/profile.md, PROFILE-012). REQUIRED: a spec MUST or a REQUIRED
// profile rule; it decides the verdict and the exit status. RECOMMENDED: a spec SHOULD or the
// reference's exact wording; reported everywhere, never counted in the verdict.
enum class Level { kRequired, kRecommended };

std::string_view LevelName(Level level);  // "REQUIRED", "RECOMMENDED"

// The suite of records about the run itself rather than a check of the implementation.
inline constexpr char kGateSuite[] = "gate";

struct GateRecord {
  std::string suite;  // "kind", "properties", "backend", "stack", "catalog", "gate"
  std::string id;
  std::string file;  // the case file, when there is one
  std::vector<std::string> requirements;
  Verdict verdict = Verdict::kPassed;
  std::string expected;  // e.g. "refused/missing_filter"
  std::string actual;    // what the implementation did, in the same terms; empty when unknown
  std::string detail;    // what differed (empty when it passed)
  double seconds = 0;
  // RECOMMENDED when every requirement it cites is a SHOULD, or when it checks the reference's
  // wording: its failure is reported, but does not fail the gate.
  Level level = Level::kRequired;
  // JSON text, or empty: what the check gave the implementation, the whole expected value and
  // the whole actual one (the --json report carries them as JSON; `expected` and `actual`
  // above are their one-line summaries).
  std::string inputs;
  std::string expected_value;
  std::string actual_value;
};

std::string_view VerdictName(Verdict verdict);

// The backend suite's records' suite name.
inline constexpr char kBackendSuite[] = "backend";

// A sandbox backend's own verdict, apart from the implementation's: every applicable backend
// probe is REQUIRED, and one that failed or could not run makes it NOT CONFORMANT.
struct BackendVerdict {
  bool conformant = true;
  int required = 0;  // applicable probes
  int failed = 0;    // failed or skipped
  int not_applicable = 0;
};
// nullopt when no backend probe is among the records.
std::optional<BackendVerdict> JudgeBackend(const std::vector<GateRecord>& records);

// A program error (ProgramError()): a report file cannot be written.
inline constexpr Reason kReportWriteFailed = "report_write_failed";

// Who was judged, and against which version of docs/profile.md: a report's records mean
// something only beside both. An empty profile_version (the profile could not be read, which
// fails the run) is written as JSON null and left out of JUnit.
struct ReportHeader {
  std::string implementation;
  std::string profile_version;
  // What a reader of a report page needs beside the records: which gate, when, how it was
  // started, against which backend, and what it concluded, as the console printed it. Each is
  // empty in a report an older gate wrote; JUnit carries none of them.
  std::string gate_version;
  std::string date;                       // UTC, "2026-12-05T16:30:00Z", when the run ended
  std::vector<std::string> command_line;  // the gate's arguments as given
  std::string backend;                    // as the backend suite names it
  std::vector<std::pair<std::string, double>> suite_seconds;  // in the order they ran
  std::optional<double> wall_seconds;
  std::string coverage_line;               // "requirements: 153 of 156 ..."
  std::vector<std::string> verdict_lines;  // "backend: CONFORMANT (...)", "gate: PASS", ...
};

// {"implementation": ..., "profile_version": "2026-12-05.1",
//  "run": {"gate_version", "date", "command_line": [...], "backend", "suite_seconds": {...},
//          "wall_seconds", "coverage", "verdict_lines": [...]},
//  "records": [{suite, id, file, requirements, level, result,
//   expected, actual, detail, seconds[, inputs, expected_value, actual_value]}],
//  "passed": N, "failed": N, "known": N, "skipped": N,
//  "by_level": {"REQUIRED": {passed, failed, known, skipped}, "RECOMMENDED": {...}}}
Status WriteJsonReport(const std::string& path, const ReportHeader& header,
                       const std::vector<GateRecord>& records);

// What a --json report holds that ReadJsonReport gives back (the counts follow from the records).
struct JsonReport {
  ReportHeader header;
  std::vector<GateRecord> records;
};

// A program error: a --json report cannot be read, is not JSON, or a record in it lacks a member
// or has a result or level this gate does not write.
inline constexpr Reason kReportUnreadable = "report_unreadable";

// Reads back what WriteJsonReport wrote: a recorded run's report for a test, or a CI's report.
StatusOr<JsonReport> ReadJsonReport(const std::string& path);

// JUnit XML: one <testsuite> per suite, each with a profile_version property (JUnit gives
// <testsuites> no properties), one <testcase> per record (classname = suite, name = id, a level
// property); failures of REQUIRED checks as <failure message=...>; known failures, skips and
// failures of RECOMMENDED checks as <skipped message=...>, so CI's JUnit view fails exactly
// when the gate does.
Status WriteJUnitReport(const std::string& path, const ReportHeader& header,
                        const std::vector<GateRecord>& records);

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_GATE_RECORD_H_
