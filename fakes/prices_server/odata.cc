#include "fakes/prices_server/odata.h"

#include <array>
#include <cctype>
#include <utility>

namespace azure_pricing::fakes::prices {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

constexpr std::array<std::pair<std::string_view, std::string_view>, 15> kFields = {{
    {"armregionname", "armRegionName"},
    {"location", "location"},
    {"meterid", "meterId"},
    {"metername", "meterName"},
    {"productid", "productId"},
    {"skuid", "skuId"},
    {"productname", "productName"},
    {"skuname", "skuName"},
    {"servicename", "serviceName"},
    {"serviceid", "serviceId"},
    {"servicefamily", "serviceFamily"},
    {"pricetype", "type"},
    {"armskuname", "armSkuName"},
    {"reservationterm", "reservationTerm"},
    {"currencycode", "currencyCode"},
}};

// priceType values the API accepts; anything else is a 400 (SavingsPlan is accepted and matches
// no row).
constexpr std::array<std::string_view, 4> kPriceTypes = {"Consumption", "Reservation",
                                                         "DevTestConsumption", "SavingsPlan"};

struct Token {
  enum class Kind { kIdent, kString, kOpen, kClose, kComma, kEnd, kBad };
  Kind kind = Kind::kEnd;
  std::string text;
};

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Token Next() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
    if (pos_ >= text_.size()) return {Token::Kind::kEnd, ""};
    const char c = text_[pos_];
    if (c == '(') return ++pos_, Token{Token::Kind::kOpen, "("};
    if (c == ')') return ++pos_, Token{Token::Kind::kClose, ")"};
    if (c == ',') return ++pos_, Token{Token::Kind::kComma, ","};
    if (c == '\'') {
      std::string value;
      ++pos_;
      while (pos_ < text_.size()) {
        if (text_[pos_] == '\'') {
          if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '\'') {
            value.push_back('\'');
            pos_ += 2;
            continue;
          }
          ++pos_;
          return {Token::Kind::kString, value};
        }
        value.push_back(text_[pos_++]);
      }
      return {Token::Kind::kBad, ""};
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const size_t start = pos_;
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' ||
              text_[pos_] == '/' || text_[pos_] == ':')) {
        ++pos_;
      }
      return {Token::Kind::kIdent, std::string(text_.substr(start, pos_ - start))};
    }
    ++pos_;
    return {Token::Kind::kBad, std::string(1, c)};
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

class Parser {
 public:
  explicit Parser(std::string_view text) : lexer_(text) { Advance(); }

  ParsedFilter Parse() {
    ParsedFilter out;
    std::unique_ptr<Expr> e = OrExpr();
    if (error_ == FilterError::kNone && token_.kind != Token::Kind::kEnd) Fail();
    if (error_ == FilterError::kNone && comparisons_ > kMaxComparisons) Fail();
    out.error = error_;
    out.comparisons = comparisons_;
    if (error_ == FilterError::kNone) out.expr = std::move(e);
    return out;
  }

 private:
  void Advance() { token_ = lexer_.Next(); }
  void Fail(FilterError e = FilterError::kInvalidOData) {
    if (error_ == FilterError::kNone) error_ = e;
  }
  bool IsWord(std::string_view w) const {
    return token_.kind == Token::Kind::kIdent && token_.text == w;
  }

