#include "conformance/backend/backend_gate.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "conformance/backend/price_api_process.h"
#include "conformance/backend/protocol/client.h"
#include "conformance/backend/suite.h"
#include "ref/base/paths.h"
#include "ref/base/runfiles.h"
#include "ref/sandbox/bwrap/bwrap_backend.h"
#include "ref/sandbox/bwrap/image.h"

extern char** environ;

namespace azure_pricing::conformance::backend {
namespace {

namespace fs = std::filesystem;
using base::Runfile;

// Removes the run's work directory however the run ends.
struct WorkDir {
  std::string path;
  ~WorkDir() {
    std::error_code ignored;
    if (!path.empty()) fs::remove_all(path, ignored);
  }
};

std::string MakeWorkDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/azure-pricing-suite-XXXXXX";
  return mkdtemp(pattern.data()) == nullptr ? "" : pattern;
}

struct BackendUnderTest {
  std::unique_ptr<sandbox::Backend> backend;
  std::string description;
  std::set<pid_t> own;
  std::string cli_kind;
  std::string problem;  // set when there is no backend to test
};

BackendUnderTest InProcess(const BackendGateOptions& options, const std::string& work) {
  BackendUnderTest out;
  // No CLI named: the fake from the runfiles, so the suite needs nothing outside them (a
  // remote-execution worker has no npm cache). A CLI named but not there is a problem.
  const bool real = !options.azmcp.empty();
  if (real && access(options.azmcp.c_str(), X_OK) != 0) {
    out.problem = "the azmcp named by AZURE_PRICING_AZMCP or --azmcp is not an executable file; "
                  "run the gate through tools/bazel, which installs it";
    return out;
  }
  const std::string cli = real ? options.azmcp : Runfile("fakes/azmcp/azmcp");
  const std::string image = work + "/image";
  const Status made = sandbox::bwrap::AssembleImage(
      {.azmcp = cli,
       .dotnet_bundle = real,
       .sandbox_init = Runfile("ref/sandbox/bwrap/sandbox_init"),
       .probe = Runfile("conformance/backend/probe/sandbox_probe"),
       .provenance = real ? cli : "//fakes/azmcp (no real azmcp named)"},
      image);
  if (!made.ok()) {
    out.problem = "cannot assemble the image: " + made.message();
    return out;
  }
  sandbox::bwrap::BwrapOptions bwrap;
  bwrap.image_dir = image;
  bwrap.bwrap_path = options.bwrap;
  bwrap.egress_log = [](const std::string&) {};
  StatusOr<std::unique_ptr<sandbox::bwrap::BwrapBackend>> backend =
      sandbox::bwrap::BwrapBackend::Create(bwrap);
  if (!backend.ok()) {
    out.problem = backend.status().message();
    return out;
  }
  out.backend = std::move(*backend);
  out.description = "bubblewrap (in process)";
  out.cli_kind = real ? "the real azmcp" : "the fake azmcp";
  return out;
}

BackendUnderTest Adapter(const BackendGateOptions& options) {
  BackendUnderTest out;
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  std::vector<std::string> argv = options.adapter;
  argv[0] = base::ResolveProgram(argv[0]);
  // `bazel run` starts the gate in its runfiles; the adapter's relative paths mean the user's
  // directory.
  StatusOr<std::unique_ptr<backend_protocol::AdapterBackend>> adapter =
      backend_protocol::AdapterBackend::Start(argv, env, {}, base::CallerDirectory());
  if (!adapter.ok()) {
    out.problem = "the adapter did not start: " + adapter.status().message();
    return out;
  }
  out.own.insert((*adapter)->pid());
  out.description = (*adapter)->identity().name + " " + (*adapter)->identity().version +
                    " (adapter: " + options.adapter.front() + ")";
  out.cli_kind = "the adapter's azmcp";
  out.backend = std::move(*adapter);
  return out;
}

}  // namespace

BackendGateResult RunBackendGate(const BackendGateOptions& options) {
  BackendGateResult result;
  BecomeSubreaper();
  PlantCredentialCanaries();
  WorkDir work{MakeWorkDir()};
  StatusOr<std::unique_ptr<PriceApiProcess>> api =
      work.path.empty() ? StatusOr<std::unique_ptr<PriceApiProcess>>(
                              Status(Outcome::kFailed, kPriceApiFailed, "no work directory"))
                        : PriceApiProcess::Start(Runfile("fakes/prices_server/prices_server"),
                                                 kSuiteCatalog, work.path);
  BackendUnderTest under =
      !api.ok() ? BackendUnderTest{.problem = api.status().message()}
                : (options.adapter.empty() ? InProcess(options, work.path) : Adapter(options));
  std::printf("backend suite\n");
  if (!under.problem.empty()) {
    std::printf("  the backend suite did not run: %s\n", under.problem.c_str());
    result.problem = under.problem;
    return result;
  }
  std::printf("  backend: %s\n", under.description.c_str());
  SuiteOptions suite{.price_api = (*api)->api(), .cli_kind = under.cli_kind, .own_processes = under.own};
  suite.progress = [](const std::string& line) {
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);  // probes take seconds; show each as it ends
  };
  for (const ProbeResult& r : RunBackendSuite(*under.backend, suite)) {
    ++(r.passed ? result.passed : result.failed);
    result.probes.push_back(r);
  }
  std::printf("  %-36s %3d passed, %d failed\n", "backend probes", result.passed, result.failed);
  return result;
}

std::vector<std::string> SplitCommandLine(const std::string& line, std::string* problem) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (char c : line) {
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else {
        word += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote != 0) {
    *problem = "an unclosed quote in the command";
    return {};
  }
  if (in_word) words.push_back(word);
  if (words.empty()) *problem = "an empty command";
  return words;
}

}  // namespace azure_pricing::conformance::backend
