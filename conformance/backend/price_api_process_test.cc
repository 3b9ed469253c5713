// The fake price API as the gate starts it: a start that fails says how, with no output of the
// server's in the message.
#include "conformance/backend/price_api_process.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ref/base/runfiles.h"
#include "ref/base/test_tmpdir.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::backend {
namespace {

using ::testing::HasSubstr;

TEST(PriceApiProcessTest, StartsAndSaysItsPortAndCa) {
  StatusOr<std::unique_ptr<PriceApiProcess>> api = PriceApiProcess::Start(
      base::Runfile("fakes/prices_server/prices_server"), kSuiteCatalog, base::TestTmpDir());
  ASSERT_THAT(api.status(), IsOk());
  EXPECT_GT((*api)->api().port, 0);
  EXPECT_THAT((*api)->api().ca_pem, HasSubstr("BEGIN CERTIFICATE"));
  EXPECT_THAT(ReceivedMethods((*api)->api()), IsOkAndHolds(::testing::IsEmpty()));
}

TEST(PriceApiProcessTest, AServerThatExitsIsNamedAsOne) {
  EXPECT_THAT(PriceApiProcess::Start("/bin/false", kSuiteCatalog, base::TestTmpDir()).status(),
              ProgramErrorIs(kPriceApiFailed, "the fake price API did not start: it exited"));
}

}  // namespace
}  // namespace azure_pricing::conformance::backend
