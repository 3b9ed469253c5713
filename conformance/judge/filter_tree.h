// An OData $filter as a tree of `and` and `or` whose operand order, duplicate operands and
// redundant parentheses carry no meaning (docs/profile.md, PROFILE-005): the gate compares two
// filters by this tree, so an implementation may write a region expansion's terms, or its
// operands around the raw filter, in any order, but may not change what the filter selects.
#ifndef CONFORMANCE_JUDGE_FILTER_TREE_H_
#define CONFORMANCE_JUDGE_FILTER_TREE_H_

#include <string>
#include <string_view>
#include <vector>

namespace azure_pricing::conformance::judge {

struct FilterTree {
  enum class Kind { kAtom, kAnd, kOr };
  Kind kind = Kind::kAtom;
  // kAtom: the predicate's text, whitespace outside quoted strings collapsed to one space.
  std::string atom;
  // kAnd and kOr: at least two operands, none of the same kind as this node (flattened),
  // sorted by their canonical text, without duplicates.
  std::vector<FilterTree> operands;
};

// Splits at `and` and `or` outside quoted strings ('' is a quote inside one) and outside
// parentheses, `and` binding tighter than `or`, as OData does. Text whose parentheses do not
// balance, or that is not a filter at all, becomes one atom: it then equals only itself.
FilterTree ParseFilter(std::string_view text);

// One text per tree, equal exactly when the trees are: the comparison key and what a failure
// shows.
std::string CanonicalText(const FilterTree& tree);

// What the CLI sends as $filter: its typed clauses (each `field eq 'value'`, with ' doubled)
// and then the raw filter, joined by " and " without parentheses, as azmcp's pricing get does.
struct CliClauses {
  std::string sku, service, region, service_family, price_type, filter;  // empty: absent
};
std::string CliFilter(const CliClauses& clauses);

// Empty when the two filters mean the same; otherwise which operands one has and the other
// lacks, at the first level where they differ, e.g.
//   "lacks (armRegionName eq 'Zone 9'); has (armRegionName eq 'zone 9')".
std::string DescribeFilterDifference(const FilterTree& got, const FilterTree& want);

}  // namespace azure_pricing::conformance::judge

#endif  // CONFORMANCE_JUDGE_FILTER_TREE_H_
