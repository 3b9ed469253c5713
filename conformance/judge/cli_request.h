// What an argv asks the pinned CLI for, as `azmcp pricing get` binds it (docs/profile.md,
// PROFILE-004 and PROFILE-005): the fixed command, each option by name and value, the
// savings-plan flag's boolean, and the $filter the CLI would send, compared by structure. Option
// order, `--opt=value` spellings and an explicit `--currency USD` carry no meaning.
#ifndef CONFORMANCE_JUDGE_CLI_REQUEST_H_
#define CONFORMANCE_JUDGE_CLI_REQUEST_H_

#include <string>
#include <vector>

namespace azure_pricing::conformance::judge {

// Empty when `got` asks the CLI for the same lookup as `want`; otherwise what differs, one
// clause per difference ("--sku is 'a', want 'b'", "filter: lacks (...)", "argv[0] is ...").
// `want` is the case's own argv, which is expected to bind; an argv that the CLI would not run
// (help, a parse error, a response file) differs from every other.
std::string DescribeArgvDifference(const std::vector<std::string>& got,
                                   const std::vector<std::string>& want);

}  // namespace azure_pricing::conformance::judge

#endif  // CONFORMANCE_JUDGE_CLI_REQUEST_H_
