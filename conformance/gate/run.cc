#include "conformance/gate/run.h"

#include <unistd.h>

#include <cstdio>
#include <utility>

namespace azure_pricing::conformance {

bool GateOptions::RunsAny(SuiteJudges judges) const {
  for (const Suite* suite : registry) {
    if (suite->judges == judges && Runs(std::string(suite->name))) return true;
  }
  return false;
}

bool GateOptions::RunsEvery(SuiteJudges judges) const {
  for (const Suite* suite : registry) {
    if (suite->judges == judges && !Runs(std::string(suite->name))) return false;
  }
  return true;
}

bool GateOptions::Selected(const std::string& suite, const std::string& id) const {
  if (shard_count > 1 && ShardHash(suite + "/" + id) % shard_count != shard_index) return false;
  return !filter || std::regex_search(id, *filter) || std::regex_search(suite + "/" + id, *filter);
}

bool GateOptions::Partial() const {
  if (filter.has_value() || shard_count > 1) return true;
  if (!testee.empty() && !testee_is_reference) return !RunsEvery(SuiteJudges::kImplementation);
  if (BackendOnly()) return false;
  for (const Suite* suite : registry) {
    if (suite->in_all && !Runs(std::string(suite->name))) return true;
  }
  return false;
}

bool GateOptions::BackendOnly() const {
  if (!testee.empty() || suites.empty() || !RunsEvery(SuiteJudges::kBackend)) return false;
  for (const std::string& name : suites) {
    const Suite* suite = FindSuite(registry, name);
    if (suite == nullptr || suite->judges != SuiteJudges::kBackend) return false;
  }
  return true;
}

uint64_t ShardHash(const std::string& text) {
  uint64_t h = 14695981039346656037ULL;  // FNV-1a
  for (const unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  // splitmix64's finaliser: FNV's low bits alone split a handful of similar names unevenly.
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

ProgressLine::ProgressLine() : enabled_(isatty(STDOUT_FILENO) == 1) {}

void ProgressLine::Show(const std::string& suite, size_t done, size_t total,
                        const std::string& id) {
  if (!enabled_) return;
  std::printf("\r\033[K[%s %zu/%zu] %.60s", suite.c_str(), done, total, id.c_str());
  std::fflush(stdout);
  shown_ = true;
}

void ProgressLine::Clear() {
  if (!shown_) return;
  std::printf("\r\033[K");
  shown_ = false;
}

void GateRun::GateFailure(const std::string& id, const std::string& what) {
  records.push_back({.suite = kGateSuite, .id = id, .verdict = Verdict::kFailed, .detail = what});
}

Level GateRun::LevelOf(const std::vector<std::string>& ids) const {
  if (ids.empty()) return Level::kRequired;
  for (const std::string& id : ids) {
    if (should_only.count(id) == 0) return Level::kRequired;
  }
  return Level::kRecommended;
}

void GateRun::Add(GateRecord record) {
  if (record.level == Level::kRequired) record.level = LevelOf(record.requirements);
  records.push_back(std::move(record));
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace azure_pricing::conformance
