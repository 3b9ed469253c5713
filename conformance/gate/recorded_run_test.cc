#include "conformance/gate/recorded_run.h"

#include <cstdlib>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/base/files.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance {
namespace {

using ::testing::ElementsAre;
using ::testing::Field;

class RecordedGateRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    ASSERT_NE(tmp, nullptr);
    stem_ = std::string(tmp) + "/run";
  }
  // A record as recorded_run leaves it: NAME.status, NAME.stdout, NAME.json.
  void Record(const std::string& status, const std::vector<GateRecord>& records) {
    ASSERT_THAT(base::WriteFileAtomically(stem_ + ".status", status), IsOk());
    ASSERT_THAT(base::WriteFileAtomically(stem_ + ".stdout", "gate: PASS\n"), IsOk());
    ASSERT_THAT(WriteJsonReport(stem_ + ".json",
                                {.implementation = "reference", .profile_version = "2026-12-05.1"},
                                records), IsOk());
  }
  std::string stem_;
};

TEST_F(RecordedGateRunTest, ARecordReadsBackWithItsStatusOutputAndRecords) {
  Record("0\n", {{.suite = "backend", .id = "exec.argv"},
                 {.suite = "stack", .id = "stack.paging_ceiling"},
                 {.suite = "backend", .id = "egress.closed", .verdict = Verdict::kFailed}});
  const StatusOr<RecordedGateRun> run = ReadRecordedGateRun(stem_);
  ASSERT_THAT(run.status(), IsOk());
  EXPECT_EQ(run->exit_status, 0);
  EXPECT_EQ(run->stdout_text, "gate: PASS\n");
  EXPECT_EQ(run->profile_version, "2026-12-05.1");
  EXPECT_THAT(run->RecordsOf("backend"), ElementsAre(Field(&GateRecord::id, "exec.argv"),
                                                     Field(&GateRecord::id, "egress.closed")));
  EXPECT_THAT(run->RecordsOf("live"), ::testing::IsEmpty());
}

TEST_F(RecordedGateRunTest, AKilledRunKeepsItsStatus) {
  Record("124\n", {});
  const StatusOr<RecordedGateRun> run = ReadRecordedGateRun(stem_);
  ASSERT_THAT(run.status(), IsOk());
  EXPECT_EQ(run->exit_status, 124);
}

TEST_F(RecordedGateRunTest, AMissingOrMangledRecordIsAnError) {
  EXPECT_THAT(ReadRecordedGateRun(stem_ + "-never").status(), ProgramErrorIs(kRecordUnreadable));
  for (const std::string status : {"", "x\n", "-1\n", "256\n", "0 0\n"}) {
    Record(status, {});
    EXPECT_THAT(ReadRecordedGateRun(stem_).status(), ProgramErrorIs(kRecordUnreadable))
        << "status " << status;
  }
  Record("0\n", {});
  ASSERT_THAT(base::WriteFileAtomically(stem_ + ".json", "{"), IsOk());
  EXPECT_THAT(ReadRecordedGateRun(stem_).status(), ProgramErrorIs(kReportUnreadable));
}

}  // namespace
}  // namespace azure_pricing::conformance
