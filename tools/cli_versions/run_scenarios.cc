// run_scenarios: every scenario of fakes/azmcp/scenarios.json through one azmcp binary, recorded
// as the differential rig records the real CLI (fixtures/azmcp-VERSION-differential's format):
// the fake price API and the GET-only egress proxy the differential test uses, one run per
// scenario. tools/cli_diff runs it once per CLI version and compares the two folders.
//
//   run_scenarios --azmcp PATH --out DIR
//
// Runs from its runfiles root (the scenarios and the response file are read from there); a
// progress line every 20 scenarios on stderr. Exit 0 every scenario recorded, 1 the rig failed
// or a scenario could not be recorded, 64 usage.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "fakes/azmcp/differential_rig.h"

namespace azure_pricing::fakes::azmcp {
namespace {

constexpr int kExitUsage = 64;
constexpr char kUsage[] = "usage: run_scenarios --azmcp PATH --out DIR\n";

int Usage(const std::string& problem) {
  std::fprintf(stderr, "run_scenarios: %s\n%s", problem.c_str(), kUsage);
  return kExitUsage;
}

int Fail(const std::string& problem) {
  std::fprintf(stderr, "run_scenarios: %s\n", problem.c_str());
  return 1;
}

int RunAll(const std::string& azmcp, const std::string& out) {
  const LoadedScenarios& loaded = TestScenarios();
  if (!loaded.error.empty()) return Fail("cannot read the scenarios: " + loaded.error);
  DifferentialRig rig(loaded.file);
  if (!rig.ok()) return Fail("the fake price API or the egress proxy did not start");
  const std::vector<Scenario>& all = loaded.file.scenarios;
  for (size_t i = 0; i < all.size(); ++i) {
    const Scenario& s = all[i];
    const Outcome o = rig.Run(azmcp, s);
    if (!o.rig_error.empty()) return Fail("scenario \"" + s.name + "\": " + o.rig_error);
    if (o.timed_out) return Fail("scenario \"" + s.name + "\": the CLI did not finish within 60 s");
    std::string error;
    if (!WriteRecording(out, s, o, error)) return Fail("scenario \"" + s.name + "\": " + error);
    if ((i + 1) % 20 == 0 || i + 1 == all.size()) {
      std::fprintf(stderr, "run_scenarios: %zu of %zu scenarios\n", i + 1, all.size());
    }
  }
  return 0;
}

int Main(int argc, char** argv) {
  std::string azmcp;
  std::string out;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if ((flag == "--azmcp" || flag == "--out") && i + 1 < argc) {
      (flag == "--azmcp" ? azmcp : out) = argv[++i];
    } else {
      return Usage("unknown or incomplete argument: " + flag);
    }
  }
  if (azmcp.empty() || out.empty()) return Usage("--azmcp and --out are required");
  if (access(azmcp.c_str(), X_OK) != 0) return Usage("not an executable: " + azmcp);
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) return Fail("cannot create " + out + ": " + ec.message());
  return RunAll(azmcp, out);
}

}  // namespace
}  // namespace azure_pricing::fakes::azmcp

int main(int argc, char** argv) { return azure_pricing::fakes::azmcp::Main(argc, argv); }
