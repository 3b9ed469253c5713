// zone_drift: the zone-drift report (conformance/live/zone_drift.h) of a live or recorded run:
// the regions and zone names the price list uses against the bundled billing-zone mapping.
//   zone_drift --cli-output FILE [--cli-output FILE ...]   CLI stdout files
//   zone_drift --recording DIR                             every DIR/cli/*.json (the recorder's)
//   zone_drift --dry-run                                   the bundled recorded run
// Exit status: 0 the mapping is up to date for what was seen, 1 it needs an update, 2 nothing
// could be judged, 64 a usage error (including an input that cannot be read).
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "azmcp/cli_version.h"
#include "conformance/live/zone_drift.h"
#include "ref/base/files.h"
#include "ref/base/flags.h"
#include "ref/base/main_guard.h"
#include "ref/base/runfiles.h"
#include "ref/status/status.h"
#include "ref/zones/zones.h"

namespace azure_pricing::conformance::live {
namespace {

constexpr int kExitUsage = 64;

// Where --dry-run reads: the live check's recorded run (//fixtures:live_check_dry_run).
constexpr char kDryRunRecording[] = "fixtures/azmcp-" AZMCP_CLI_VERSION "-dry-run";

constexpr char kUsage[] =
    "usage: zone_drift (--cli-output FILE ... | --recording DIR | --dry-run) [--json]\n"
    "Compares the regions and zone names of a live or recorded run's price rows with the\n"
    "bundled billing-zone mapping.\n"
    "  --cli-output FILE  a CLI stdout file (repeatable)\n"
    "  --recording DIR    every DIR/cli/*.json, as the recorder writes them\n"
    "  --dry-run          the bundled recorded run of the live check\n"
    "  --json             print JSON instead of a table\n"
    "Exit status: 0 the mapping is up to date for what was seen, 1 it needs an update,\n"
    "2 nothing could be judged (no usable rows), 64 a usage error or an unreadable input.\n";

struct Options {
  bool help = false;
  bool as_json = false;
  bool dry_run = false;
  std::vector<std::string> cli_outputs;
  std::optional<std::string> recording;
};

// The command line as Options; nullopt with `problem` set to the line for a person.
std::optional<Options> ParseOptions(int argc, char** argv, std::string* problem) {
  const StatusOr<base::Flags> flags =
      base::Flags::ParseOrExplain(argc, argv,
                                  {{"--help", base::FlagKind::kSwitch},
                                   {"--json", base::FlagKind::kSwitch},
                                   {"--dry-run", base::FlagKind::kSwitch},
                                   {"--cli-output", base::FlagKind::kRepeatable},
                                   {"--recording", base::FlagKind::kValue}},
                                  problem);
  if (!flags.ok()) return std::nullopt;
  Options o{flags->Has("--help"), flags->Has("--json"), flags->Has("--dry-run"),
            flags->Values("--cli-output"), flags->Value("--recording")};
  const int sources = (o.cli_outputs.empty() ? 0 : 1) + (o.recording ? 1 : 0) + (o.dry_run ? 1 : 0);
  if (!o.help && sources != 1) {
    *problem = "give exactly one of --cli-output, --recording and --dry-run";
    return std::nullopt;
  }
  return o;
}

// One recording's files, named as the recorder lays them out (cli/NAME.json).
std::optional<std::vector<CliOutput>> ListRecording(const std::string& flag,
                                                    const std::string& dir,
                                                    std::string* problem) {
  const StatusOr<std::vector<std::string>> files = RecordingCliFiles(dir);
  if (!files.ok()) {
    *problem = flag + " " + dir + ": " + files.status().message();
    return std::nullopt;
  }
  std::vector<CliOutput> outputs;
  for (const std::string& path : *files) {
    outputs.push_back({path, ""});
  }
  return outputs;
}

// The outputs to read, each with its name and still without its text.
std::optional<std::vector<CliOutput>> Inputs(const Options& o, std::string* problem) {
  if (o.dry_run) {
    return ListRecording("--dry-run's recording", base::Runfile(kDryRunRecording), problem);
  }
  if (o.recording) return ListRecording("--recording", *o.recording, problem);
  std::vector<CliOutput> outputs;
  for (const std::string& path : o.cli_outputs) outputs.push_back({path, ""});
  return outputs;
}

// Reads every output; a recording's files are named cli/NAME.json, a --cli-output as given.
bool ReadAll(const Options& o, std::vector<CliOutput>* outputs, std::string* problem) {
  for (CliOutput& output : *outputs) {
    StatusOr<std::string> text = base::ReadFile(output.name);
    if (!text.ok()) {
      *problem = (o.cli_outputs.empty() ? "" : "--cli-output ") + output.name + ": " +
                 text.status().message();
      return false;
    }
    output.text = std::move(text).value();
    if (o.cli_outputs.empty()) {
      output.name = "cli/" + std::filesystem::path(output.name).filename().string();
    }
  }
  return true;
}

int Main(int argc, char** argv) {
  std::string problem;
  const std::optional<Options> options = ParseOptions(argc, argv, &problem);
  if (!options) {
    std::fprintf(stderr, "zone_drift: %s\n%s", problem.c_str(), kUsage);
    return kExitUsage;
  }
  if (options->help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  std::optional<std::vector<CliOutput>> outputs = Inputs(*options, &problem);
  if (!outputs || !ReadAll(*options, &*outputs, &problem)) {
    std::fprintf(stderr, "zone_drift: %s\n", problem.c_str());
    return kExitUsage;
  }
  const DriftReport report = BuildDriftReport(*outputs, zones::ZoneTable::Bundled());
  const std::string text = options->as_json ? FormatDriftJson(report) : FormatDriftTable(report);
  std::fputs(text.c_str(), stdout);
  return DriftExitStatus(report);
}

}  // namespace
}  // namespace azure_pricing::conformance::live

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain(
      "zone_drift", [&] { return azure_pricing::conformance::live::Main(argc, argv); });
}
