// libFuzzer target: any bytes as the fake price API's $filter. Invariants: nothing crashes; an
// accepted filter has at most the API's comparison limit; its canonical text parses back to the
// same canonical text and count (PrintFilter's promise); a refusal carries no tree; and an item
// built from the input's own literals matches case-insensitively whenever it matches exactly.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "fakes/prices_server/odata.h"

namespace {

namespace odata = azure_pricing::fakes::prices;

void Require(bool condition) {
  if (!condition) std::abort();
}

// Every comparison's literal becomes its field's value, so the item can match.
void CollectItem(const odata::Expr& e, std::map<std::string, std::string, std::less<>>& item) {
  if (e.kind == odata::Expr::Kind::kAnd || e.kind == odata::Expr::Kind::kOr) {
    CollectItem(*e.left, item);
    CollectItem(*e.right, item);
    return;
  }
  const std::optional<std::string> field = odata::ItemFieldFor(e.field);
  Require(field.has_value());
  item[*field] = e.value;
}

void CheckMatches(const odata::Expr& expr) {
  std::map<std::string, std::string, std::less<>> item;
  CollectItem(expr, item);
  const odata::FieldReader read = [&item](std::string_view name) {
    const auto it = item.find(name);
    return it == item.end() ? std::nullopt : std::optional<std::string_view>(it->second);
  };
  const odata::FieldReader none = [](std::string_view) {
    return std::optional<std::string_view>();
  };
  if (odata::Matches(expr, read, /*case_sensitive=*/true)) {
    Require(odata::Matches(expr, read, /*case_sensitive=*/false));
  }
  // An item without the fields matches nothing, whatever the operators.
  Require(!odata::Matches(expr, none, true) && !odata::Matches(expr, none, false));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const odata::ParsedFilter parsed = odata::ParseFilter(text);
  if (parsed.error != odata::FilterError::kNone) {
    Require(parsed.expr == nullptr);
    return 0;
  }
  Require(parsed.expr != nullptr && parsed.comparisons >= 1 &&
          parsed.comparisons <= odata::kMaxComparisons);
  const std::string canonical = odata::PrintFilter(*parsed.expr);
  const odata::ParsedFilter again = odata::ParseFilter(canonical);
  Require(again.error == odata::FilterError::kNone);
  Require(again.comparisons == parsed.comparisons);
  Require(odata::PrintFilter(*again.expr) == canonical);
  CheckMatches(*parsed.expr);
  return 0;
}
