// The suite can fail: every mutant, served through the backend protocol, is rejected by the
// probe meant to catch it. (The correct backend passing every probe is suite_test and
// adapter_suite_test.)
//
// Two tests link this file; MUTANTS (set by the BUILD rule) says which catches run.
// //conformance/backend/broken_backends:broken_backends_test runs every catch (tier: exhaustive: mutation testing
// measures the suite, it is no behaviour of a change); :broken_backends_sample_test runs the first catch
// of each probe group (the probe id's first word: bounded, egress, isolation, protocol, ...), by
// the rule in ScenariosToRun below, in the fast tier.
#include "conformance/backend/broken_backends/broken_backends.h"

#include <cstdlib>
#include <iostream>
#include <set>
#include <string>
#include <vector>

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

class MutantTest : public ::testing::TestWithParam<MutantInfo> {};

// Every mutant against its own probe, then the secondary catches against theirs.
std::vector<MutantInfo> EveryCatch() {
  std::vector<MutantInfo> all = Mutants();
  all.insert(all.end(), SecondaryCatches().begin(), SecondaryCatches().end());
  return all;
}

std::string GroupOf(const MutantInfo& m) { return m.caught_by.substr(0, m.caught_by.find('.')); }

bool Sampled() {
  const char* mode = std::getenv("MUTANTS");
  return mode != nullptr && std::string(mode) == "one-per-probe-group";
}

std::vector<MutantInfo> ScenariosToRun() {
  if (!Sampled()) return EveryCatch();
  std::set<std::string> seen;
  std::vector<MutantInfo> sample;
  for (const MutantInfo& m : EveryCatch()) {
    if (seen.insert(GroupOf(m)).second) sample.push_back(m);
  }
  return sample;
}

TEST(MutantSelection, ModeIsOneTheBuildRulesSet) {
  const char* mode = std::getenv("MUTANTS");
  ASSERT_NE(mode, nullptr) << "MUTANTS is unset; the BUILD rule sets it";
  EXPECT_TRUE(std::string(mode) == "all" || std::string(mode) == "one-per-probe-group") << mode;
}

TEST(MutantSelection, TheSampleCoversEveryProbeGroupOnce) {
  std::set<std::string> groups, sampled;
  for (const MutantInfo& m : EveryCatch()) groups.insert(GroupOf(m));
  const std::vector<MutantInfo> sample = ScenariosToRun();
  for (const MutantInfo& m : sample) sampled.insert(GroupOf(m));
  EXPECT_EQ(sampled, groups);
  if (Sampled()) {
    EXPECT_EQ(sample.size(), groups.size());
  }
}

// A test name: the mutant's for its own probe, "<mutant>_also_<probe>" for a secondary catch.
std::string CatchName(const ::testing::TestParamInfo<MutantInfo>& info) {
  for (const MutantInfo& m : Mutants()) {
    if (m.name == info.param.name && m.caught_by == info.param.caught_by) return m.name;
  }
  std::string probe = info.param.caught_by;
  for (char& c : probe) c = c == '.' ? '_' : c;
  return info.param.name + "_also_" + probe;
}

TEST_P(MutantTest, IsRejectedByTheProbeMeantToCatchIt) {
  CITES("HOST-008", "HOST-014", "BOUND-004", "INTRO-007", "INTRO-009");
  const StatusOr<testing::SuiteSetup> setup = testing::PrepareSuite(/*real_cli=*/false);
  ASSERT_THAT(setup.status(), IsOk());
  const AdapterCommand command{{base::Runfile("conformance/backend/broken_backends/broken_adapter"),
                                "--image", setup->image, "--mutant", GetParam().name},
                               testing::ProcessEnvironment(),
                               ""};
  StatusOr<std::unique_ptr<conformance::backend::protocol::AdapterBackend>> adapter =
      conformance::backend::protocol::AdapterBackend::Start(command.argv, command.env);
  ASSERT_THAT(adapter.status(), IsOk());
  const std::vector<ProbeResult> results = RunBackendSuite(
      **adapter, {.price_api = setup->api,
                  .adapter = command,
                  .own_processes = {(*adapter)->pid()},
                  .only = {GetParam().caught_by}});
  ASSERT_EQ(results.size(), 1u);
  std::cout << GetParam().name << " -> " << results[0].id << ": " << results[0].detail << "\n";
  EXPECT_TRUE(results[0].applicable) << results[0].detail;
  EXPECT_FALSE(results[0].passed) << GetParam().name << " passed " << GetParam().caught_by
                                  << ": " << results[0].detail;
  if (!GetParam().names_cause.empty()) {
    EXPECT_THAT(results[0].detail, ::testing::HasSubstr(GetParam().names_cause));
  }
}

