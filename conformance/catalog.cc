#include "conformance/catalog.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>

namespace azure_pricing::conformance {

const Requirement* Catalog::Find(const std::string& id) const {
  for (const Requirement& r : requirements) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

std::optional<Catalog> LoadCatalog(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.contains("requirements") || !doc["requirements"].is_array()) {
    return std::nullopt;
  }
  Catalog catalog;
  std::set<std::string> ids;
  static const std::regex kId("^[A-Z]+-[0-9]{3}$");
  for (const auto& r : doc["requirements"]) {
    auto is_text = [&r](const char* key) { return r.contains(key) && r[key].is_string(); };
    if (!r.is_object() || !is_text("id") || !is_text("level") || !is_text("section") ||
        !is_text("text") || !r.contains("pending") ||
        !(r["pending"].is_null() || r["pending"].is_number_integer())) {
      return std::nullopt;
    }
    Requirement req;
    req.id = r["id"].get<std::string>();
    req.level = r["level"].get<std::string>();
    req.section = r["section"].get<std::string>();
    req.text = r["text"].get<std::string>();
    if (r["pending"].is_number_integer()) req.pending_issue = r["pending"].get<int>();
    if (!std::regex_match(req.id, kId) || !ids.insert(req.id).second ||
        (req.level != "MUST" && req.level != "SHOULD")) {
      return std::nullopt;
    }
    catalog.requirements.push_back(std::move(req));
  }
  return catalog;
}

std::set<std::string> CitedIds(const std::string& text) {
  static const std::regex kCitation(
      "\\b(INTRO|HOST|POLICY|ARG|SCHEMA|UPSTREAM|REGION|SELECT|ZONE|BOUND|INTEG)-[0-9]{3}\\b");
  std::set<std::string> ids;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kCitation);
       it != std::sregex_iterator(); ++it) {
    ids.insert(it->str());
  }
  return ids;
}

Coverage ComputeCoverage(const Catalog& catalog,
                         const std::map<std::string, std::set<std::string>>& citations_by_source) {
  Coverage coverage;
  std::set<std::string> unknown, pending_cited;
  for (const auto& [source, ids] : citations_by_source) {
    for (const std::string& id : ids) {
      const Requirement* r = catalog.Find(id);
      if (r == nullptr) {
        unknown.insert(id);
        continue;
      }
      if (r->pending_issue.has_value()) pending_cited.insert(id);
      coverage.cited_by[id].insert(source);
    }
  }
  for (const Requirement& r : catalog.requirements) {
    if (!r.pending_issue.has_value() && coverage.cited_by.count(r.id) == 0) {
      coverage.uncited.push_back(r.id);
    }
  }
  coverage.unknown.assign(unknown.begin(), unknown.end());
  coverage.pending_but_cited.assign(pending_cited.begin(), pending_cited.end());
  return coverage;
}

std::vector<std::string> TestSourceFiles() {
  // Every test source in the runfiles (each package's test_sources filegroup is a data
  // dependency), so a new test file is picked up without touching a list.
  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(".", ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const bool test_source = name.ends_with("_test.cc") || name.ends_with("_test.sh");
    if (test_source && it->is_regular_file(ec)) {
      files.push_back(it->path().lexically_normal().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace azure_pricing::conformance
