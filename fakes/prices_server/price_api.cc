#include "fakes/prices_server/price_api.h"

#include <algorithm>
#include <limits>
#include <span>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "fakes/prices_server/odata.h"
#include "fakes/prices_server/price_request.h"
#include "fakes/prices_server/query_text.h"

namespace azure_pricing::fakes::prices {

using Json = nlohmann::ordered_json;

namespace {

// The fields equality queries are answered from; values indexed lower-cased so the same index
// serves the case-insensitive API versions (every candidate is re-checked by the evaluator).
constexpr const char* kIndexedFields[] = {
    "serviceName", "armRegionName", "armSkuName", "type",     "serviceFamily",
    "meterName",   "productName",   "skuName",    "location", "reservationTerm"};

constexpr uint32_t kAbsent = std::numeric_limits<uint32_t>::max();
constexpr uint32_t kUnescaped = std::numeric_limits<uint32_t>::max();

enum ItemFlag : uint8_t {
  kNotPrimary = 1,     // isPrimaryMeterRegion is the boolean false
  kVerbatimInUsd = 2,  // an object whose currencyCode is absent or "USD": a USD page shows it as is
};

// Item texts in blocks that never move. A catalog growing one std::string would, at each
// doubling, hold the old and the new copy at once: at 1,000,000 items, over the memory floor.
class TextArena {
 public:
  std::string_view Keep(std::string_view text) {
    if (blocks_.empty() || text.size() > capacity_ - used_) {
      capacity_ = std::max(kBlockBytes, text.size());
      blocks_.push_back(std::make_unique<char[]>(capacity_));
      used_ = 0;
    }
    char* at = blocks_.back().get() + used_;
    std::copy(text.begin(), text.end(), at);
    used_ += text.size();
    return {at, text.size()};
  }

 private:
  static constexpr size_t kBlockBytes = 16 << 20;
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t used_ = 0, capacity_ = 0;
};

}  // namespace

// Where one string value that filters read sits: `length` bytes at `offset` in the item's text,
// or, when JSON escapes it there, the string at index `offset` of Impl::unescaped (length is
// then kUnescaped). offset kAbsent: the item has no such string field.
struct FieldSlot {
  uint32_t offset = kAbsent;
  uint32_t length = 0;
};

using Postings = std::vector<std::span<const uint32_t>>;

// One top-level member of an object's compact dump: where its key's opening quote is, where its
// value begins and where it ends.
struct Member {
  size_t begin = 0, value_begin = 0, value_end = 0;
};

// The members of nlohmann's compact dump of an object, in order. The dump has no whitespace, so
// outside strings a ':' at depth 1 starts a value and a ',' or the closing brace at depth 1 ends
// it.
std::vector<Member> Members(std::string_view text) {
  std::vector<Member> out;
  Member m;
  int depth = 0;
  bool in_string = false, escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      if (depth == 1 && (text[i - 1] == '{' || text[i - 1] == ',')) m.begin = i;
      in_string = true;
    } else if (c == ':' && depth == 1) {
      m.value_begin = i + 1;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == ',' && depth == 1) || ((c == '}' || c == ']') && depth-- == 1)) {
      if (m.value_begin == 0) continue;  // "{}"
      m.value_end = i;
      out.push_back(m);
      m = Member();
    }
  }
  return out;
}

struct Catalog::Impl {
  // Items are kept as the text a page shows, made once at load: building a 1,000-item page by
  // copying, editing and dumping nlohmann items took most of the time of a request, and the
  // nlohmann items themselves twice the memory of the text.
  std::vector<std::string_view> fields = FilterableItemFields();  // the order of slots
  TextArena arena;
  std::vector<std::string_view> texts;  // per item: exactly what nlohmann's dump() gives
  // Per item: the bytes of `texts` a page before the 2023 preview leaves out (the savingsPlan
  // member and one comma); {0, 0} when there is none.
  std::vector<std::pair<uint32_t, uint32_t>> cuts;
  std::vector<uint8_t> flags;
  std::vector<FieldSlot> slots;  // fields.size() per item
  std::vector<std::string> unescaped;
  std::unordered_map<std::string, std::unordered_map<std::string, std::vector<uint32_t>>> index;

  void Append(const Json& item) {
    const uint32_t id = static_cast<uint32_t>(texts.size());
    slots.resize(slots.size() + fields.size());
    std::pair<uint32_t, uint32_t> cut{0, 0};
    const std::string text =
        item.is_object() ? Serialise(item, &slots[id * fields.size()], cut) : item.dump();
    texts.push_back(arena.Keep(text));
    cuts.push_back(cut);
    flags.push_back(item.is_object() ? FlagsOf(item) : 0);
    for (const char* field : kIndexedFields) {
      auto it = item.find(field);
      if (it != item.end() && it->is_string()) {
        index[field][AsciiLower(it->get<std::string>())].push_back(id);
      }
    }
  }

