#include "conformance/backend/backend_gate.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>

#include "azmcp/cli_version.h"
#include "conformance/backend/price_api_process.h"
#include "conformance/backend/protocol/client.h"
#include "conformance/backend/suite.h"
#include "ref/base/files.h"
#include "ref/base/paths.h"
#include "ref/base/runfiles.h"
#include "ref/base/scoped_temp_dir.h"
#include "ref/sandbox/bwrap/bwrap_backend.h"
#include "ref/sandbox/bwrap/image.h"

extern char** environ;

namespace azure_pricing::conformance::backend {
namespace {

using base::Runfile;

struct BackendUnderTest {
  std::unique_ptr<sandbox::Backend> backend;
  std::string description;
  std::set<pid_t> own;
  std::string cli_kind;
  AdapterCommand command;  // how the protocol probes start another instance
  std::string problem;     // set when there is no backend to test
};

// The suite's image, what every adapter is told about it (PROTOCOL.md, "The image"), and the
// CLI in it: the real azmcp whenever one is installed (named by --azmcp or AZURE_PRICING_AZMCP,
// else where tools/bazel installs it), the fake from the runfiles only when none is, so the
// suite needs nothing outside them (a remote-execution worker has no npm cache) and says which.
struct SuiteImage {
  std::string dir;
  std::string azmcp;
  std::string cli_kind;
  std::string problem;
};

// tools/image/azmcp-version's current version, as tools/bazel names its folder.
constexpr char kPinnedAzmcp[] = "azmcp-" AZMCP_CLI_VERSION;

// Where tools/bazel installs the pinned azmcp: $XDG_CACHE_HOME, else $HOME/.cache.
std::string InstalledAzmcp() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::string cache = xdg != nullptr && xdg[0] == '/' ? xdg
                            : home != nullptr && home[0] == '/' ? std::string(home) + "/.cache"
                                                                : "";
  if (cache.empty()) return "";
  return cache + "/azure-pricing-conformance/" + kPinnedAzmcp + "/package/dist/azmcp";
}

// The npm package's version beside the real azmcp (dist/../package.json, in the npm cache and
// in @azmcp alike), or "of unknown version".
std::string AzmcpVersion(const std::string& azmcp) {
  const std::string dist = azmcp.substr(0, azmcp.rfind('/'));
  const StatusOr<std::string> text = base::ReadFile(dist.substr(0, dist.rfind('/')) + "/package.json");
  const nlohmann::json package =
      text.ok() ? nlohmann::json::parse(*text, nullptr, false) : nlohmann::json();
  if (!package.is_object() || !package.contains("version") || !package["version"].is_string()) {
    return "of unknown version";
  }
  return package["version"].get<std::string>();
}

SuiteImage AssembleSuiteImage(const BackendGateOptions& options, const std::string& work) {
  std::string azmcp = options.azmcp;
  const std::string installed = InstalledAzmcp();
  if (azmcp.empty() && !installed.empty() && access(installed.c_str(), X_OK) == 0) {
    azmcp = installed;
  }
  const bool real = !azmcp.empty();
  if (real && access(azmcp.c_str(), X_OK) != 0) {
    return {.problem = "the azmcp named by AZURE_PRICING_AZMCP or --azmcp is not an executable "
                       "file; run the gate through tools/bazel, which installs it"};
  }
  SuiteImage image{
      .dir = work + "/image",
      .azmcp = real ? azmcp : Runfile("fakes/azmcp/azmcp"),
      .cli_kind = real ? "the real azmcp " + AzmcpVersion(azmcp)
                       : "the fake azmcp (//fakes/azmcp: no real azmcp is installed" +
                             (installed.empty() ? std::string() : " at " + installed) +
                             "; tools/bazel installs it)"};
  const Status made = sandbox::bwrap::AssembleImage(
      {.azmcp = image.azmcp,
       .dotnet_bundle = real,
       .sandbox_init = Runfile("ref/sandbox/bwrap/sandbox_init"),
       .probe = Runfile("conformance/backend/probe/sandbox_probe"),
       .provenance = real ? image.azmcp : "//fakes/azmcp (no real azmcp installed)"},
      image.dir);
  if (!made.ok()) image.problem = "cannot assemble the image: " + made.message();
  return image;
}

// The gate's environment plus where the image and its two programs are.
std::vector<std::string> AdapterEnvironment(const SuiteImage& image) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    if (entry.rfind("AZURE_PRICING_IMAGE_DIR=", 0) == 0 ||
        entry.rfind("AZURE_PRICING_SANDBOX_PROBE=", 0) == 0 ||
        entry.rfind("AZURE_PRICING_AZMCP=", 0) == 0) {
      continue;
    }
    env.push_back(entry);
  }
  env.push_back("AZURE_PRICING_IMAGE_DIR=" + image.dir);
  env.push_back("AZURE_PRICING_SANDBOX_PROBE=" + Runfile("conformance/backend/probe/sandbox_probe"));
  // The program the image holds, whatever the gate's own environment named: they never differ.
  env.push_back("AZURE_PRICING_AZMCP=" + image.azmcp);
  return env;
}

