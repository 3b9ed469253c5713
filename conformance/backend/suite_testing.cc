#include "conformance/backend/suite_testing.h"

#include <unistd.h>

#include <cstdlib>
#include <memory>

#include "ref/base/runfiles.h"
#include "ref/base/test_tmpdir.h"
#include "ref/sandbox/bwrap/image.h"
#include "ref/status/status_macros.h"

extern char** environ;

namespace azure_pricing::conformance::backend::testing {

StatusOr<std::string> TestImage(bool real_cli) {
  const std::string dir = base::TestTmpDir() +
                          (real_cli ? "/image-real" : "/image-fake");
  if (access((dir + "/IMAGE.json").c_str(), F_OK) == 0) return dir;
  const char* azmcp = std::getenv("AZURE_PRICING_AZMCP");
  if (real_cli && (azmcp == nullptr || access(azmcp, X_OK) != 0)) {
    return Status(Outcome::kFailed, "no_real_azmcp",
                  "AZURE_PRICING_AZMCP does not name the real azmcp; run through tools/bazel");
  }
  const Status made = sandbox::bwrap::AssembleImage(
      {.azmcp = real_cli ? std::string(azmcp) : base::Runfile("fakes/azmcp/azmcp"),
       .dotnet_bundle = real_cli,
       .sandbox_init = base::Runfile("ref/sandbox/bwrap/sandbox_init"),
       .probe = base::Runfile("conformance/backend/probe/sandbox_probe"),
       .provenance = real_cli ? "AZURE_PRICING_AZMCP (test)" : "//fakes/azmcp (test)"},
      dir);
  if (!made.ok()) return made;
  return dir;
}

StatusOr<PriceApi> TestPriceApi() {
  static std::unique_ptr<PriceApiProcess>* api = nullptr;
  if (api == nullptr) {
    ASSIGN_OR_RETURN(std::unique_ptr<PriceApiProcess> started,
                     PriceApiProcess::Start(base::Runfile("fakes/prices_server/prices_server"),
                                            kSuiteCatalog, base::TestTmpDir()));
    api = new std::unique_ptr<PriceApiProcess>(std::move(started));
  }
  return (*api)->api();
}

StatusOr<SuiteSetup> PrepareSuite(bool real_cli) {
  BecomeSubreaper();
  PlantCredentialCanaries();
  ASSIGN_OR_RETURN(std::string image, TestImage(real_cli));
  ASSIGN_OR_RETURN(PriceApi api, TestPriceApi());
  return SuiteSetup{image, api};
}

std::vector<std::string> ProcessEnvironment() {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  return env;
}

std::vector<std::string> Failures(const std::vector<ProbeResult>& results) {
  std::vector<std::string> out;
  for (const ProbeResult& r : results) {
    if (!r.passed && r.applicable) out.push_back(r.id + ": " + r.detail);
  }
  return out;
}

}  // namespace azure_pricing::conformance::backend::testing
