// What the backend suite's own tests share: an image assembled in TEST_TMPDIR (with the real CLI
// from AZURE_PRICING_AZMCP, or the fake) and the fake price API, started once per test binary.
#ifndef CONFORMANCE_BACKEND_SUITE_TESTING_H_
#define CONFORMANCE_BACKEND_SUITE_TESTING_H_

#include <string>
#include <vector>

#include "conformance/backend/price_api_process.h"
#include "conformance/backend/suite.h"

namespace azure_pricing::conformance::backend::testing {

// The image's directory; an error when it cannot be assembled (or the real CLI is missing).
StatusOr<std::string> TestImage(bool real_cli);

// The fake price API for this test binary, started on first use.
StatusOr<PriceApi> TestPriceApi();

// What every suite test starts with: this process as reaper of what backends leave behind, the
// credential canaries planted, an image and the fake price API.
struct SuiteSetup {
  std::string image;
  PriceApi api;
};
StatusOr<SuiteSetup> PrepareSuite(bool real_cli);

// This process's environment, to hand to an adapter.
std::vector<std::string> ProcessEnvironment();

// The failed probes as "id: detail" lines, for a readable assertion message; a probe that does
// not apply is not a failure.
std::vector<std::string> Failures(const std::vector<ProbeResult>& results);

}  // namespace azure_pricing::conformance::backend::testing

#endif  // CONFORMANCE_BACKEND_SUITE_TESTING_H_
