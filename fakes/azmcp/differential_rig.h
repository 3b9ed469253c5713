// The differential rig: the scenarios of fakes/azmcp/scenarios.json, one fake price API and one
// GET-only egress proxy, and a way to run any azmcp binary against them and record what it did
// (exit code, stdout without `duration`, stderr, the upstream request sequence). The live
// differential test runs the real CLI and the fake through it; the recorded test replays the
// fake against the real CLI's recordings in fixtures/azmcp-3.0.0-beta.46-differential.
#ifndef FAKES_AZMCP_DIFFERENTIAL_RIG_H_
#define FAKES_AZMCP_DIFFERENTIAL_RIG_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace azure_pricing::fakes::azmcp {

struct Scenario {
  std::string name;
  std::string slug;  // names its recording files
  std::vector<std::string> args;
  std::string faults_json;  // empty, or a JSON array for POST /_admin/faults
  // The members that say what each fault does, in order ("status", "retry_after", "body",
  // "reset", ...), with "times" left out: it only says how often. The sampled differential
  // picks scenarios by them without reading JSON itself.
  std::vector<std::string> fault_kinds;
  // Changes to the CLI's environment: "NAME=value" sets, "NAME" alone removes. The value
  // $UNRELATED_CA names a CA file that did not sign the proxy's leaf.
  std::vector<std::string> env;
  // When positive, the CLI runs under this address-space limit (RLIMIT_AS, as the bubblewrap
  // backend sets one): the .NET runtime reserves most of whatever it is given, and fails when
  // the rest is too little (docs/live-check.md).
  int64_t address_space_mib = 0;
};

// gtest prints a parameter by its name instead of its bytes.
inline void PrintTo(const Scenario& s, std::ostream* os) { *os << '"' << s.name << '"'; }

struct ScenarioFile {
  int64_t catalog_seed = 0;
  int64_t catalog_items = 0;
  std::vector<Scenario> scenarios;
  std::string sha256;  // of the file's bytes; a recording names the file it was made from
};

// Reads and checks the file (unknown keys, duplicate names or slugs, wrong types): nothing on
// error, with `error` saying what and where.
std::optional<ScenarioFile> LoadScenarios(const std::string& path, std::string& error);

// "upstream 429 honours Retry-After" -> "upstream-429-honours-retry-after".
std::string Slug(const std::string& name);

struct Outcome {
  int exit_code = -1;  // 128+N for a CLI killed by signal N, as a shell and the sandbox say
  bool timed_out = false;
  std::string out;  // "duration": N and the proxy's port as PROXY_PORT
  std::string raw_out;  // stdout as printed
  std::string err;
  std::vector<std::string> requests;  // "GET /api/retail/prices?..." in order
  // Set when the rig itself failed (the fake API refused the reset or the faults): the run
  // tested nothing and must fail the test, never be compared or recorded.
  std::string rig_error;
};

// A recording is three files per scenario: SLUG.stdout (or SLUG.stdout.gz when large), SLUG.stderr
// and SLUG.json with the name, exit code and requests.
bool WriteRecording(const std::string& dir, const Scenario& s, const Outcome& o, std::string& error);
std::optional<Outcome> ReadRecording(const std::string& dir, const Scenario& s, std::string& error);

// False in an AddressSanitizer build, whose programs (the fake among them) reserve terabytes of
// shadow memory at start: no address-space limit lets them run, so a scenario with
// address_space_mib says nothing there and is skipped.
bool AddressSpaceLimitsApply();

// Paths inside the test's runfiles.
std::string RunfilesPath(const std::string& workspace_relative);

// fakes/azmcp/scenarios.json from the test's runfiles, loaded once per process; `error` says why
// `file` is empty.
struct LoadedScenarios {
  ScenarioFile file;
  std::string error;
};
const LoadedScenarios& TestScenarios();

// The scenario's name as a gtest parameter name: its slug with '_' for '-'.
std::string TestNameOf(const Scenario& s);

class DifferentialRig {
 public:
  // Starts the fake API with the file's generated catalog and a proxy in front of it.
  explicit DifferentialRig(const ScenarioFile& file);
  ~DifferentialRig();
  DifferentialRig(const DifferentialRig&) = delete;
  DifferentialRig& operator=(const DifferentialRig&) = delete;

  bool ok() const { return ok_; }
  // Runs `binary pricing get ARGS` with HTTPS_PROXY and SSL_CERT_FILE set, after resetting the
  // fake API and queueing the scenario's faults. The scenario's env changes apply, then
  // `env_overrides` (same form), e.g. a proxy that refuses connections.
  Outcome Run(const std::string& binary, const Scenario& s,
              const std::vector<std::string>& env_overrides = {});
  // A CA file that is valid but did not sign the egress proxy's leaf.
  std::string unrelated_ca_file() const;

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
  bool ok_ = false;
};

}  // namespace azure_pricing::fakes::azmcp

#endif  // FAKES_AZMCP_DIFFERENTIAL_RIG_H_
