// The requirement catalog (requirements.json) and the citations of its ids in cases and tests.
#ifndef CONFORMANCE_CATALOG_CATALOG_H_
#define CONFORMANCE_CATALOG_CATALOG_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace azure_pricing::conformance {

struct Requirement {
  std::string id;
  std::string level;  // MUST or SHOULD
  std::string section;
  std::string text;
  // "azmcp 3.0.0-beta.46": the behaviour was observed on that real CLI, not on the 4.0.0-beta.4
  // the spec pins (unpublished); empty for requirements that are the tool's own.
  std::optional<std::string> observed_on;
  // "spec": a sentence of the specification, which `quote` copies verbatim; "profile": a rule of
  // docs/profile.md (PROFILE-*) or a project rule (PROJECT-*), which have no quote.
  std::string source;
  std::optional<std::string> quote;
};

struct Catalog {
  std::vector<Requirement> requirements;
  const Requirement* Find(const std::string& id) const;
};

// nullopt when the file is missing or malformed: duplicate ids, a key other than id, level,
// section, text, observed_on, source and quote, an observed_on that is not
// "azmcp <version>", a source other than "spec" and "profile", a spec entry without a non-empty
// quote, or a profile entry with one (a profile rule is not a sentence of the spec).
std::optional<Catalog> LoadCatalog(const std::string& path);

// The requirements a test source declares with CITES (conformance/citations/cites.h), and what
// is wrong with any declaration it finds.
struct SourceCitations {
  std::set<std::string> ids;
  std::vector<std::string> problems;  // "line N: ..."; each is a failure of the catalog check
};

// A lexical parse, not a preprocessor: in C++ (`shell` false) the token CITES followed by `(`
// outside comments and string or character literals opens a declaration; in a shell test a
// comment line `# CITES(` does. The declaration must be string literals separated by commas up
// to `)`, each a well-formed id (citations/id_form.h). Ids anywhere else are not citations.
// Being lexical, it does not evaluate `#if`: a CITES inside `#if 0` would still count, so test
// sources keep CITES at namespace scope, outside conditional compilation.
SourceCitations ParseCitations(std::string_view text, bool shell);

struct TestCitations {
  std::map<std::string, std::set<std::string>> by_source;  // "test <path>" -> ids
  std::vector<std::string> problems;                       // "<path>: line N: ..."
};

// Reads and parses each file (a *_test.sh file as shell); an unreadable file is a problem.
TestCitations ReadTestCitations(const std::vector<std::string>& files);

struct Coverage {
  std::map<std::string, std::set<std::string>> cited_by;  // id -> citing files/cases
  std::vector<std::string> unknown;                       // cited ids not in the catalog
  std::vector<std::string> uncited;                       // ids nobody cites
};

Coverage ComputeCoverage(const Catalog& catalog,
                         const std::map<std::string, std::set<std::string>>& citations_by_source);

// Test sources that cite requirements, relative to the workspace root.
std::vector<std::string> TestSourceFiles();

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_CATALOG_CATALOG_H_