INSTANTIATE_TEST_SUITE_P(Mutants, MutantTest, ::testing::ValuesIn(ScenariosToRun()), CatchName);

// A variation the suite accepts (PROTOCOL.md, "Decisions"), with every probe it concerns, in one
// run of the suite: squid refusing inside TLS or answering 503 passes, and a helper's restarted
// children live across probes (a later probe still finds the adapter alive).
class VariationTest : public ::testing::TestWithParam<std::string> {};

std::vector<std::string> VariationNames() {
  std::vector<std::string> names;
  for (const MutantInfo& v : Variations()) {
    if (names.empty() || names.back() != v.name) names.push_back(v.name);
  }
  return names;
}

TEST_P(VariationTest, PassesEveryProbeItConcerns) {
  CITES("HOST-008", "HOST-014", "INTRO-007");
  const StatusOr<testing::SuiteSetup> setup = testing::PrepareSuite(/*real_cli=*/false);
  ASSERT_THAT(setup.status(), IsOk());
  const AdapterCommand command{{base::Runfile("conformance/backend/broken_backends/broken_adapter"),
                                "--image", setup->image, "--mutant", GetParam()},
                               testing::ProcessEnvironment(),
                               ""};
  StatusOr<std::unique_ptr<conformance::backend::protocol::AdapterBackend>> adapter =
      conformance::backend::protocol::AdapterBackend::Start(command.argv, command.env);
  ASSERT_THAT(adapter.status(), IsOk());
  std::set<std::string> probes;
  for (const MutantInfo& v : Variations()) {
    if (v.name == GetParam()) probes.insert(v.caught_by);
  }
  const std::vector<ProbeResult> results = RunBackendSuite(
      **adapter, {.price_api = setup->api,
                  .adapter = command,
                  .own_processes = {(*adapter)->pid()},
                  .only = probes});
  EXPECT_EQ(results.size(), probes.size());
  for (const ProbeResult& r : results) std::cout << GetParam() << " -> " << r.id << ": " << r.detail << "\n";
  EXPECT_THAT(testing::Failures(results), ::testing::IsEmpty());
}

INSTANTIATE_TEST_SUITE_P(Variations, VariationTest, ::testing::ValuesIn(VariationNames()));

// The control: the same adapter path and image without a weakening passes every probe the
// mutants are aimed at, so each rejection above is the weakening's doing.
TEST(MutantAdapterTest, TheUnweakenedAdapterPassesEveryProbeTheMutantsFail) {
  const StatusOr<testing::SuiteSetup> setup = testing::PrepareSuite(/*real_cli=*/false);
  ASSERT_THAT(setup.status(), IsOk());
  const AdapterCommand command{
      {base::Runfile("conformance/backend/bwrap_adapter"), "--image", setup->image},
      testing::ProcessEnvironment(),
      ""};
  StatusOr<std::unique_ptr<conformance::backend::protocol::AdapterBackend>> adapter =
      conformance::backend::protocol::AdapterBackend::Start(command.argv, command.env);
  ASSERT_THAT(adapter.status(), IsOk());
  std::set<std::string> aimed;
  for (const MutantInfo& m : EveryCatch()) aimed.insert(m.caught_by);
  const std::vector<ProbeResult> results = RunBackendSuite(
      **adapter, {.price_api = setup->api,
                  .adapter = command,
                  .own_processes = {(*adapter)->pid()},
                  .only = aimed});
  EXPECT_EQ(results.size(), aimed.size());
  EXPECT_THAT(testing::Failures(results), ::testing::IsEmpty());
}

TEST(MutantAdapterTest, RefusesAnUnknownMutant) {
  const StatusOr<std::string> image = testing::TestImage(/*real_cli=*/false);
  ASSERT_THAT(image.status(), IsOk());
  StatusOr<std::unique_ptr<conformance::backend::protocol::AdapterBackend>> adapter =
      conformance::backend::protocol::AdapterBackend::Start(
          {base::Runfile("conformance/backend/broken_backends/broken_adapter"), "--image", *image,
           "--mutant", "no_such_mutant"},
          {"PATH=/usr/bin:/bin"});
  EXPECT_FALSE(adapter.ok());
}

}  // namespace
}  // namespace azure_pricing::conformance::backend