  // The item's text as nlohmann's dump() writes it, with the positions of the values filters
  // read and of the savingsPlan member.
  std::string Serialise(const Json& item, FieldSlot* mine, std::pair<uint32_t, uint32_t>& cut) {
    std::string text = item.dump();
    const std::vector<Member> members = Members(text);
    size_t k = 0;
    for (const auto& [key, value] : item.items()) {
      const Member& m = members[k++];
      if (key == "savingsPlan") {
        // With its comma: the one before it, or, when it comes first, the one after it.
        const bool first = k == 1, alone = members.size() == 1;
        cut = {static_cast<uint32_t>(first ? m.begin : m.begin - 1),
               static_cast<uint32_t>(first && !alone ? m.value_end + 1 : m.value_end)};
      }
      if (value.is_string()) {
        NoteField(key, value.get_ref<const std::string&>(), m.value_begin,
                  m.value_end - m.value_begin, mine);
      }
    }
    return text;
  }

  // `at` and `dumped` locate the value's JSON string (quotes included) in the item's text.
  void NoteField(std::string_view key, const std::string& value, size_t at, size_t dumped,
                 FieldSlot* mine) {
    for (size_t f = 0; f < fields.size(); ++f) {
      if (fields[f] != key) continue;
      // Escaping only lengthens: the same length means the text holds the value verbatim.
      if (dumped == value.size() + 2) {
        mine[f] = {static_cast<uint32_t>(at + 1), static_cast<uint32_t>(value.size())};
      } else {
        mine[f] = {static_cast<uint32_t>(unescaped.size()), kUnescaped};
        unescaped.push_back(value);
      }
    }
  }

  static uint8_t FlagsOf(const Json& item) {
    uint8_t out = 0;
    auto primary = item.find("isPrimaryMeterRegion");
    if (primary != item.end() && primary->is_boolean() && !primary->get<bool>()) {
      out |= kNotPrimary;
    }
    auto currency = item.find("currencyCode");
    if (currency == item.end() || (currency->is_string() && currency->get<std::string>() == "USD")) {
      out |= kVerbatimInUsd;
    }
    return out;
  }

  // The string value of `item_field`, as the filter evaluator reads it.
  std::optional<std::string_view> Field(uint32_t id, std::string_view item_field) const {
    for (size_t f = 0; f < fields.size(); ++f) {
      if (fields[f] != item_field) continue;
      const FieldSlot& slot = slots[id * fields.size() + f];
      if (slot.offset == kAbsent) return std::nullopt;
      if (slot.length == kUnescaped) return std::string_view(unescaped[slot.offset]);
      return texts[id].substr(slot.offset, slot.length);
    }
    return std::nullopt;
  }

  // Sorted id lists whose union holds every match of `e` (each is re-checked by the evaluator),
  // or nullopt for "scan everything". The lists are the index's own: nothing is copied.
  std::optional<Postings> Candidates(const Expr& e) const {
    switch (e.kind) {
      case Expr::Kind::kEq: {
        const std::optional<std::string> field = ItemFieldFor(e.field);
        if (!field) return Postings{};
        bool indexed = false;
        for (const char* name : kIndexedFields) indexed = indexed || *field == name;
        if (!indexed) return std::nullopt;
        auto f = index.find(*field);
        if (f == index.end()) return Postings{};  // no item has the field
        auto v = f->second.find(AsciiLower(e.value));
        if (v == f->second.end()) return Postings{};
        return Postings{std::span<const uint32_t>(v->second)};
      }
      case Expr::Kind::kContains:
        return std::nullopt;
      case Expr::Kind::kAnd: {
        // Either side's candidates hold every match; the smaller side means fewer re-checks.
        std::optional<Postings> l = Candidates(*e.left);
        std::optional<Postings> r = Candidates(*e.right);
        if (!l) return r;
        if (!r) return l;
        return Total(*l) <= Total(*r) ? l : r;
      }
      case Expr::Kind::kOr: {
        std::optional<Postings> l = Candidates(*e.left);
        std::optional<Postings> r = Candidates(*e.right);
        if (!l || !r) return std::nullopt;
        l->insert(l->end(), r->begin(), r->end());
        return l;
      }
    }
    return std::nullopt;
  }

  static size_t Total(const Postings& lists) {
    size_t n = 0;
    for (std::span<const uint32_t> list : lists) n += list.size();
    return n;
  }
};

Catalog::Catalog() : impl_(std::make_unique<Impl>()) {}
Catalog::~Catalog() = default;
Catalog::Catalog(Catalog&&) noexcept = default;
Catalog& Catalog::operator=(Catalog&&) noexcept = default;
size_t Catalog::size() const { return impl_->texts.size(); }

bool Catalog::Add(std::string_view text, std::string* error) {
  return ReadCatalogText(text, [this](Json item) { impl_->Append(item); }, error);
}