BackendUnderTest StartAdapter(std::vector<std::string> argv, std::vector<std::string> env,
                              const std::string& directory,
                              const conformance::line_protocol::LineObserver& observer) {
  BackendUnderTest out;
  StatusOr<std::unique_ptr<conformance::backend::protocol::AdapterBackend>> adapter =
      conformance::backend::protocol::AdapterBackend::Start(argv, env, {}, directory, observer);
  if (!adapter.ok()) {
    out.problem = "the adapter did not start: " + adapter.status().message();
    return out;
  }
  out.own.insert((*adapter)->pid());
  out.description = (*adapter)->identity().name + " " + (*adapter)->identity().version;
  out.command = {std::move(argv), std::move(env), directory};
  out.backend = std::move(*adapter);
  return out;
}

// The reference: the bubblewrap backend through its own adapter, held to the same protocol
// checks as any other.
BackendUnderTest Reference(const BackendGateOptions& options, const SuiteImage& image) {
  std::vector<std::string> argv = {Runfile("conformance/backend/bwrap_adapter"), "--image",
                                   image.dir};
  if (!options.bwrap.empty()) argv.insert(argv.end(), {"--bwrap", options.bwrap});
  BackendUnderTest out =
      StartAdapter(argv, AdapterEnvironment(image), "", options.protocol_observer);
  out.description += " (the reference: bubblewrap through //conformance/backend:bwrap_adapter)";
  out.cli_kind = image.cli_kind;
  return out;
}

BackendUnderTest Adapter(const BackendGateOptions& options, const SuiteImage& image) {
  std::vector<std::string> argv = options.adapter;
  argv[0] = base::ResolveProgram(argv[0]);
  // `bazel run` starts the gate in its runfiles; the adapter's relative paths mean the user's
  // directory.
  BackendUnderTest out = StartAdapter(argv, AdapterEnvironment(image), base::CallerDirectory(),
                                      options.protocol_observer);
  out.description += " (adapter: " + options.adapter.front() + ")";
  out.cli_kind = "the image's azmcp, " + image.cli_kind;
  return out;
}

BackendUnderTest Start(const BackendGateOptions& options, const std::string& work) {
  const SuiteImage image = AssembleSuiteImage(options, work);
  if (!image.problem.empty()) return {.problem = image.problem};
  return options.adapter.empty() ? Reference(options, image) : Adapter(options, image);
}

}  // namespace

BackendGateResult RunBackendGate(const BackendGateOptions& options) {
  BackendGateResult result;
  BecomeSubreaper();
  PlantCredentialCanaries();
  // Removed however the run ends, after the API and the backend that use it have stopped.
  const StatusOr<base::ScopedTempDir> work = base::ScopedTempDir::Make("azure-pricing-suite");
  StatusOr<std::unique_ptr<PriceApiProcess>> api =
      !work.ok() ? StatusOr<std::unique_ptr<PriceApiProcess>>(work.status())
                 : PriceApiProcess::Start(Runfile("fakes/prices_server/prices_server"),
                                          kSuiteCatalog, work->path());
  BackendUnderTest under = !api.ok() ? BackendUnderTest{.problem = api.status().message()}
                                     : Start(options, work->path());
  std::printf("backend suite\n");
  if (!under.problem.empty()) {
    std::printf("  the backend suite did not run: %s\n", under.problem.c_str());
    result.problem = under.problem;
    return result;
  }
  std::printf("  backend: %s\n", under.description.c_str());
  result.description = under.description;
  SuiteOptions suite{.price_api = (*api)->api(),
                     .adapter = under.command,
                     .cli_kind = under.cli_kind,
                     .own_processes = under.own,
                     .only = options.only};
  suite.progress = [](const std::string& line) {
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);  // probes take seconds; show each as it ends
  };
  for (const ProbeResult& r : RunBackendSuite(*under.backend, suite)) {
    if (!r.applicable) {
      ++result.not_applicable;
    } else {
      ++(r.passed ? result.passed : result.failed);
    }
    result.probes.push_back(r);
  }
  std::printf("  %-36s %3d passed, %d failed, %d not applicable\n", "backend probes",
              result.passed, result.failed, result.not_applicable);
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
