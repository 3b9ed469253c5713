// libFuzzer target: the region planner, over any bytes as tool arguments (validated first, as the
// tool does) and over any bytes as a raw filter with a region from a fixed list (unvalidated).
// Invariants: nothing crashes; a query expands exactly when a region is given that is not a
// location value and the raw filter does not name armRegionName; the planned filter is the
// parenthesised region set, then " and (" + the raw filter + ")", byte for byte; and, read by the
// fake price API's own OData parser (which shares no code with ref/): the set asks for exactly
// the requested region, Global and the expansion zones; a raw filter the API reads as naming
// armRegionName is never expanded; a raw filter the API accepts keeps its meaning once wrapped.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fakes/prices_server/odata.h"
#include "ref/pricing/arguments.h"
#include "ref/pricing/command.h"
#include "ref/pricing/region_plan.h"
#include "ref/zones/location_values.h"
#include "ref/zones/zones.h"

namespace {

namespace odata = azure_pricing::fakes::prices;
using azure_pricing::RegionPlan;
using azure_pricing::ToolArguments;

void Require(bool condition) {
  if (!condition) std::abort();
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool IsField(const odata::Expr& e, std::string_view lower_name) {
  std::string field = e.field;
  for (char& c : field) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return field == lower_name;
}

bool NamesArmRegionName(const odata::Expr& e) {
  if (e.kind == odata::Expr::Kind::kAnd || e.kind == odata::Expr::Kind::kOr) {
    return NamesArmRegionName(*e.left) || NamesArmRegionName(*e.right);
  }
  return IsField(e, "armregionname");
}

// The comparisons of an or-chain, left to right.
void Disjuncts(const odata::Expr& e, std::vector<const odata::Expr*>& out) {
  if (e.kind == odata::Expr::Kind::kOr) {
    Disjuncts(*e.left, out);
    Disjuncts(*e.right, out);
    return;
  }
  out.push_back(&e);
}

// The region set as the API reads it: armRegionName eq each value, in the planner's order.
void CheckRegionSet(std::string_view set, const RegionPlan& plan) {
  const odata::ParsedFilter parsed = odata::ParseFilter(set);
  Require(parsed.error == odata::FilterError::kNone);
  std::vector<const odata::Expr*> terms;
  Disjuncts(*parsed.expr, terms);
  std::vector<std::string> want = {plan.requested_region, "Global"};
  for (std::string_view zone : azure_pricing::zones::kExpansionZones) want.emplace_back(zone);
  Require(terms.size() == want.size());
  for (size_t i = 0; i < terms.size(); ++i) {
    Require(terms[i]->kind == odata::Expr::Kind::kEq && IsField(*terms[i], "armregionname"));
    Require(terms[i]->value == want[i]);
  }
}

// The deepest parentheses outside literals ('' toggles twice, so it stays inside).
int Nesting(std::string_view text) {
  int depth = 0, deepest = 0;
  bool literal = false;
  for (const char c : text) {
    if (c == '\'') {
      literal = !literal;
    } else if (!literal && c == '(') {
      deepest = std::max(deepest, ++depth);
    } else if (!literal && c == ')') {
      --depth;
    }
  }
  return deepest;
}

// What the API makes of the raw filter, alone and as planned.
void CheckRawFilter(const ToolArguments& args, const RegionPlan& plan, bool validated) {
  const odata::ParsedFilter raw = odata::ParseFilter(*args.filter);
  const bool raw_ok = raw.error == odata::FilterError::kNone;
  if (raw_ok && NamesArmRegionName(*raw.expr)) Require(!plan.expanded);
  const std::string sent = plan.expanded ? plan.filter : "(" + *args.filter + ")";
  const odata::ParsedFilter planned = odata::ParseFilter(sent);
  const bool planned_ok = planned.error == odata::FilterError::kNone;
  // Wrapping adds the set's comparisons and a level of parentheses; past the API's limits both
  // are refused alike.
  const int added =
      plan.expanded ? 2 + static_cast<int>(azure_pricing::zones::kExpansionZones.size()) : 0;
  if (raw_ok && raw.comparisons + added <= odata::kMaxComparisons &&
      Nesting(*args.filter) < odata::kMaxNesting) {
    Require(planned_ok);
    const odata::Expr& kept = plan.expanded ? *planned.expr->right : *planned.expr;
    Require(!plan.expanded || planned.expr->kind == odata::Expr::Kind::kAnd);
    Require(odata::PrintFilter(kept) == odata::PrintFilter(*raw.expr));
  }
  // Validated filters balance their parentheses, so the wrapped filter cannot mean more.
  if (validated && planned_ok) Require(raw_ok);
}

void CheckPlan(const ToolArguments& args, bool validated) {
  const RegionPlan plan =
      azure_pricing::PlanRegion(args, azure_pricing::zones::ZoneTable::Bundled());
  const bool names = args.filter && azure_pricing::FilterNamesArmRegionName(*args.filter);
  const bool expand = args.region && !azure_pricing::zones::IsLocationValue(*args.region) && !names;
  Require(plan.expanded == expand);
  if (plan.expanded) {
    Require(azure_pricing::zones::SameRegionName(plan.requested_region, *args.region));
    const std::string suffix = args.filter ? " and (" + *args.filter + ")" : "";
    Require(plan.filter.size() > suffix.size() + 2 && plan.filter.front() == '(' &&
            EndsWith(plan.filter, suffix));
    const std::string_view set =
        std::string_view(plan.filter).substr(0, plan.filter.size() - suffix.size());
    Require(set.back() == ')');
    CheckRegionSet(set.substr(1, set.size() - 2), plan);
  } else {
    Require(plan.filter.empty() && plan.known == nullptr);
  }
  if (args.filter) CheckRawFilter(args, plan, validated);
  if (validated) {
    const std::vector<std::string> argv = azure_pricing::BuildArgv(args, plan);
    for (const std::string& a : argv) Require(azure_pricing::ForbiddenCharacterReason(a).empty());
  }
}

constexpr std::string_view kRegions[] = {"eastus", "EastUS",        "westeurope", "Global",
                                         "Zone 1", "US Gov Zone 2", "mars-north", "it's"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto args = azure_pricing::ParseToolArguments(text);
  if (args.ok()) CheckPlan(*args, /*validated=*/true);
  ToolArguments raw;
  raw.region = std::string(kRegions[size % std::size(kRegions)]);
  raw.filter = text;
  CheckPlan(raw, /*validated=*/false);
  raw.filter.reset();
  CheckPlan(raw, /*validated=*/false);
  return 0;
}
