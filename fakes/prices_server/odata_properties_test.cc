// Generated filters: the canonical printer and the parser round-trip, and evaluation agrees with
// a naive evaluator written here over the generated tree, on generated items.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <memory>

#include "fakes/prices_server/odata.h"

namespace azure_pricing::fakes::prices {
namespace {

// The test's own tree, printed fully parenthesized so the text does not rely on PrintFilter.
struct Node {
  int kind = 0;  // 0 eq, 1 contains, 2 and, 3 or
  std::string field, value;
  std::shared_ptr<Node> l, r;
};

const std::vector<std::string> kFields = {"serviceName", "armRegionName", "priceType", "meterName",
                                          "skuName"};
const std::map<std::string, std::string> kItemField = {{"serviceName", "serviceName"},
                                                       {"armRegionName", "armRegionName"},
                                                       {"priceType", "type"},
                                                       {"meterName", "meterName"},
                                                       {"skuName", "skuName"}};

rc::Gen<std::string> GenValue(const std::string& field) {
  if (field == "priceType") return rc::gen::element<std::string>("Consumption", "Reservation");
  return rc::gen::element<std::string>("a", "A", "b", "ab", "x'y", "", "Zone 1");
}

rc::Gen<std::shared_ptr<Node>> GenNode(int depth) {
  return rc::gen::exec([depth] {
    auto n = std::make_shared<Node>();
    n->kind = depth <= 0 ? *rc::gen::inRange(0, 2) : *rc::gen::inRange(0, 4);
    if (n->kind < 2) {
      n->field = *rc::gen::elementOf(kFields);
      if (n->kind == 1 && n->field == "priceType") n->field = "meterName";
      n->value = *GenValue(n->field);
    } else {
      n->l = *GenNode(depth - 1);
      n->r = *GenNode(depth - 1);
    }
    return n;
  });
}

std::string Quote(const std::string& v) {
  std::string out = "'";
  for (char c : v) {
    if (c == '\'') out += "'";
    out += c;
  }
  return out + "'";
}

std::string FullyParenthesized(const Node& n) {
  switch (n.kind) {
    case 0:
      return n.field + " eq " + Quote(n.value);
    case 1:
      return "contains(" + n.field + ", " + Quote(n.value) + ")";
    default:
      return "(" + FullyParenthesized(*n.l) + (n.kind == 2 ? ") and (" : ") or (") +
             FullyParenthesized(*n.r) + ")";
  }
}

int Comparisons(const Node& n) { return n.kind < 2 ? 1 : Comparisons(*n.l) + Comparisons(*n.r); }

bool Naive(const Node& n, const std::map<std::string, std::string>& item) {
  if (n.kind == 2) return Naive(*n.l, item) && Naive(*n.r, item);
  if (n.kind == 3) return Naive(*n.l, item) || Naive(*n.r, item);
  auto it = item.find(kItemField.at(n.field));
  if (it == item.end()) return false;
  return n.kind == 0 ? it->second == n.value : it->second.find(n.value) != std::string::npos;
}

RC_GTEST_PROP(ODataFilter, PrintAndParseRoundTrip, ()) {
  const auto tree = *GenNode(3);
  RC_PRE(Comparisons(*tree) <= kMaxComparisons);
  ParsedFilter parsed = ParseFilter(FullyParenthesized(*tree));
  RC_ASSERT(parsed.error == FilterError::kNone);
  RC_ASSERT(parsed.comparisons == Comparisons(*tree));
  const std::string canonical = PrintFilter(*parsed.expr);
  ParsedFilter again = ParseFilter(canonical);
  RC_ASSERT(again.error == FilterError::kNone);
  RC_ASSERT(PrintFilter(*again.expr) == canonical);
}

RC_GTEST_PROP(ODataFilter, EvaluationMatchesANaiveEvaluator, ()) {
  const auto tree = *GenNode(3);
  RC_PRE(Comparisons(*tree) <= kMaxComparisons);
  ParsedFilter parsed = ParseFilter(FullyParenthesized(*tree));
  RC_ASSERT(parsed.error == FilterError::kNone);
  const auto items =
      *rc::gen::container<std::vector<std::map<std::string, std::string>>>(rc::gen::exec([] {
        std::map<std::string, std::string> item;
        for (const auto& [filter_field, item_field] : kItemField) {
          if (*rc::gen::inRange(0, 5) == 0) continue;  // sometimes absent
          item[item_field] = *GenValue(filter_field);
        }
        return item;
      }));
  for (const auto& item : items) {
    FieldReader read = [&](std::string_view k) -> std::optional<std::string_view> {
      auto it = item.find(std::string(k));
      if (it == item.end()) return std::nullopt;
      return it->second;
    };
    RC_ASSERT(Matches(*parsed.expr, read, /*case_sensitive=*/true) == Naive(*tree, item));
  }
}

}  // namespace
}  // namespace azure_pricing::fakes::prices
