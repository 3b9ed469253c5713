// The same bubblewrap backend out of process, behind bwrap_adapter and the backend protocol,
// passes every probe: what a backend in another language would go through.
#include <cstdlib>
#include <set>

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
  const AdapterCommand command{
      {base::Runfile("conformance/backend/bwrap_adapter"), "--image", setup->image},
      testing::ProcessEnvironment(),
      ""};
  StatusOr<std::unique_ptr<conformance::backend::protocol::AdapterBackend>> adapter =
      conformance::backend::protocol::AdapterBackend::Start(command.argv, command.env);
  ASSERT_THAT(adapter.status(), IsOk());
  EXPECT_EQ((*adapter)->identity().name, "bubblewrap");
  EXPECT_EQ((*adapter)->declaration().isolation, sandbox::Isolation::kContainer);
  const std::vector<ProbeResult> results = RunBackendSuite(
      **adapter,
      {.price_api = setup->api,
       .adapter = command,
       .cli_kind = "the real azmcp",
       .own_processes = {(*adapter)->pid()}});
  EXPECT_THAT(results, ::testing::SizeIs(BackendProbes().size()));
  EXPECT_THAT(testing::Failures(results), IsEmpty());
  // Every probe applies to the reference: it speaks the protocol and declares closed egress.
  for (const ProbeResult& r : results) EXPECT_TRUE(r.applicable) << r.id << ": " << r.detail;
}

// The protocol probes judge the protocol alone: PROTOCOL.md's Python skeleton, which sandboxes
// nothing, answers every line as the protocol says.
TEST(AdapterSuiteTest, TheExampleAdapterPassesTheProtocolProbes) {
  CITES("PROFILE-015", "HOST-006");
  const StatusOr<testing::SuiteSetup> setup = testing::PrepareSuite(/*real_cli=*/false);
  ASSERT_THAT(setup.status(), IsOk());
  const AdapterCommand command{
      {"/usr/bin/python3", base::Runfile("conformance/backend/protocol/example_adapter.py")},
      {"PATH=/usr/bin:/bin"},
      ""};
  StatusOr<std::unique_ptr<conformance::backend::protocol::AdapterBackend>> adapter =
      conformance::backend::protocol::AdapterBackend::Start(command.argv, command.env);
  ASSERT_THAT(adapter.status(), IsOk());
  std::set<std::string> protocol;
  for (const ProbeInfo& p : BackendProbes()) {
    if (p.id.rfind("protocol.", 0) == 0) protocol.insert(p.id);
  }
  const std::vector<ProbeResult> results = RunBackendSuite(
      **adapter, {.price_api = setup->api,
                  .adapter = command,
                  .own_processes = {(*adapter)->pid()},
                  .only = protocol});
  EXPECT_EQ(results.size(), protocol.size());
  EXPECT_THAT(testing::Failures(results), IsEmpty());
}

}  // namespace
}  // namespace azure_pricing::conformance::backend
