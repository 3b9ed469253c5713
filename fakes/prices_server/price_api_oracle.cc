// The fake price API's handler as it was before items were pre-serialised at load (commit
// 445a036): nlohmann items copied, edited and dumped for every page, candidates intersected in
// full. Kept, testonly, as the oracle price_api_identity_test compares the fast handler with
// byte for byte, and as price_api_benchmark's baseline; nothing else may use it.
#include "fakes/prices_server/price_api_oracle.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "fakes/prices_server/odata.h"
// The request read as the fast handler reads it; a decision on an answer shared here would be
// hidden from the identity test.
#include "fakes/prices_server/price_request.h"
#include "fakes/prices_server/query_text.h"

namespace azure_pricing::fakes::prices::oracle {

using Json = nlohmann::ordered_json;

namespace {

// The fields equality queries are answered from; values indexed lower-cased so the same index
// serves the case-insensitive API versions (every candidate is re-checked by the evaluator).
constexpr const char* kIndexedFields[] = {
    "serviceName", "armRegionName", "armSkuName", "type",     "serviceFamily",
    "meterName",   "productName",   "skuName",    "location", "reservationTerm"};

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
  return ReadCatalogText(text, [this](Json item) { impl_->Append(std::move(item)); }, error);
}

namespace {

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

HttpResponse Page(const Catalog::Impl& c, const PriceQuery& q,
                  const std::vector<uint32_t>& matched, int page_size) {
  const std::string code = q.currency && !q.currency->empty() ? *q.currency : "USD";
  auto rate_it = CurrencyRates().find(code);
  const double rate = rate_it == CurrencyRates().end() ? 1.0 : rate_it->second;
  const std::string billing = rate_it == CurrencyRates().end() ? "USD" : code;
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
  return AnswerRequest(
      target, page_size,
      [&catalog](const PriceQuery& q, size_t enough) { return Match(catalog.impl(), q, enough); },
      [&catalog, page_size](const PriceQuery& q, const std::vector<uint32_t>& matched) {
        return Page(catalog.impl(), q, matched, page_size);
      });
}

}  // namespace azure_pricing::fakes::prices::oracle
