// The requirement catalog (requirements.json) and the citations of its ids in cases and tests.
#ifndef CONFORMANCE_CATALOG_H_
#define CONFORMANCE_CATALOG_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace azure_pricing::conformance {

struct Requirement {
  std::string id;
  std::string level;  // MUST or SHOULD
  std::string section;
  std::string text;
  std::optional<int> pending_issue;  // the issue that will implement it; empty when done
};

struct Catalog {
  std::vector<Requirement> requirements;
  const Requirement* Find(const std::string& id) const;
};

// nullopt when the file is missing or malformed (duplicate ids included).
std::optional<Catalog> LoadCatalog(const std::string& path);

// Requirement ids cited in a text: PREFIX-NNN for the catalog's prefixes.
std::set<std::string> CitedIds(const std::string& text);

struct Coverage {
  std::map<std::string, std::set<std::string>> cited_by;  // id -> citing files/cases
  std::vector<std::string> unknown;                       // cited ids not in the catalog
  std::vector<std::string> uncited;                       // implemented ids nobody cites
  std::vector<std::string> pending_but_cited;             // pending ids that a case or test claims
};

Coverage ComputeCoverage(const Catalog& catalog,
                         const std::map<std::string, std::set<std::string>>& citations_by_source);

// Test sources that cite requirements, relative to the workspace root.
std::vector<std::string> TestSourceFiles();

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_CATALOG_H_
