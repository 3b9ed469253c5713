// Which processes the backend suite takes for the adapter's helpers (PROTOCOL.md, "Decisions"),
// on process tables written out here: a helper is there before the first probe, is not the
// adapter and does not read the adapter's stdin; its tree is what lives across probes.
#include <map>
#include <string>
#include <vector>

#include "conformance/backend/suite_internal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azure_pricing::conformance::backend::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr pid_t kSuite = 100, kAdapter = 200, kPriceApi = 300;
constexpr char kPipe[] = "pipe:[777]";

ProcEntry Process(pid_t pid, pid_t ppid, unsigned long long start = 1, char state = 'S') {
  return {.pid = pid, .ppid = ppid, .state = state, .start = start, .cmdline = ""};
}

std::set<ProcessKey> Roots(const std::vector<ProcEntry>& table,
                           const std::map<pid_t, std::string>& stdin_of,
                           const std::string& protocol = kPipe) {
  return HelperRoots(table, kSuite, {kAdapter}, kPriceApi, protocol, [&](pid_t pid) {
    const auto it = stdin_of.find(pid);
    return it == stdin_of.end() ? std::string("/dev/null") : it->second;
  });
}

TEST(HelperRootsTest, AProcessTheAdapterStartedWithAnotherStdinIsAHelper) {
  const std::vector<ProcEntry> table = {Process(kAdapter, kSuite), Process(201, kAdapter, 7),
                                        Process(kPriceApi, kSuite), Process(301, kPriceApi)};
  EXPECT_THAT(Roots(table, {{kAdapter, kPipe}}), ElementsAre(ProcessKey{201, 7}));
}

TEST(HelperRootsTest, AWrapperHoldingTheProtocolStdinIsTheAdaptersNotAHelper) {
  // sh (the adapter) runs python without exec: python reads the pipe, so its children are the
  // adapter's sandboxes, never a helper's.
  const std::vector<ProcEntry> table = {Process(kAdapter, kSuite), Process(201, kAdapter),
                                        Process(202, 201)};
  EXPECT_THAT(Roots(table, {{kAdapter, kPipe}, {201, kPipe}}), ElementsAre(ProcessKey{202, 1}));
}

TEST(HelperRootsTest, InProcessEveryProcessAlreadyThereIsAHelper) {
  const std::vector<ProcEntry> table = {Process(150, kSuite), Process(kPriceApi, kSuite)};
  EXPECT_THAT(Roots(table, {{150, kPipe}}, ""), ElementsAre(ProcessKey{150, 1}));
}

TEST(HelperTreeTest, HoldsARootAndEverythingBeneathItButNotItsSiblings) {
  const std::set<ProcessKey> roots = {{201, 7}};
  const std::vector<ProcEntry> table = {Process(kAdapter, kSuite), Process(201, kAdapter, 7),
                                        Process(210, 201), Process(211, 210),
                                        Process(220, kAdapter), Process(212, 201, 1, 'Z')};
  EXPECT_THAT(HelperTree(table, roots), ElementsAre(201, 210, 211));
}

TEST(HelperTreeTest, AReusedPidIsNotTheHelper) {
  // The helper (pid 201, started at 7) died; a sandbox process now has its pid.
  const std::vector<ProcEntry> table = {Process(kAdapter, kSuite), Process(201, kAdapter, 9),
                                        Process(210, 201)};
  EXPECT_THAT(HelperTree(table, {{201, 7}}), IsEmpty());
}

}  // namespace
}  // namespace azure_pricing::conformance::backend::internal
