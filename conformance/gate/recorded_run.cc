#include "conformance/gate/recorded_run.h"

#include <cerrno>
#include <cstdlib>

#include "ref/base/files.h"
#include "ref/base/runfiles.h"

namespace azure_pricing::conformance {
namespace {

Status Unreadable() {
  return ProgramError(kRecordUnreadable, "a recorded gate run's status or stdout cannot be read");
}

}  // namespace

std::vector<GateRecord> RecordedGateRun::RecordsOf(std::string_view suite) const {
  std::vector<GateRecord> out;
  for (const GateRecord& r : records) {
    if (r.suite == suite) out.push_back(r);
  }
  return out;
}

StatusOr<RecordedGateRun> ReadRecordedGateRun(const std::string& name) {
  const std::string stem = name.starts_with('/') ? name : base::Runfile(name);
  const StatusOr<std::string> status = base::ReadFile(stem + ".status");
  StatusOr<std::string> stdout_text = base::ReadFile(stem + ".stdout");
  if (!status.ok() || !stdout_text.ok()) return Unreadable();
  char* end = nullptr;
  errno = 0;
  const long exit_status = std::strtol(status->c_str(), &end, 10);
  if (end == status->c_str() || (*end != '\n' && *end != '\0') || errno != 0 || exit_status < 0 ||
      exit_status > 255) {
    return Unreadable();
  }
  StatusOr<JsonReport> report = ReadJsonReport(stem + ".json");
  if (!report.ok()) return report.status();
  return RecordedGateRun{.exit_status = static_cast<int>(exit_status),
                         .stdout_text = std::move(*stdout_text),
                         .profile_version = std::move(report->header.profile_version),
                         .records = std::move(report->records)};
}

}  // namespace azure_pricing::conformance