namespace {

// Calls `visit` with each id of the union of `lists` (each sorted), ascending and once, until it
// returns false.
template <typename Visit>
void ForEachInUnion(const Postings& lists, Visit visit) {
  std::vector<size_t> at(lists.size(), 0);
  while (true) {
    uint32_t next = kAbsent;
    for (size_t i = 0; i < lists.size(); ++i) {
      if (at[i] < lists[i].size()) next = std::min(next, lists[i][at[i]]);
    }
    if (next == kAbsent) return;
    for (size_t i = 0; i < lists.size(); ++i) {
      if (at[i] < lists[i].size() && lists[i][at[i]] == next) ++at[i];
    }
    if (!visit(next)) return;
  }
}

// Ids of matching items in catalog order, stopping at `enough`.
std::vector<uint32_t> Match(const Catalog::Impl& c, const PriceQuery& q, size_t enough) {
  // Every API version returns non-primary meter regions unless meterRegion='primary' asks
  // otherwise: a real page fetched with no api-version (fixtures/real-price-rows/r2) holds 17.
  const bool primary_only = q.meter_region && *q.meter_region == "primary";
  std::vector<uint32_t> matched;
  uint32_t current = 0;
  const FieldReader read = [&c, &current](std::string_view field) {
    return c.Field(current, field);
  };
  // False once there are enough.
  auto consider = [&](uint32_t id) {
    if (primary_only && (c.flags[id] & kNotPrimary)) return true;
    current = id;
    if (q.expr && !Matches(*q.expr, read, /*case_sensitive=*/q.preview_2023)) return true;
    matched.push_back(id);
    return matched.size() < enough;
  };
  if (std::optional<Postings> candidates = q.expr ? c.Candidates(*q.expr) : std::nullopt) {
    ForEachInUnion(*candidates, consider);
  } else {
    for (uint32_t id = 0; id < c.texts.size() && consider(id); ++id) {
    }
  }
  return matched;
}

// One item as a page shows it. In USD an item already in USD is its text from load (without
// savingsPlan before the 2023 preview); anything else is edited as the API would, on the item
// read back from that text (nlohmann's dump and parse round-trip exactly).
void AppendItem(const Catalog::Impl& c, uint32_t id, const PriceQuery& q, double rate,
                const std::string& billing, std::string& out) {
  const std::string_view text = c.texts[id];
  if (rate == 1.0 && billing == "USD" && (c.flags[id] & kVerbatimInUsd)) {
    const auto [cut_begin, cut_end] = q.preview_2023 ? std::pair<uint32_t, uint32_t>{0, 0} : c.cuts[id];
    out.append(text.substr(0, cut_begin));
    out.append(text.substr(cut_end));
    return;
  }
  Json item = Json::parse(text);
  if (!q.preview_2023) item.erase("savingsPlan");
  if (rate != 1.0) {
    for (const char* k : {"retailPrice", "unitPrice"}) {
      if (item.contains(k) && item[k].is_number()) item[k] = item[k].get<double>() * rate;
    }
  }
  if (item.contains("currencyCode")) item["currencyCode"] = billing;
  out += item.dump();
}

HttpResponse Page(const Catalog::Impl& c, const PriceQuery& q,
                  const std::vector<uint32_t>& matched, int page_size) {
  const std::string code = q.currency && !q.currency->empty() ? *q.currency : "USD";
  auto rate_it = CurrencyRates().find(code);
  const double rate = rate_it == CurrencyRates().end() ? 1.0 : rate_it->second;
  const std::string billing = rate_it == CurrencyRates().end() ? "USD" : code;
  const size_t begin = static_cast<size_t>(q.skip);
  const size_t end = std::min(matched.size(), begin + static_cast<size_t>(page_size));
  std::string items = "[";
  for (size_t i = begin; i < end; ++i) {
    if (i > begin) items.push_back(',');
    AppendItem(c, matched[i], q, rate, billing, items);
  }
  items.push_back(']');
  // The envelope is dumped by nlohmann with an empty Items array, which the items then replace:
  // its keys and the link's escaping stay nlohmann's own.
  Json page = Json::object();
  page["BillingCurrency"] = billing;
  page["CustomerEntityId"] = "Default";
  page["CustomerEntityType"] = "Retail";
  page["Items"] = Json::array();
  page["NextPageLink"] = end < matched.size() ? Json(NextPageLink(q, end)) : Json(nullptr);
  page["Count"] = end - begin;
  const std::string envelope = page.dump();
  constexpr std::string_view kEmptyItems = "\"Items\":[]";
  const size_t at = envelope.find(kEmptyItems) + kEmptyItems.size() - 2;
  std::string body;
  body.reserve(envelope.size() + items.size());
  body.append(envelope, 0, at).append(items).append(envelope, at + 2);
  return {200, "application/json; charset=utf-8", std::move(body)};
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

}  // namespace azure_pricing::fakes::prices
