// A gate run recorded once per build for the tests that read it (recorded_run in
// tools/build/recorded_run.bzl, targets in conformance/BUILD): its exit status, what it printed
// on stdout, and its --json records. A test that needs the result of the 62 backend probes or of
// the stack cases reads one of these instead of running them again.
#ifndef CONFORMANCE_GATE_RECORDED_RUN_H_
#define CONFORMANCE_GATE_RECORDED_RUN_H_

#include <string>
#include <string_view>
#include <vector>

#include "conformance/gate/record.h"
#include "ref/status/status.h"

namespace azure_pricing::conformance {

struct RecordedGateRun {
  int exit_status = -1;  // 124 when the run was killed at its deadline
  std::string stdout_text;
  std::string profile_version;  // as its --json report states it; empty if it states none
  std::vector<GateRecord> records;

  // The records of one suite, in the run's order.
  std::vector<GateRecord> RecordsOf(std::string_view suite) const;
};

// A program error: a record's status or stdout file cannot be read (its --json report answers
// kReportUnreadable).
inline constexpr Reason kRecordUnreadable = "recorded_run_unreadable";

// `name` is the record's workspace-relative path without an extension, as the test's runfiles
// hold it: "conformance/gate/whole_run" for //conformance/gate:whole_run; or an absolute path
// without the extension.
StatusOr<RecordedGateRun> ReadRecordedGateRun(const std::string& name);

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_GATE_RECORDED_RUN_H_
