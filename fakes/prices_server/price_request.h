// What a price API request and a catalog text say, read the one way both the fake API
// (price_api) and its oracle (price_api_oracle) read them: a request's parameters checked into a
// PriceQuery or the API's 400 answer, the NextPageLink a query's next page has, the fake's
// currency rates, and a catalog file's items (price_api_test holds them to the recorded answers).
// What an answer then holds (candidates, matching, paging, the page's text) each decides on its
// own, so that price_api_identity_test compares two.
#ifndef FAKES_PRICES_SERVER_PRICE_REQUEST_H_
#define FAKES_PRICES_SERVER_PRICE_REQUEST_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fakes/prices_server/odata.h"
#include "fakes/prices_server/query_text.h"

namespace azure_pricing::fakes::prices {

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json; charset=utf-8";
  std::string body;
};

// The API's error answer: {"Error":{"Code":"BadRequest","Message":MESSAGE}}.
HttpResponse ErrorResponse(int status, std::string_view message);

// Fixed rates for the fake's currencies: the real API converts; the fake only has to be
// consistent. An unknown code is answered in USD, as the CLI cannot tell.
const std::map<std::string, double>& CurrencyRates();

// One request's query, read and checked: what to match, which page, in which currency.
struct PriceQuery {
  std::string_view query;  // as sent, for the NextPageLink
  std::vector<QueryParam> params;
  std::optional<std::string> currency, meter_region;
  std::unique_ptr<Expr> expr;
  int64_t skip = 0;
  bool preview_2023 = false;
};

inline constexpr size_t kMaxUrlLength = 2048;
inline constexpr char kPublicBase[] = "https://prices.azure.com:443/api/retail/prices";

// Reads the request target ("/api/retail/prices?currencyCode=USD&$filter=...") into `q`; the
// API's answer instead when it refuses it: 404 for another path or a target over
// kMaxUrlLength, else ReadQuery's.
std::optional<HttpResponse> ReadRequest(std::string_view target, PriceQuery& q);

// The API's 400 for a $skip past the `matched` items (a $skip of 0 past none is an empty page).
std::optional<HttpResponse> SkipPastTheEnd(const PriceQuery& q, size_t matched);

// Reads `query` into `q`; the API's answer instead when it refuses the parameters (a bad $skip,
// an unsupported api-version, a filter outside the subset).
std::optional<HttpResponse> ReadQuery(std::string_view query, PriceQuery& q);

// The NextPageLink of a page that ends before the matches do: the public base, the original
// query in its order and encoding, and the new $skip last.
std::string NextPageLink(const PriceQuery& q, size_t next_skip);

// An answer as both handlers make it: the request read, its matches found up to one past the
// page (`match(q, enough)`: the ids of matching items in catalog order, stopping at `enough`), a
// $skip past the end refused (it still counts every match for the API's error message), the page
// made (`page(q, matched)`).
template <class Match, class MakePage>
HttpResponse AnswerRequest(std::string_view target, int page_size, const Match& match,
                           const MakePage& page) {
  PriceQuery q;
  if (std::optional<HttpResponse> refused = ReadRequest(target, q)) return std::move(*refused);
  const size_t enough = static_cast<size_t>(q.skip) + static_cast<size_t>(page_size) + 1;
  const std::vector<uint32_t> matched = match(q, enough);
  if (std::optional<HttpResponse> refused = SkipPastTheEnd(q, matched.size())) {
    return std::move(*refused);
  }
  return page(q, matched);
}

// A catalog text: a JSON page ({"Items": [...]}, any other keys ignored) or JSON Lines of items,
// each item given to `append` in order. False (with `error` set) when the text is neither.
bool ReadCatalogText(std::string_view text,
                     const std::function<void(nlohmann::ordered_json item)>& append,
                     std::string* error);

}  // namespace azure_pricing::fakes::prices

#endif  // FAKES_PRICES_SERVER_PRICE_REQUEST_H_
