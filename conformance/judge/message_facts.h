// The facts a message must state (docs/profile.md, PROFILE-002). No message text is verbatim:
// a fact is found in a message whatever the quotes, letter case, hyphenation, digit grouping and
// spacing around it, so an implementation words its messages its own way and still states what
// the specification requires.
#ifndef CONFORMANCE_JUDGE_MESSAGE_FACTS_H_
#define CONFORMANCE_JUDGE_MESSAGE_FACTS_H_

#include <string>
#include <string_view>
#include <vector>

namespace azure_pricing::conformance::judge {

struct Fact {
  std::vector<std::string> any;  // one of these must occur
  bool case_sensitive = false;   // for a value whose spelling is the fact ("Global")
};

// The text facts are looked for in: the quote characters ' " ` ‘ ’ “ ” and '-' read as a
// space (so an apostrophe ends a word: "reservation's" states "reservation"), a ',' between two digits removed ("5,000" is "5000"), whitespace runs collapsed to
// one space, and ASCII letters lower-cased unless `keep_case`.
std::string NormalizeForFacts(std::string_view text, bool keep_case);

// True when one of the fact's alternatives occurs in `message` (both normalised) with no ASCII
// letter or digit directly before or after it: "256" is not found in "2560".
bool States(std::string_view message, const Fact& fact);

// The facts `message` does not state, each shown as its alternatives joined by " | ".
std::vector<std::string> MissingFacts(std::string_view message, const std::vector<Fact>& facts);

}  // namespace azure_pricing::conformance::judge

#endif  // CONFORMANCE_JUDGE_MESSAGE_FACTS_H_
