// The same bubblewrap backend out of process, behind bwrap_adapter and the backend protocol,
// passes every probe: what a backend in another language would go through.
#include <cstdlib>

#include "conformance/backend/protocol/client.h"
#include "conformance/backend/suite.h"
#include "conformance/backend/suite_testing.h"
#include "conformance/citations/cites.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/base/runfiles.h"
#include "ref/status/status_matchers.h"

extern char** environ;

namespace azure_pricing::conformance::backend {
namespace {

using ::testing::IsEmpty;

std::vector<std::string> Environment() {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  return env;
}

TEST(AdapterSuiteTest, TheBubblewrapAdapterPassesEveryProbe) {
  CITES("HOST-012", "HOST-013", "HOST-014", "HOST-008");
  BecomeSubreaper();
  PlantCredentialCanaries();
  const StatusOr<std::string> image = testing::TestImage(/*real_cli=*/true);
  ASSERT_THAT(image.status(), IsOk());
  const StatusOr<PriceApi> api = testing::TestPriceApi();
  ASSERT_THAT(api.status(), IsOk());
  StatusOr<std::unique_ptr<backend_protocol::AdapterBackend>> adapter =
      backend_protocol::AdapterBackend::Start(
          {base::Runfile("conformance/backend/bwrap_adapter"), "--image", *image},
          Environment());
  ASSERT_THAT(adapter.status(), IsOk());
  EXPECT_EQ((*adapter)->identity().name, "bubblewrap");
  EXPECT_EQ((*adapter)->declaration().isolation, sandbox::Isolation::kContainer);
  const std::vector<ProbeResult> results = RunBackendSuite(
      **adapter,
      {.price_api = *api, .cli_kind = "the real azmcp", .own_processes = {(*adapter)->pid()}});
  EXPECT_THAT(testing::Failures(results), IsEmpty());
}

}  // namespace
}  // namespace azure_pricing::conformance::backend
