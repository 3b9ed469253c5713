// The OData $filter subset prices.azure.com accepts, as the fake price API parses and evaluates
// it: `field eq 'value'`, `contains(field,'value')`, `and`, `or` and parentheses over the
// documented fields (plus reservationTerm and currencyCode). What the real API refuses is refused
// the same way: unknown fields, `in`, `not`, `ne`/`gt`/..., priceType values it does not know,
// more than 20 comparisons ("Invalid OData parameters supplied"), and lambdas such as
// savingsPlan/any(...) ("Invalid parameters supplied").
//
// This code shares nothing with ref/: the fake and the reference meet only at the wire.
//
//   fakes::prices::ParsedFilter f = fakes::prices::ParseFilter("serviceName eq 'Bandwidth'");
//   if (f.error == fakes::prices::FilterError::kNone)
//     bool hit = fakes::prices::Matches(*f.expr, item, /*case_sensitive=*/true);
#ifndef FAKES_PRICES_SERVER_ODATA_H_
#define FAKES_PRICES_SERVER_ODATA_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace azure_pricing::fakes::prices {

// The item field a filter field reads. Filter field names are matched without regard to case
// (Microsoft's reference prints both `Location` and `productid`); priceType reads `type`.
std::optional<std::string> ItemFieldFor(std::string_view filter_field);

// Every item field ItemFieldFor can name, so a catalog can keep exactly the values filters read.
std::vector<std::string_view> FilterableItemFields();

struct Expr {
  enum class Kind { kEq, kContains, kAnd, kOr };
  Kind kind = Kind::kEq;
  std::string field;                  // kEq, kContains: the filter field as written
  std::string value;                  // kEq, kContains: the literal, unescaped
  std::unique_ptr<Expr> left, right;  // kAnd, kOr
};

enum class FilterError {
  kNone,
  kInvalidOData,       // 400 "Invalid OData parameters supplied"
  kInvalidParameters,  // 400 "Invalid parameters supplied" (lambdas)
};

struct ParsedFilter {
  FilterError error = FilterError::kNone;
  std::unique_ptr<Expr> expr;
  int comparisons = 0;
};

inline constexpr int kMaxComparisons = 20;
// Deeper parentheses are refused (kInvalidOData). The real API's limit is unobserved; this one
// keeps a hostile filter from overflowing the fake's stack.
inline constexpr int kMaxNesting = 100;

ParsedFilter ParseFilter(std::string_view text);

// Canonical text: single spaces, `''` escapes, parentheses only where the tree needs them (a
// right operand of the same operator is parenthesized, so parsing the text gives the same tree).
std::string PrintFilter(const Expr& expr);

// `field` reads an item's value by its item field name (nullopt when the item lacks it, which
// matches nothing). Values compare exactly, or ASCII-case-insensitively before the 2023 preview.
using FieldReader = std::function<std::optional<std::string_view>(std::string_view item_field)>;
bool Matches(const Expr& expr, const FieldReader& field, bool case_sensitive);

}  // namespace azure_pricing::fakes::prices

#endif  // FAKES_PRICES_SERVER_ODATA_H_
