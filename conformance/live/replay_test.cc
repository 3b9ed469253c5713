// The recordings in the repository replay: the fake price API answers only their recorded
// exchanges (prices_server --replay), the same CLI in the same stack is given each recorded
// query, and its output, after the recording's named transformers, is the recorded output byte
// for byte. A recording whose upstream page is changed no longer replays to its output, so the
// comparison can fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "azmcp/cli_version.h"
#include "conformance/citations/cites.h"
#include "conformance/live/recording.h"
#include "conformance/stack/local_stack.h"
#include "ref/base/runfiles.h"
#include "ref/egress/proxy.h"

namespace azure_pricing::conformance::live {
namespace {

CITES("HOST-004", "HOST-005");

// The current CLI version's (tools/image/azmcp-version).
constexpr const char* kDryRun = "fixtures/azmcp-" AZMCP_CLI_VERSION "-dry-run";

// The dry run and every real run imported by tools/fixtures/import_live_recording.py.
std::vector<std::string> Recordings() {
  std::vector<std::string> out = {kDryRun};
  std::error_code ec;
  const std::string imported = "fixtures/live-check-recorded";
  std::vector<std::string> found;
  for (const auto& entry : std::filesystem::directory_iterator(base::Runfile(imported), ec)) {
    if (entry.is_directory()) found.push_back(imported + "/" + entry.path().filename().string());
  }
  std::sort(found.begin(), found.end());
  out.insert(out.end(), found.begin(), found.end());
  return out;
}

struct Replayed {
  std::string cli_version;  // from the User-Agent the proxy saw
  std::vector<std::string> outputs;  // per query, transformed; or the problem
};

Replayed Replay(const Recording& rec) {
  Replayed out;
  std::mutex mu;
  stack::LocalStackOptions options{.cli = stack::DefaultCli(), .replay_jsonl = ReplayJsonl(rec)};
  options.egress_observe = [&](const egress::ForwardedExchange& e) {
    std::lock_guard<std::mutex> lock(mu);
    if (out.cli_version.empty()) out.cli_version = CliVersionFromUserAgent(e.user_agent);
  };
  StatusOr<std::unique_ptr<stack::LocalStack>> stack = stack::LocalStack::Start(std::move(options));
  if (!stack.ok()) {
    ADD_FAILURE() << "the stack did not start: " << stack.status().message();
    return out;
  }
  for (const RecordedQuery& q : rec.queries) {
    std::vector<stack::StackExec> execs;
    StatusOr<host::CallReport> report =
        (*stack)->Call({.arguments = q.arguments, .max_rows = 5000}, &execs);
    if (!report.ok() || execs.size() != 1 || !execs[0].result.ok()) {
      out.outputs.push_back("(" + q.id + ": the CLI did not run once)");
      continue;
    }
    EXPECT_EQ(execs[0].argv, q.argv) << q.id;
    EXPECT_EQ(execs[0].result->exit_code, q.exit_code) << q.id;
    StatusOr<std::string> transformed = RemoveDuration(execs[0].result->stdout_bytes);
    out.outputs.push_back(transformed.ok() ? *transformed : "(" + q.id + ": no duration)");
  }
  return out;
}

TEST(ReplayTest, EveryRecordingInTheRepositoryReplaysToItsCliOutput) {
  for (const std::string& dir : Recordings()) {
    StatusOr<Recording> rec = ReadRecording(base::Runfile(dir));
    ASSERT_TRUE(rec.ok()) << dir << ": " << rec.status().message();
    ASSERT_FALSE(rec->queries.empty()) << dir;
    ASSERT_EQ(rec->transformers, std::vector<std::string>{kDurationRemoved}) << dir;
    const Replayed got = Replay(*rec);
    // The fake azmcp (no AZURE_PRICING_AZMCP, as on a remote executor) reproduces 3.0.0-beta.46's
    // output but not its User-Agent.
    if (stack::DefaultCli().real) {
      EXPECT_EQ(got.cli_version, rec->cli_version)
          << dir << " was recorded with another CLI version than the one replaying it";
    }
    ASSERT_EQ(got.outputs.size(), rec->queries.size());
    for (size_t i = 0; i < got.outputs.size(); ++i) {
      EXPECT_TRUE(got.outputs[i] == rec->queries[i].cli_stdout)
          << dir << ": " << rec->queries[i].id << " replays to another output";
    }
  }
}

TEST(ReplayTest, AChangedUpstreamPageNoLongerReplaysToTheRecordedOutput) {
  StatusOr<Recording> rec = ReadRecording(base::Runfile(kDryRun));
  ASSERT_TRUE(rec.ok());
  std::vector<RecordedQuery> one;
  for (RecordedQuery& q : rec->queries) {
    if (q.id == "private-endpoint") one.push_back(q);
  }
  ASSERT_EQ(one.size(), 1u);
  rec->queries = one;
  std::string& body = rec->queries[0].upstream.at(0).body;
  const size_t at = body.find("Standard Private Endpoint");
  ASSERT_NE(at, std::string::npos);
  body.replace(at, 8, "Premium ");
  const Replayed got = Replay(*rec);
  ASSERT_EQ(got.outputs.size(), 1u);
  EXPECT_NE(got.outputs[0], rec->queries[0].cli_stdout);
}

}  // namespace
}  // namespace azure_pricing::conformance::live
