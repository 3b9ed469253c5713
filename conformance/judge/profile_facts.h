// The facts docs/profile.md requires of each message, read from the profile itself so the
// document and the gate cannot disagree: the reason table's last column (PROFILE-001) and the
// message table (PROFILE-002). Facts that depend on the call ("«argument»", "the maximum") are
// left to the cases, which state them with the values they use.
#ifndef CONFORMANCE_JUDGE_PROFILE_FACTS_H_
#define CONFORMANCE_JUDGE_PROFILE_FACTS_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "conformance/judge/message_facts.h"

namespace azure_pricing::conformance::judge {

inline constexpr char kProfilePath[] = "docs/profile.md";  // relative to the workspace root

// The body rows of the Markdown table between `<!-- NAME -->` and the next `<!-- /` marker,
// each as its trimmed cells (the header and |---| rows left out). Empty without the markers.
std::vector<std::vector<std::string>> ProfileTableRows(std::string_view text, std::string_view name);

// A facts cell: facts separated by ';', each a `"text"` or alternatives `"a"` / `"b"`;
// "each of `"a"`, `"b"`" is one fact per text. A fact naming «argument» or starting with "the"
// depends on the call and is skipped; so is a cell with no quoted text ("none: ...").
std::vector<Fact> FactsOfCell(std::string_view cell);

struct ProfileFacts {
  // (outcome, reason code) -> the facts its message states; from every reason table.
  std::map<std::pair<std::string, std::string>, std::vector<Fact>> by_reason;
  // message name ("completed", "guidance", ...) -> its facts; from the message table.
  std::map<std::string, std::vector<Fact>> by_message;
};

// nullopt when the profile cannot be read or holds no reason table.
std::optional<ProfileFacts> ParseProfileFacts(std::string_view profile_text);
std::optional<ProfileFacts> LoadProfileFacts(const std::string& path = kProfilePath);

}  // namespace azure_pricing::conformance::judge

#endif  // CONFORMANCE_JUDGE_PROFILE_FACTS_H_
