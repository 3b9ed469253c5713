// A REQUIRED check never appears, disappears or changes level unannounced: the gate's whole run
// (//conformance/gate:whole_run) is held to required_checks.txt, and every line of that list
// that records a change to the change list of docs/profile.md it names. A port that passed the
// gate yesterday learns from that list why it fails today, and which ids to put in its
// --known-failures list (docs/development.md, "Changing a REQUIRED check").
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "conformance/gate/profile_version.h"
#include "conformance/gate/record.h"
#include "conformance/gate/recorded_run.h"
#include "gtest/gtest.h"
#include "ref/base/files.h"
#include "ref/base/runfiles.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance {
namespace {

constexpr char kListPath[] = "conformance/gate/required_checks.txt";
// A check REQUIRED before the profile had versions, and unchanged since.
constexpr char kUnversioned[] = "unversioned";

// One line of the list: VERSION STATE suite/id.
struct Listed {
  std::string version;
  std::string state;  // "REQUIRED", "RECOMMENDED" or "removed"
  int line = 0;
};

// The list by suite/id; a malformed or repeated line is a problem of its own.
std::map<std::string, Listed> ReadList(const std::string& text,
                                       std::vector<std::string>& problems) {
  std::map<std::string, Listed> out;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string version, state, id, extra;
    fields >> version >> state >> id;
    const bool state_known = state == "REQUIRED" || state == "RECOMMENDED" || state == "removed";
    const bool version_known = version == kUnversioned || WellFormedProfileVersion(version);
    if (id.empty() || (fields >> extra) || !state_known || !version_known) {
      problems.push_back(std::string(kListPath) + ":" + std::to_string(n) + ": '" + line +
                         "' is not 'VERSION REQUIRED|RECOMMENDED|removed suite/id'");
      continue;
    }
    if (!out.emplace(id, Listed{version, state, n}).second) {
      problems.push_back(std::string(kListPath) + ":" + std::to_string(n) + ": " + id +
                         " is listed twice; keep one line per check");
    }
  }
  return out;
}

std::string Instruction(const std::string& current, const std::string& state,
                        const std::string& id) {
  return " Write its line in " + std::string(kListPath) + " as '" + current + " " + state + " " +
         id + "', and name `" + id + "` in an entry under '### " + current +
         "' in docs/profile.md's Changes: what it demands, and how a port that fails it migrates "
         "(the id in its --known-failures list, or the fix).";
}

// The run against the list: every REQUIRED check listed as such, every listed level the run's.
std::vector<std::string> RunAgainstList(const std::map<std::string, Level>& run,
                                        const std::map<std::string, Listed>& list,
                                        const std::string& current) {
  std::vector<std::string> problems;
  for (const auto& [id, level] : run) {
    const auto it = list.find(id);
    if (level != Level::kRequired || (it != list.end() && it->second.state == "REQUIRED")) {
      continue;
    }
    const std::string was = it == list.end() ? "is not listed" : "is listed " + it->second.state;
    problems.push_back(id + " is a REQUIRED check of the whole run, but " + was + "." +
                       Instruction(current, "REQUIRED", id));
  }
  for (const auto& [id, listed] : list) {
    const auto it = run.find(id);
    const std::string now = it == run.end()                      ? "removed"
                            : it->second == Level::kRecommended ? "RECOMMENDED"
                                                                : "REQUIRED";
    if (listed.state == now || now == "REQUIRED") continue;  // a REQUIRED one is judged above
    const std::string what = now == "removed" ? "the whole run has no such check"
                                              : "the whole run judges it RECOMMENDED";
    problems.push_back(id + " is listed " + listed.state + " (line " +
                       std::to_string(listed.line) + "), but " + what + "." +
                       Instruction(current, now, id));
  }
  return problems;
}

// Every change the list records is named by the change list of its version.
std::vector<std::string> ListAgainstChanges(const std::map<std::string, Listed>& list,
                                            const std::vector<ProfileChangeList>& changes) {
  std::map<std::string, const std::set<std::string>*> named;
  for (const ProfileChangeList& c : changes) named[c.version] = &c.named_checks;
  std::vector<std::string> problems;
  for (const auto& [id, listed] : list) {
    if (listed.version == kUnversioned) continue;
    const auto it = named.find(listed.version);
    if (it == named.end()) {
      problems.push_back(std::string(kListPath) + ":" + std::to_string(listed.line) + ": " + id +
                         " names version " + listed.version +
                         ", which has no '### " + listed.version +
                         "' change list in docs/profile.md's Changes.");
    } else if (it->second->count(id) == 0) {
      problems.push_back(id + " became " + listed.state + " in " + listed.version + " (" +
                         kListPath + ":" + std::to_string(listed.line) +
                         "), but no entry under '### " + listed.version +
                         "' in docs/profile.md's Changes names `" + id +
                         "`: add one saying what changed and how a port migrates.");
    }
  }
  return problems;
}

// The whole run's checks of an implementation or backend by suite/id, with their levels.
std::map<std::string, Level> RunChecks(const RecordedGateRun& run) {
  std::map<std::string, Level> out;
  for (const GateRecord& r : run.records) {
    if (r.suite != kGateSuite) out[r.suite + "/" + r.id] = r.level;
  }
  return out;
}

class RequiredChecksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const StatusOr<RecordedGateRun> run = ReadRecordedGateRun("conformance/gate/whole_run");
    ASSERT_THAT(run.status(), IsOk());
    run_ = *run;
    const StatusOr<std::string> profile = base::ReadFile(judge::kProfilePath);
    ASSERT_THAT(profile.status(), IsOk());
    const StatusOr<std::string> version = ParseProfileVersion(*profile);
    ASSERT_THAT(version.status(), IsOk());
    version_ = *version;
    changes_ = ParseProfileChanges(*profile);
    const StatusOr<std::string> list = base::ReadFile(base::Runfile(kListPath));
    ASSERT_THAT(list.status(), IsOk());
    list_ = ReadList(*list, list_problems_);
  }

  RecordedGateRun run_;
  std::string version_;
  std::vector<ProfileChangeList> changes_;
  std::map<std::string, Listed> list_;
  std::vector<std::string> list_problems_;
};

// A failure of the run itself (a suite's process died, the profile unreadable) leaves checks
// out: comparing their ids would only report them as removed.
TEST_F(RequiredChecksTest, TheWholeRunJudgedEverySuite) {
  for (const GateRecord& r : run_.records) {
    EXPECT_NE(r.suite, kGateSuite) << "the whole run failed as a run (gate/" << r.id
                                   << "): " << r.detail;
  }
}

TEST_F(RequiredChecksTest, TheWholeRunRecordsTheProfileVersionItApplied) {
  EXPECT_EQ(run_.profile_version, version_);
  EXPECT_NE(run_.stdout_text.find("\nprofile: docs/profile.md version " + version_ + "\n"),
            std::string::npos)
      << run_.stdout_text.substr(0, 400);
}

TEST_F(RequiredChecksTest, EveryRequiredCheckIsListedAtItsLevel) {
  for (const std::string& problem : list_problems_) ADD_FAILURE() << problem;
  for (const std::string& problem : RunAgainstList(RunChecks(run_), list_, version_)) {
    ADD_FAILURE() << problem;
  }
}

TEST_F(RequiredChecksTest, EveryListedChangeIsNamedInItsVersionsChangeList) {
  for (const std::string& problem : ListAgainstChanges(list_, changes_)) {
    ADD_FAILURE() << problem;
  }
}

}  // namespace
}  // namespace azure_pricing::conformance
