#include "conformance/gate/suite_registry.h"

#include <algorithm>

namespace azure_pricing::conformance {

const Suite* FindSuite(SuiteList suites, std::string_view name_or_alias) {
  for (const Suite* suite : suites) {
    if (suite->name == name_or_alias || (!suite->alias.empty() && suite->alias == name_or_alias)) {
      return suite;
    }
  }
  return nullptr;
}

std::set<std::string> ParseSuiteList(SuiteList suites, std::string_view text,
                                     std::string& problem) {
  std::set<std::string> selected;
  for (size_t start = 0; start <= text.size();) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view word = text.substr(start, comma - start);
    start = comma + 1;
    if (word == "all") {
      for (const Suite* suite : suites) {
        if (suite->in_all) selected.emplace(suite->name);
      }
    } else if (const Suite* suite = FindSuite(suites, word)) {
      selected.emplace(suite->name);
    } else {
      problem = SuiteListProblem(suites);
    }
  }
  return selected;
}

namespace {

// "a, b and c"; `last` joins the final two.
std::string Joined(const std::vector<std::string_view>& words, std::string_view last) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += i + 1 == words.size() ? last : ", ";
    out += words[i];
  }
  return out;
}

}  // namespace

std::string SuiteListProblem(SuiteList suites) {
  std::vector<std::string_view> names;
  for (const Suite* suite : suites) names.push_back(suite->name);
  return "--suite is all, or a comma-separated list of " + Joined(names, ", ");
}

std::string SuiteUsage(SuiteList suites) {
  size_t width = 0;
  for (const Suite* suite : suites) width = std::max(width, suite->name.size());
  std::string out =
      "  --suite S,...  all (the default), or a comma-separated list of these suites:\n";
  for (const Suite* suite : suites) {
    out += std::string(19, ' ') + std::string(suite->name) +
           std::string(width + 2 - suite->name.size(), ' ') + std::string(suite->description) +
           (suite->in_all ? "" : " (not in all)") + "\n";
  }
  for (const Suite* suite : suites) {
    if (!suite->alias.empty()) {
      out += std::string(17, ' ') + "`" + std::string(suite->alias) + "` is accepted for " +
             std::string(suite->name) + "\n";
    }
  }
  return out;
}

std::string SuiteListing(SuiteList suites) {
  std::string out;
  for (const Suite* suite : suites) {
    out += std::string(suite->name) + "\t" + std::string(suite->description) +
           (suite->in_all ? "" : " (not in all)") + "\n";
  }
  return out;
}

std::string SuitesPhrase(SuiteList suites, SuiteJudges judges) {
  std::vector<std::string_view> names;
  for (const Suite* suite : suites) {
    if (suite->judges == judges) names.push_back(suite->name);
  }
  return SuitesPhrase(names);
}

std::string SuitesPhrase(const std::vector<std::string_view>& names) {
  return "the " + Joined(names, " and ") + (names.size() == 1 ? " suite" : " suites");
}

}  // namespace azure_pricing::conformance
