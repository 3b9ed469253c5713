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

namespace azure_pricing::conformance::backend {
namespace {

using ::testing::IsEmpty;

TEST(AdapterSuiteTest, TheBubblewrapAdapterPassesEveryProbe) {
  CITES("HOST-012", "HOST-013", "HOST-014", "HOST-008");
  const StatusOr<testing::SuiteSetup> setup = testing::PrepareSuite(/*real_cli=*/true);
  ASSERT_THAT(setup.status(), IsOk());
  StatusOr<std::unique_ptr<backend_protocol::AdapterBackend>> adapter =
      backend_protocol::AdapterBackend::Start(
          {base::Runfile("conformance/backend/bwrap_adapter"), "--image", setup->image},
          testing::ProcessEnvironment());
  ASSERT_THAT(adapter.status(), IsOk());
  EXPECT_EQ((*adapter)->identity().name, "bubblewrap");
  EXPECT_EQ((*adapter)->declaration().isolation, sandbox::Isolation::kContainer);
  const std::vector<ProbeResult> results = RunBackendSuite(
      **adapter,
      {.price_api = setup->api,
       .cli_kind = "the real azmcp",
       .own_processes = {(*adapter)->pid()}});
  EXPECT_THAT(testing::Failures(results), IsEmpty());
}

}  // namespace
}  // namespace azure_pricing::conformance::backend
