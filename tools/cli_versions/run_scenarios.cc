// run_scenarios: every scenario of fakes/azmcp/scenarios.json through one azmcp binary, recorded
// as the differential rig records the real CLI (fixtures/azmcp-VERSION-differential's format):
// the fake price API and the GET-only egress proxy the differential test uses, one run per
// scenario. tools/cli_diff runs it once per CLI version and compares the two folders.
//
//   run_scenarios --azmcp PATH --out DIR [--shard INDEX/COUNT]
//
// --shard runs the scenarios whose place in the file (from 0) is INDEX modulo COUNT, so that
// COUNT runs take the whole set between them (a sharded test's share). Runs from its runfiles
// root (the scenarios and the response file are read from there); a progress line every 20
// scenarios on stderr. Exit 0 every scenario recorded, 1 the rig failed or a scenario could not
// be recorded, 64 usage.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "fakes/azmcp/differential_rig.h"

namespace azure_pricing::fakes::azmcp {
namespace {

constexpr int kExitUsage = 64;
constexpr char kUsage[] = "usage: run_scenarios --azmcp PATH --out DIR [--shard INDEX/COUNT]\n";

int Usage(const std::string& problem) {
  std::fprintf(stderr, "run_scenarios: %s\n%s", problem.c_str(), kUsage);
  return kExitUsage;
}

int Fail(const std::string& problem) {
  std::fprintf(stderr, "run_scenarios: %s\n", problem.c_str());
  return 1;
}

struct Shard {
  size_t index = 0;
  size_t count = 1;
};

// "INDEX/COUNT" with INDEX < COUNT, both decimal.
bool ParseShard(const std::string& text, Shard& shard) {
  const size_t slash = text.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) return false;
  const std::string index = text.substr(0, slash);
  const std::string count = text.substr(slash + 1);
  const auto digits = [](const std::string& s) {
    return s.size() <= 4 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (!digits(index) || !digits(count)) return false;
  shard.index = std::stoul(index);
  shard.count = std::stoul(count);
  return shard.count > 0 && shard.index < shard.count;
}

int RunAll(const std::string& azmcp, const std::string& out, const Shard& shard) {
  const LoadedScenarios& loaded = TestScenarios();
  if (!loaded.error.empty()) return Fail("cannot read the scenarios: " + loaded.error);
  DifferentialRig rig(loaded.file);
  if (!rig.ok()) return Fail("the fake price API or the egress proxy did not start");
  const std::vector<Scenario>& all = loaded.file.scenarios;
  std::vector<const Scenario*> mine;
  for (size_t i = shard.index; i < all.size(); i += shard.count) mine.push_back(&all[i]);
  for (size_t i = 0; i < mine.size(); ++i) {
    const Scenario& s = *mine[i];
    const Outcome o = rig.Run(azmcp, s);
    if (!o.rig_error.empty()) return Fail("scenario \"" + s.name + "\": " + o.rig_error);
    if (o.timed_out) return Fail("scenario \"" + s.name + "\": the CLI did not finish within 60 s");
    std::string error;
    if (!WriteRecording(out, s, o, error)) return Fail("scenario \"" + s.name + "\": " + error);
    if ((i + 1) % 20 == 0 || i + 1 == mine.size()) {
      std::fprintf(stderr, "run_scenarios: %zu of %zu scenarios\n", i + 1, mine.size());
    }
  }
  return 0;
}

int Main(int argc, char** argv) {
  std::string azmcp;
  std::string out;
  Shard shard;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if ((flag == "--azmcp" || flag == "--out") && i + 1 < argc) {
      (flag == "--azmcp" ? azmcp : out) = argv[++i];
    } else if (flag == "--shard" && i + 1 < argc) {
      if (!ParseShard(argv[++i], shard)) return Usage("--shard takes INDEX/COUNT, INDEX < COUNT");
    } else {
      return Usage("unknown or incomplete argument: " + flag);
    }
  }
  if (azmcp.empty() || out.empty()) return Usage("--azmcp and --out are required");
  if (access(azmcp.c_str(), X_OK) != 0) return Usage("not an executable: " + azmcp);
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) return Fail("cannot create " + out + ": " + ec.message());
  return RunAll(azmcp, out, shard);
}

}  // namespace
}  // namespace azure_pricing::fakes::azmcp

int main(int argc, char** argv) { return azure_pricing::fakes::azmcp::Main(argc, argv); }
