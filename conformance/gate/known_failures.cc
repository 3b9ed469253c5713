#include "conformance/gate/known_failures.h"

#include <map>
#include <nlohmann/json.hpp>

#include "ref/base/files.h"

namespace azure_pricing::conformance {
namespace {

Status Unreadable() {
  return ProgramError(kKnownFailuresUnreadable, "the known-failures file is not {\"implementation\", \"known_failures\": "
                "[{\"id\", \"detail\"}]}");
}

}  // namespace

StatusOr<KnownFailureList> LoadKnownFailures(const std::string& path) {
  const StatusOr<std::string> text = base::ReadFile(path);
  if (!text.ok()) return Unreadable();
  const nlohmann::json doc = nlohmann::json::parse(*text, nullptr, false);
  if (!doc.is_object() || !doc.contains("known_failures") || !doc["known_failures"].is_array()) {
    return Unreadable();
  }
  KnownFailureList out;
  const nlohmann::json& version = doc.value("profile_version", nlohmann::json());
  if (!version.is_null() && !version.is_string()) return Unreadable();
  if (version.is_string()) out.profile_version = version.get<std::string>();
  for (const nlohmann::json& entry : doc["known_failures"]) {
    if (!entry.is_object() || !entry.value("id", nlohmann::json()).is_string() ||
        !entry.value("detail", nlohmann::json()).is_string()) {
      return Unreadable();
    }
    out.failures.push_back({entry["id"].get<std::string>(), entry["detail"].get<std::string>()});
  }
  return out;
}

std::vector<std::string> ApplyKnownFailures(
    const std::vector<KnownFailure>& known, std::vector<GateRecord>& records,
    const std::function<bool(const std::string& id)>& selected) {
  std::map<std::string, GateRecord*> by_id;
  for (GateRecord& r : records) by_id[r.id] = &r;
  std::vector<std::string> problems;
  for (const KnownFailure& k : known) {
    if (selected && !selected(k.id)) continue;
    const auto it = by_id.find(k.id);
    if (it == by_id.end()) {
      problems.push_back("known failure " + k.id + " names no check");
    } else if (it->second->verdict == Verdict::kSkipped) {
      continue;  // could not run this time: nothing to hold it against
    } else if (it->second->verdict == Verdict::kPassed) {
      problems.push_back("known failure " + k.id + " passes now");
    } else if (it->second->detail != k.detail) {
      problems.push_back("known failure " + k.id + " fails differently: " + it->second->detail);
    } else {
      it->second->verdict = Verdict::kKnown;
    }
  }
  return problems;
}

std::string ProfileMovedNotice(const std::string& list_version, const std::string& run_version) {
  if (list_version.empty() || list_version == run_version) return "";
  return "written against profile version " + list_version + "; this is " + run_version +
         ": docs/profile.md's Changes since then say what changed";
}

bool ListedAsKnownFailure(const GateRecord& r) {
  return r.suite != kGateSuite && (r.verdict == Verdict::kFailed || r.verdict == Verdict::kKnown);
}

Status WriteKnownFailures(const std::string& path, const std::string& implementation,
                          const std::string& profile_version,
                          const std::vector<GateRecord>& records) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const GateRecord& r : records) {
    if (ListedAsKnownFailure(r)) {
      list.push_back({{"id", r.id}, {"level", LevelName(r.level)}, {"detail", r.detail}});
    }
  }
  const nlohmann::ordered_json doc = {{"implementation", implementation},
                                      {"profile_version", profile_version},
                                      {"known_failures", std::move(list)}};
  if (!base::WriteFileAtomically(
           path, doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n")
           .ok()) {
    return ProgramError(kReportWriteFailed, "the known-failures file cannot be written");
  }
  return OkStatus();
}

}  // namespace azure_pricing::conformance
