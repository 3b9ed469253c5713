// Recordings: the one named transformer, writing and reading a recording whole, and the replay
// file the fake price API reads.
#include "conformance/live/recording.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "conformance/citations/cites.h"
#include "ref/base/files.h"
#include "ref/base/runfiles.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::live {
namespace {

CITES("HOST-005");

using ::azure_pricing::IsOkAndHolds;
using ::azure_pricing::StatusIs;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

std::string TestTmp() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return tmp != nullptr ? tmp : "/tmp";
}

TEST(RemoveDurationTest, RemovesTheRealCliOutputsLastMemberOnly) {
  const std::string real = *base::ReadFile(
      base::Runfile("fixtures/azmcp-3.0.0-beta.46/cli-stdout/success-basic.json"));
  ASSERT_NE(real.find("\"duration\": 313"), std::string::npos);
  EXPECT_THAT(RemoveDuration(real),
              IsOkAndHolds(AllOf(Not(HasSubstr("duration")),
                                 real.substr(0, real.find(",\n  \"duration\"")) + "\n}\n")));
  // A duration anywhere but last, or none at all: not guessed.
  EXPECT_THAT(RemoveDuration("{\n  \"duration\": 3,\n  \"status\": 200\n}\n").status(),
              ProgramErrorIs(kTransformerDidNotApply));
  EXPECT_THAT(RemoveDuration("not json").status(), ProgramErrorIs(kTransformerDidNotApply));
}

Recording Sample() {
  return {.mode = "dry-run", .host = "h", .cli = "c", .cli_version = "9.8.7-beta.6",
          .recorded_at = "2026-12-02T00:00:00Z", .command = "record", .transformers = {kDurationRemoved},
          .queries = {{.id = "q", .arguments = R"({"sku":"S"})", .argv = {"azmcp", "pricing", "get"},
                       .exit_code = 0, .passed = true, .cli_stdout = "{\n}\n", .cli_stderr = "",
                       .upstream = {{.target = "/api/retail/prices?a=1", .status = 200, .body = "{\"Items\":[]}"},
                                    {.target = "/api/retail/prices?a=2", .status = 400, .body = "e"}}}}};
}

TEST(RecordingTest, IsWrittenWholeAndReadBackTheSame) {
  const std::string dir = TestTmp() + "/recording-roundtrip";
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(WriteRecording(Sample(), dir).ok());
  EXPECT_TRUE(std::filesystem::exists(dir + "/PROVENANCE.md"));
  StatusOr<Recording> back = ReadRecording(dir);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->cli_version, "9.8.7-beta.6");
  ASSERT_EQ(back->queries.size(), 1u);
  EXPECT_EQ(back->queries[0].arguments, R"({"sku":"S"})");
  EXPECT_EQ(back->queries[0].cli_stdout, "{\n}\n");
  EXPECT_TRUE(back->queries[0].passed);
  ASSERT_EQ(back->queries[0].upstream.size(), 2u);
  EXPECT_EQ(back->queries[0].upstream[1].status, 400);
  EXPECT_EQ(back->queries[0].upstream[0].body, "{\"Items\":[]}");
  EXPECT_THAT(WriteRecording(Sample(), dir), ProgramErrorIs(kRecordingExists));
  EXPECT_THAT(ReadRecording(dir + "/nowhere").status(),
              ProgramErrorIs(kRecordingUnreadable));
}

TEST(RecordingTest, TheReplayFileHoldsEveryExchangeInOrder) {
  EXPECT_EQ(ReplayJsonl(Sample()),
            "{\"target\":\"/api/retail/prices?a=1\",\"status\":200,\"body\":\"{\\\"Items\\\":[]}\"}\n"
            "{\"target\":\"/api/retail/prices?a=2\",\"status\":400,\"body\":\"e\"}\n");
}

}  // namespace
}  // namespace azure_pricing::conformance::live
