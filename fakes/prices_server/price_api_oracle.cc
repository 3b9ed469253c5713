// The fake price API's handler as it was before items were pre-serialised at load (commit
// 445a036): nlohmann items copied, edited and dumped for every page, candidates intersected in
// full. Kept, testonly, as the oracle price_api_identity_test compares the fast handler with
// byte for byte, and as price_api_benchmark's baseline; nothing else may use it.
#include "fakes/prices_server/price_api_oracle.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "fakes/prices_server/odata.h"
// Lexical helpers only: a decision on an answer shared here would be hidden from the identity test.
#include "fakes/prices_server/query_text.h"

namespace azure_pricing::fakes::prices::oracle {

using Json = nlohmann::ordered_json;

namespace {

// The fields equality queries are answered from; values indexed lower-cased so the same index
// serves the case-insensitive API versions (every candidate is re-checked by the evaluator).
constexpr const char* kIndexedFields[] = {
    "serviceName", "armRegionName", "armSkuName", "type",     "serviceFamily",
    "meterName",   "productName",   "skuName",    "location", "reservationTerm"};

// Fixed rates for the fake's currencies: the real API converts; the fake only has to be
// consistent. An unknown code is answered in USD, as the CLI cannot tell.
const std::map<std::string, double>& Rates() {
  static const auto* rates = new std::map<std::string, double>{
      {"USD", 1.0},  {"EUR", 0.92}, {"GBP", 0.79}, {"JPY", 150.0}, {"AUD", 1.5},
      {"CAD", 1.36}, {"CHF", 0.88}, {"INR", 83.0}, {"BRL", 5.0},   {"KRW", 1330.0}};
  return *rates;
}

HttpResponse Error(int status, std::string_view message) {
  Json body = {{"Error", {{"Code", "BadRequest"}, {"Message", message}}}};
  return {status, "application/json; charset=utf-8", body.dump()};
}

}  // namespace

struct Catalog::Impl {
  std::vector<Json> items;
  std::unordered_map<std::string, std::unordered_map<std::string, std::vector<uint32_t>>> index;

  void Append(Json item) {
    const uint32_t id = static_cast<uint32_t>(items.size());
    for (const char* field : kIndexedFields) {
      auto it = item.find(field);
      if (it != item.end() && it->is_string()) {
        index[field][AsciiLower(it->get<std::string>())].push_back(id);
      }
    }
    items.push_back(std::move(item));
  }

