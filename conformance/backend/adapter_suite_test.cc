// The same bubblewrap backend out of process, behind bwrap_adapter and the backend protocol,
// passes every probe: what a backend in another language would go through. And the protocol
// probes judge the protocol alone.
#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "conformance/backend/protocol/client.h"
#include "conformance/backend/suite.h"
#include "conformance/backend/suite_testing.h"
#include "conformance/citations/cites.h"
#include "conformance/gate/record.h"
#include "conformance/gate/recorded_run.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/base/runfiles.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::backend {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

// The gate's backend suite over the bubblewrap adapter with the real azmcp, as
// `tools/bazel run //conformance:gate -- --suite backend` runs it: recorded once per build
// (//conformance/gate:backend_run), since docs/certify-sandbox.md's transcript shows the same run.
TEST(AdapterSuiteTest, TheGateFindsTheBubblewrapAdapterConformantWithTheRealCli) {
  CITES("HOST-012", "HOST-013", "HOST-014", "HOST-008");
  const StatusOr<RecordedGateRun> run = ReadRecordedGateRun("conformance/gate/backend_run");
  ASSERT_THAT(run.status(), IsOk()) << "build //conformance/gate:backend_run";
  EXPECT_EQ(run->exit_status, 0) << run->stdout_text;
  std::map<std::string, GateRecord> by_id;
  for (const GateRecord& r : run->RecordsOf(kBackendSuite)) {
    EXPECT_TRUE(by_id.emplace(r.id, r).second) << "probe " << r.id << " recorded twice";
  }
  EXPECT_EQ(by_id.size(), BackendProbes().size());
  // Every probe applies to the reference: it speaks the protocol and declares closed egress.
  for (const ProbeInfo& p : BackendProbes()) {
    const auto it = by_id.find(p.id);
    ASSERT_NE(it, by_id.end()) << "probe " << p.id << " not run";
    EXPECT_EQ(it->second.verdict, Verdict::kPassed)
        << p.id << ": " << VerdictName(it->second.verdict) << ": " << it->second.detail;
  }
  EXPECT_THAT(run->stdout_text,
              HasSubstr("cli.lookup: azure_pricing_get completed through the backend with the "
                        "real azmcp"));
}

// Who the adapter says it is, over the protocol: what the gate's verdict line names.
TEST(AdapterSuiteTest, TheBubblewrapAdapterSaysItIsAContainerBackend) {
  const StatusOr<testing::SuiteSetup> setup = testing::PrepareSuite(/*real_cli=*/false);
  ASSERT_THAT(setup.status(), IsOk());
  StatusOr<std::unique_ptr<conformance::backend::protocol::AdapterBackend>> adapter =
      conformance::backend::protocol::AdapterBackend::Start(
          {base::Runfile("conformance/backend/bwrap_adapter"), "--image", setup->image},
          testing::ProcessEnvironment());
  ASSERT_THAT(adapter.status(), IsOk());
  EXPECT_EQ((*adapter)->identity().name, "bubblewrap");
  EXPECT_EQ((*adapter)->declaration().isolation, sandbox::Isolation::kContainer);
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
  const std::vector<ProbeResult> results =
      RunBackendSuite(**adapter, {.price_api = setup->api,
                                  .adapter = command,
                                  .own_processes = {(*adapter)->pid()},
                                  .only = protocol});
  EXPECT_EQ(results.size(), protocol.size());
  EXPECT_THAT(testing::Failures(results), IsEmpty());
}

}  // namespace
}  // namespace azure_pricing::conformance::backend