  std::unique_ptr<Expr> Binary(Expr::Kind kind, std::unique_ptr<Expr> l, std::unique_ptr<Expr> r) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->left = std::move(l);
    e->right = std::move(r);
    return e;
  }

  std::unique_ptr<Expr> OrExpr() {
    std::unique_ptr<Expr> left = AndExpr();
    while (error_ == FilterError::kNone && IsWord("or")) {
      Advance();
      left = Binary(Expr::Kind::kOr, std::move(left), AndExpr());
    }
    return left;
  }

  std::unique_ptr<Expr> AndExpr() {
    std::unique_ptr<Expr> left = Primary();
    while (error_ == FilterError::kNone && IsWord("and")) {
      Advance();
      left = Binary(Expr::Kind::kAnd, std::move(left), Primary());
    }
    return left;
  }

  // contains(field, 'text'), after the word contains.
  std::unique_ptr<Expr> Contains() {
    if (token_.kind != Token::Kind::kOpen) return Fail(), nullptr;
    Advance();
    if (token_.kind != Token::Kind::kIdent || !ItemFieldFor(token_.text)) return Fail(), nullptr;
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::kContains;
    e->field = token_.text;
    Advance();
    if (token_.kind != Token::Kind::kComma) return Fail(), nullptr;
    Advance();
    if (token_.kind != Token::Kind::kString) return Fail(), nullptr;
    e->value = token_.text;
    Advance();
    if (token_.kind != Token::Kind::kClose) return Fail(), nullptr;
    Advance();
    ++comparisons_;
    return e;
  }

  std::unique_ptr<Expr> Primary() {
    if (error_ != FilterError::kNone) return nullptr;
    if (token_.kind == Token::Kind::kOpen) {
      // The parser recurses per '(': a few thousand of them overflowed the stack (found by
      // //tools/fuzz:odata_fuzzer).
      if (++nesting_ > kMaxNesting) return Fail(), nullptr;
      Advance();
      std::unique_ptr<Expr> inner = OrExpr();
      --nesting_;
      if (token_.kind != Token::Kind::kClose) {
        Fail();
        return nullptr;
      }
      Advance();
      return inner;
    }
    if (token_.kind != Token::Kind::kIdent) {
      Fail();
      return nullptr;
    }
    const std::string word = token_.text;
    if (word.find('/') != std::string::npos) {
      // savingsPlan/any(t: ...) and friends: the API's other 400 message.
      Fail(Lower(word).find("/any") != std::string::npos ||
                   Lower(word).find("/all") != std::string::npos
               ? FilterError::kInvalidParameters
               : FilterError::kInvalidOData);
      return nullptr;
    }
    Advance();
    if (word == "contains") return Contains();
    // `not`, `in`, `ne`, `startswith`, numbers, unknown fields: all refused alike.
    if (!ItemFieldFor(word) || !IsWord("eq")) return Fail(), nullptr;
    Advance();
    if (token_.kind != Token::Kind::kString) return Fail(), nullptr;
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::kEq;
    e->field = word;
    e->value = token_.text;
    Advance();
    if (Lower(word) == "pricetype") {
      bool known = false;
      for (std::string_view t : kPriceTypes) known = known || e->value == t;
      if (!known) return Fail(), nullptr;
    }
    ++comparisons_;
    return e;
  }

  Lexer lexer_;
  Token token_;
  FilterError error_ = FilterError::kNone;
  int comparisons_ = 0;
  int nesting_ = 0;
};

void Quote(std::string& out, std::string_view value) {
  out.push_back('\'');
  for (char c : value) {
    if (c == '\'') out.push_back('\'');
    out.push_back(c);
  }
  out.push_back('\'');
}

int Precedence(Expr::Kind k) {
  switch (k) {
    case Expr::Kind::kOr:
      return 1;
    case Expr::Kind::kAnd:
      return 2;
    default:
      return 3;
  }
}

void Print(const Expr& e, std::string& out) {
  switch (e.kind) {
    case Expr::Kind::kEq:
      out += e.field + " eq ";
      Quote(out, e.value);
      return;
    case Expr::Kind::kContains:
      out += "contains(" + e.field + ",";
      Quote(out, e.value);
      out += ")";
      return;
    case Expr::Kind::kAnd:
    case Expr::Kind::kOr: {
      const int p = Precedence(e.kind);
      const bool paren_left = Precedence(e.left->kind) < p;
      const bool paren_right = Precedence(e.right->kind) <= p;
      if (paren_left) out += "(";
      Print(*e.left, out);
      if (paren_left) out += ")";
      out += e.kind == Expr::Kind::kAnd ? " and " : " or ";
      if (paren_right) out += "(";
      Print(*e.right, out);
      if (paren_right) out += ")";
      return;
    }
  }
}

// Without lower-cased copies: a full page re-checks a thousand candidates or more.
bool Equal(std::string_view a, std::string_view b, bool case_sensitive) {
  if (case_sensitive || a.size() != b.size()) return a == b;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<std::string> ItemFieldFor(std::string_view filter_field) {
  const std::string key = Lower(filter_field);
  for (const auto& [name, item] : kFields) {
    if (name == key) return std::string(item);
  }
  return std::nullopt;
}

std::vector<std::string_view> FilterableItemFields() {
  std::vector<std::string_view> out;
  for (const auto& [name, item] : kFields) out.push_back(item);
  return out;
}

ParsedFilter ParseFilter(std::string_view text) { return Parser(text).Parse(); }

std::string PrintFilter(const Expr& expr) {
  std::string out;
  Print(expr, out);
  return out;
}

bool Matches(const Expr& e, const FieldReader& field, bool case_sensitive) {
  switch (e.kind) {
    case Expr::Kind::kAnd:
      return Matches(*e.left, field, case_sensitive) && Matches(*e.right, field, case_sensitive);
    case Expr::Kind::kOr:
      return Matches(*e.left, field, case_sensitive) || Matches(*e.right, field, case_sensitive);
    case Expr::Kind::kEq:
    case Expr::Kind::kContains: {
      const std::optional<std::string> name = ItemFieldFor(e.field);
      if (!name) return false;
      const std::optional<std::string_view> value = field(*name);
      if (!value) return false;
      if (e.kind == Expr::Kind::kEq) return Equal(*value, e.value, case_sensitive);
      return case_sensitive ? value->find(e.value) != std::string_view::npos
                            : Lower(*value).find(Lower(e.value)) != std::string::npos;
    }
  }
  return false;
}

}  // namespace azure_pricing::fakes::prices