  // Candidate item ids for an expression, or nullopt for "scan everything".
  std::optional<std::vector<uint32_t>> Candidates(const Expr& e) const {
    switch (e.kind) {
      case Expr::Kind::kEq: {
        const std::optional<std::string> field = ItemFieldFor(e.field);
        if (!field) return std::vector<uint32_t>{};
        bool indexed = false;
        for (const char* name : kIndexedFields) indexed = indexed || *field == name;
        if (!indexed) return std::nullopt;
        auto f = index.find(*field);
        if (f == index.end()) return std::vector<uint32_t>{};  // no item has the field
        auto v = f->second.find(AsciiLower(e.value));
        if (v == f->second.end()) return std::vector<uint32_t>{};
        return v->second;
      }
      case Expr::Kind::kContains:
        return std::nullopt;
      case Expr::Kind::kAnd: {
        auto l = Candidates(*e.left);
        auto r = Candidates(*e.right);
        if (!l) return r;
        if (!r) return l;
        std::vector<uint32_t> both;
        std::set_intersection(l->begin(), l->end(), r->begin(), r->end(), std::back_inserter(both));
        return both;
      }
      case Expr::Kind::kOr: {
        auto l = Candidates(*e.left);
        auto r = Candidates(*e.right);
        if (!l || !r) return std::nullopt;
        std::vector<uint32_t> merged;
        merged.reserve(l->size() + r->size());
        std::set_union(l->begin(), l->end(), r->begin(), r->end(), std::back_inserter(merged));
        return merged;
      }
    }
    return std::nullopt;
  }
};

Catalog::Catalog() : impl_(std::make_unique<Impl>()) {}
Catalog::~Catalog() = default;
Catalog::Catalog(Catalog&&) noexcept = default;
Catalog& Catalog::operator=(Catalog&&) noexcept = default;
size_t Catalog::size() const { return impl_->items.size(); }

bool Catalog::Add(std::string_view text, std::string* error) {
  Json whole = Json::parse(text, nullptr, false);
  if (!whole.is_discarded()) {
    if (whole.is_object() && whole.contains("Items") && whole["Items"].is_array()) {
      for (Json& item : whole["Items"]) impl_->Append(std::move(item));
      return true;
    }
    if (whole.is_object()) {  // a one-line JSON Lines file
      impl_->Append(std::move(whole));
      return true;
    }
    if (error) *error = "a catalog is a JSON object with an Items array, or JSON Lines of items";
    return false;
  }
  size_t start = 0, line = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    ++line;
    const std::string_view row = text.substr(start, end - start);
    start = end + 1;
    if (row.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    Json item = Json::parse(row, nullptr, false);
    if (item.is_discarded() || !item.is_object()) {
      if (error) *error = "line " + std::to_string(line) + " is not a JSON object";
      return false;
    }
    impl_->Append(std::move(item));
  }
  return true;
}

namespace {

// One request's query, read and checked: what to match, which page, in which currency.
struct PriceQuery {
  std::string_view query;  // as sent, for the NextPageLink
  std::vector<QueryParam> params;
  std::optional<std::string> currency, meter_region;
  std::unique_ptr<Expr> expr;
  int64_t skip = 0;
  bool preview_2023 = false;
};

// The query's parameters; an answer instead when the API refuses them.
std::optional<HttpResponse> ReadParams(PriceQuery& q, std::optional<std::string>& api_version,
                                       std::optional<std::string>& filter) {
  for (const QueryParam& p : q.params) {
    if (p.key == "api-version") api_version = p.value;
    if (p.key == "currencyCode") q.currency = Unquote(p.value);
    if (p.key == "$filter") filter = p.value;
    if (p.key == "meterRegion") q.meter_region = Unquote(p.value);
    if (p.key == "$skip") {
      if (p.value.empty() || p.value.size() > 9 ||
          p.value.find_first_not_of("0123456789") != std::string::npos) {
        return Error(400, "Invalid OData parameters supplied");
      }
      q.skip = std::stoll(p.value);
    }
  }
  return std::nullopt;
}

std::optional<HttpResponse> ReadQuery(std::string_view query, PriceQuery& q) {
  q.query = query;
  q.params = SplitQuery(query);
  std::optional<std::string> api_version, filter;
  if (std::optional<HttpResponse> refused = ReadParams(q, api_version, filter)) return refused;
  if (api_version) {
    if (*api_version == "2023-01-01-preview") {
      q.preview_2023 = true;
    } else if (*api_version != "2021-10-01-preview") {
      return Error(400, "Unsupported API version");
    }
  }
  if (filter && !filter->empty()) {
    ParsedFilter parsed = ParseFilter(*filter);
    if (parsed.error == FilterError::kInvalidParameters) {
      return Error(400, "Invalid parameters supplied");
    }
    if (parsed.error != FilterError::kNone) return Error(400, "Invalid OData parameters supplied");
    q.expr = std::move(parsed.expr);
  }
  return std::nullopt;
}

// Ids of matching items in catalog order, stopping at `enough`.
std::vector<uint32_t> Match(const Catalog::Impl& c, const PriceQuery& q, size_t enough) {
  const bool primary_only = q.meter_region && *q.meter_region == "primary";
  std::vector<uint32_t> matched;
  auto consider = [&](uint32_t id) {
    const Json& item = c.items[id];
    if (primary_only) {
      auto p = item.find("isPrimaryMeterRegion");
      if (p != item.end() && p->is_boolean() && !p->get<bool>()) return;
    }
    if (q.expr) {
      FieldReader read = [&item](std::string_view field) -> std::optional<std::string_view> {
        auto it = item.find(std::string(field));
        if (it == item.end() || !it->is_string()) return std::nullopt;
        return it->get_ref<const std::string&>();
      };
      if (!Matches(*q.expr, read, /*case_sensitive=*/q.preview_2023)) return;
    }
    matched.push_back(id);
  };
  if (std::optional<std::vector<uint32_t>> candidates =
          q.expr ? c.Candidates(*q.expr) : std::nullopt) {
    for (uint32_t id : *candidates) {
      consider(id);
      if (matched.size() >= enough) break;
    }
  } else {
    for (uint32_t id = 0; id < c.items.size() && matched.size() < enough; ++id) consider(id);
  }
  return matched;
}

// The original query, in its order and encoding, with the new $skip last.
std::string NextPageLink(const PriceQuery& q, size_t next_skip) {
  std::string next = std::string(kPublicBase) + "?";
  bool first = true;
  for (const QueryParam& p : q.params) {
    if (p.key == "$skip") continue;
    if (!first) next += "&";
    next += p.raw_key + (p.raw_value.empty() && q.query.find(p.raw_key + "=") == std::string::npos
                             ? ""
                             : "=" + p.raw_value);
    first = false;
  }
  next += std::string(first ? "" : "&") + "$skip=" + std::to_string(next_skip);
  return next;
}

HttpResponse Page(const Catalog::Impl& c, const PriceQuery& q,
                  const std::vector<uint32_t>& matched, int page_size) {
  const std::string code = q.currency && !q.currency->empty() ? *q.currency : "USD";
  auto rate_it = Rates().find(code);
  const double rate = rate_it == Rates().end() ? 1.0 : rate_it->second;
  const std::string billing = rate_it == Rates().end() ? "USD" : code;
  Json page = Json::object();
  page["BillingCurrency"] = billing;
  page["CustomerEntityId"] = "Default";
  page["CustomerEntityType"] = "Retail";
  Json items = Json::array();
  const size_t begin = static_cast<size_t>(q.skip);
  const size_t end = std::min(matched.size(), begin + static_cast<size_t>(page_size));
  for (size_t i = begin; i < end; ++i) {
    Json item = c.items[matched[i]];
    if (!q.preview_2023) item.erase("savingsPlan");
    if (rate != 1.0) {
      for (const char* k : {"retailPrice", "unitPrice"}) {
        if (item.contains(k) && item[k].is_number()) item[k] = item[k].get<double>() * rate;
      }
    }
    if (item.contains("currencyCode")) item["currencyCode"] = billing;
    items.push_back(std::move(item));
  }
  const size_t count = items.size();
  page["Items"] = std::move(items);
  page["NextPageLink"] = end < matched.size() ? Json(NextPageLink(q, end)) : Json(nullptr);
  page["Count"] = count;
  return {200, "application/json; charset=utf-8", page.dump()};
}

}  // namespace

HttpResponse HandlePrices(const Catalog& catalog, std::string_view target, int page_size) {
  if (target.size() > kMaxUrlLength) return {404, "text/html", "<h1>Not Found</h1>"};
  const size_t question = target.find('?');
  const std::string_view path = target.substr(0, question);
  if (path != "/api/retail/prices") return {404, "text/html", "<h1>Not Found</h1>"};
  PriceQuery q;
  const std::string_view query = question == std::string_view::npos ? "" : target.substr(question + 1);
  if (std::optional<HttpResponse> refused = ReadQuery(query, q)) return std::move(*refused);
  // One match past this page is enough to know there is a next one; a $skip past the end still
  // counts every match for the API's error message.
  const size_t enough = static_cast<size_t>(q.skip) + static_cast<size_t>(page_size) + 1;
  const std::vector<uint32_t> matched = Match(catalog.impl(), q, enough);
  if (q.skip > 0 && q.skip > static_cast<int64_t>(matched.size())) {
    return Error(400, "Skip value " + std::to_string(q.skip) + " is greater than the total count " +
                          std::to_string(matched.size()));
  }
  return Page(catalog.impl(), q, matched, page_size);
}

}  // namespace azure_pricing::fakes::prices::oracle
