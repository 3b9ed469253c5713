// Where two JSON values differ, by path (docs/profile.md, PROFILE-006: member order and
// whitespace carry no meaning, numbers compare by value). A failure names the member at fault
// instead of printing two long objects that look alike.
#ifndef CONFORMANCE_JUDGE_JSON_DIFF_H_
#define CONFORMANCE_JUDGE_JSON_DIFF_H_

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace azure_pricing::conformance::judge {

// At most `limit` differences, each "PATH: GOT, want WANT", "PATH: missing, want WANT" or
// "PATH: unexpected GOT"; PATH is "$" for the whole value, then ".member" and "[index]".
// Empty when the values are equal.
std::vector<std::string> JsonDifferences(const nlohmann::ordered_json& got,
                                         const nlohmann::ordered_json& want, size_t limit = 5);

// The same, joined by "; ", with "; and N more" when some were left out.
std::string DescribeJsonDifference(const nlohmann::ordered_json& got,
                                   const nlohmann::ordered_json& want, size_t limit = 5);

}  // namespace azure_pricing::conformance::judge

#endif  // CONFORMANCE_JUDGE_JSON_DIFF_H_
