// The bubblewrap backend, in process, on an image with the real azmcp, passes every probe; and
// the suite's own catalogue is well formed; and a backend that mangles the probe's output fails
// probes rather than ending the run.
#include "conformance/backend/suite.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "conformance/backend/broken_backends/broken_backends.h"
#include "conformance/backend/suite_internal.h"
#include "conformance/backend/suite_testing.h"
#include "conformance/citations/cites.h"
#include "fakes/sandbox/fake_backend.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/sandbox/bwrap/bwrap_backend.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::backend {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

TEST(BackendSuiteTest, TheBubblewrapBackendPassesEveryProbeWithTheRealCli) {
  CITES("HOST-012", "HOST-013", "HOST-014", "HOST-008", "INTRO-007", "INTRO-009", "BOUND-004");
  const StatusOr<testing::SuiteSetup> setup = testing::PrepareSuite(/*real_cli=*/true);
  ASSERT_THAT(setup.status(), IsOk());
  sandbox::bwrap::BwrapOptions options;
  options.image_dir = setup->image;
  options.egress_log = [](const std::string&) {};
  StatusOr<std::unique_ptr<sandbox::bwrap::BwrapBackend>> backend =
      sandbox::bwrap::BwrapBackend::Create(options);
  ASSERT_THAT(backend.status(), IsOk());
  const std::vector<ProbeResult> results =
      RunBackendSuite(**backend, {.price_api = setup->api, .cli_kind = "the real azmcp"});
  EXPECT_THAT(results, SizeIs(BackendProbes().size()));
  EXPECT_THAT(testing::Failures(results), IsEmpty());
  // In process there is no protocol: exactly the protocol probes do not apply.
  for (const ProbeResult& r : results) {
    EXPECT_EQ(r.applicable, r.id.rfind("protocol.", 0) != 0) << r.id << ": " << r.detail;
  }
  EXPECT_EQ((*backend)->live_sandboxes(), 0);
}

// A backend that hands back the probe's output with its members' types changed (here a fake
// whose every exec prints such an object) fails the probes that read them; the run goes on.
TEST(BackendSuiteTest, ProbeOutputWithMistypedMembersFailsTheProbeAndTheRunGoesOn) {
  const StatusOr<PriceApi> api = testing::TestPriceApi();
  ASSERT_THAT(api.status(), IsOk());
  fakes::sandbox::FakeBackend backend(fakes::sandbox::PricingCapableDeclaration());
  backend.SetFallback(
      {.exec = {.stdout_bytes = R"({"ok": "yes", "status": "200", "stage": 7, "error": []})"}});
  const std::vector<ProbeResult> results = RunBackendSuite(
      backend, {.price_api = *api, .only = {"egress.get_allowed", "egress.verification_on"}});
  ASSERT_THAT(results, SizeIs(2));
  for (const ProbeResult& r : results) {
    EXPECT_FALSE(r.passed) << r.id;
    EXPECT_THAT(r.detail, HasSubstr("a member of another type than the probe writes")) << r.id;
  }
  EXPECT_EQ(backend.live(), 0);
}

// A container engine keeps a sandbox's /tmp deep in its store (rootless podman:
// ~/.local/share/containers/storage/overlay/ID/diff/tmp): a file left there is found.
TEST(BackendSuiteTest, FilesLeftAreLookedForWhereContainerEnginesKeepThem) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string home = std::string(tmp) + "/engine-home";
  const std::string deep = home + "/.local/share/containers/storage/overlay/abc/diff/tmp";
  ASSERT_TRUE(std::filesystem::create_directories(deep));
  const std::string token = "azpc-left-" + std::to_string(getpid());
  std::ofstream(deep + "/" + token + "-x") << "x";
  const std::string saved = std::getenv("HOME") == nullptr ? "" : std::getenv("HOME");
  setenv("HOME", home.c_str(), 1);
  const std::vector<std::string> found = internal::LeftOnHost(token);
  setenv("HOME", saved.c_str(), 1);
  EXPECT_THAT(found, ElementsAre(deep + "/" + token + "-x"));
  EXPECT_THAT(internal::LeftOnHost(token + "-never-written"), IsEmpty());
}

TEST(BackendSuiteTest, EveryProbeHasAUniqueIdRequirementsAndADiagnosis) {
  std::set<std::string> ids;
  for (const ProbeInfo& p : BackendProbes()) {
    EXPECT_TRUE(ids.insert(p.id).second) << "duplicate probe id " << p.id;
    EXPECT_FALSE(p.requirements.empty()) << p.id;
    EXPECT_FALSE(p.expected.empty()) << p.id;
  }
}

TEST(BackendSuiteTest, EveryMutantNamesAProbeThatExists) {
  std::set<std::string> ids;
  for (const ProbeInfo& p : BackendProbes()) ids.insert(p.id);
  EXPECT_GE(Mutants().size(), 10u);
  std::set<std::string> names;
  for (const MutantInfo& m : Mutants()) {
    EXPECT_EQ(ids.count(m.caught_by), 1u) << m.name;
    EXPECT_TRUE(names.insert(m.name).second) << "duplicate mutant " << m.name;
  }
  // A secondary catch is an existing mutant aimed at another existing probe than its own.
  for (const MutantInfo& m : SecondaryCatches()) {
    EXPECT_EQ(ids.count(m.caught_by), 1u) << m.name << " -> " << m.caught_by;
    EXPECT_EQ(names.count(m.name), 1u) << m.name;
    for (const MutantInfo& own : Mutants()) {
      if (own.name == m.name) {
        EXPECT_NE(own.caught_by, m.caught_by) << m.name;
      }
    }
  }
}

}  // namespace
}  // namespace azure_pricing::conformance::backend
