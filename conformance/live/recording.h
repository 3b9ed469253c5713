// Recordings of live-check runs: what the CLI printed and what the upstream answered (captured at
// the egress proxy), with provenance, normalised only by named transformers. A recording
// replays: the fake price API answers its recorded exchanges (prices_server --replay), and the
// same CLI given the same query prints the same output.
//
// Layout of a recording directory (recording.json holds the index):
//   PROVENANCE.md          where, when, which CLI, which command, which transformers
//   recording.json         {"format":1, "mode", "host", "cli", "cli_version", "recorded_at",
//                           "command", "transformers":[...], "queries":[{"id", "arguments",
//                           "argv", "exit_code", "cli_stdout", "cli_stderr", "upstream":
//                           [{"target", "status", "body"}]}]}  (file names relative to the dir)
//   cli/ID.json            the CLI's stdout after the transformers
//   cli/ID.stderr          its stderr, when not empty
//   upstream/ID-N.body     the N-th response body of the query, as received
#ifndef CONFORMANCE_LIVE_RECORDING_H_
#define CONFORMANCE_LIVE_RECORDING_H_

#include <string>
#include <vector>

#include "conformance/live/live_run.h"
#include "ref/status/status.h"

namespace azure_pricing::conformance::live {

// Program errors (ProgramError()), each with a fixed message.
inline constexpr Reason kRecordingExists = "recording_exists";
inline constexpr Reason kTransformerDidNotApply = "transformer_did_not_apply";
inline constexpr Reason kRecordingWriteFailed = "recording_write_failed";
inline constexpr Reason kRecordingUnreadable = "recording_unreadable";
inline constexpr Reason kNothingToRecord = "nothing_to_record";

// The one transformer: the envelope's last member "duration" (the CLI's own timing, different on
// every run) is removed. It applies only where the CLI's layout puts it; anywhere else the
// recorder stops rather than guess.
inline constexpr char kDurationRemoved[] = "cli-stdout: duration removed";
StatusOr<std::string> RemoveDuration(const std::string& cli_stdout);

struct RecordedExchange {
  std::string target;
  int status = 0;
  std::string body;
};

struct RecordedQuery {
  std::string id;
  std::string arguments;  // JSON text
  std::vector<std::string> argv;
  int exit_code = 0;
  // The check met its expectation in the recorded run; what lets
  // tools/fixtures/import_live_recording.py clear a check's "unverified" mark.
  bool passed = false;
  std::string cli_stdout;  // transformed
  std::string cli_stderr;
  std::vector<RecordedExchange> upstream;
};

struct Recording {
  std::string mode, host, cli, cli_version, recorded_at, command;
  std::vector<std::string> transformers;
  std::vector<RecordedQuery> queries;
};

// The run's queries that ran, transformed. A query whose upstream body could not be read, or
// whose output the transformer does not fit, stops the recording.
StatusOr<Recording> RecordingFromReport(const LiveReport& report, const std::string& command);

// Writes `recording` into `dir`, which must not exist (kRecordingExists otherwise).
Status WriteRecording(const Recording& recording, const std::string& dir);
StatusOr<Recording> ReadRecording(const std::string& dir);

// The replay file prices_server --replay reads: every recorded exchange, one per line.
std::string ReplayJsonl(const Recording& recording);

}  // namespace azure_pricing::conformance::live

#endif  // CONFORMANCE_LIVE_RECORDING_H_
