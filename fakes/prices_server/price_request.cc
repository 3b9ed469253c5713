#include "fakes/prices_server/price_request.h"

#include <nlohmann/json.hpp>
#include <utility>

#include "fakes/prices_server/text_lines.h"

namespace azure_pricing::fakes::prices {
namespace {

using Json = nlohmann::ordered_json;

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
        return ErrorResponse(400, "Invalid OData parameters supplied");
      }
      q.skip = std::stoll(p.value);
    }
  }
  return std::nullopt;
}

}  // namespace

HttpResponse ErrorResponse(int status, std::string_view message) {
  Json body = {{"Error", {{"Code", "BadRequest"}, {"Message", message}}}};
  return {status, "application/json; charset=utf-8", body.dump()};
}

const std::map<std::string, double>& CurrencyRates() {
  static const auto* rates = new std::map<std::string, double>{
      {"USD", 1.0},  {"EUR", 0.92}, {"GBP", 0.79}, {"JPY", 150.0}, {"AUD", 1.5},
      {"CAD", 1.36}, {"CHF", 0.88}, {"INR", 83.0}, {"BRL", 5.0},   {"KRW", 1330.0}};
  return *rates;
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
      return ErrorResponse(400, "Unsupported API version");
    }
  }
  if (filter && !filter->empty()) {
    ParsedFilter parsed = ParseFilter(*filter);
    if (parsed.error == FilterError::kInvalidParameters) {
      return ErrorResponse(400, "Invalid parameters supplied");
    }
    if (parsed.error != FilterError::kNone) {
      return ErrorResponse(400, "Invalid OData parameters supplied");
    }
    q.expr = std::move(parsed.expr);
  }
  return std::nullopt;
}

std::optional<HttpResponse> ReadRequest(std::string_view target, PriceQuery& q) {
  if (target.size() > kMaxUrlLength) return HttpResponse{404, "text/html", "<h1>Not Found</h1>"};
  const size_t question = target.find('?');
  const std::string_view path = target.substr(0, question);
  if (path != "/api/retail/prices") return HttpResponse{404, "text/html", "<h1>Not Found</h1>"};
  return ReadQuery(question == std::string_view::npos ? "" : target.substr(question + 1), q);
}

std::optional<HttpResponse> SkipPastTheEnd(const PriceQuery& q, size_t matched) {
  if (q.skip <= 0 || q.skip <= static_cast<int64_t>(matched)) return std::nullopt;
  return ErrorResponse(400, "Skip value " + std::to_string(q.skip) +
                                " is greater than the total count " + std::to_string(matched));
}

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

bool ReadCatalogText(std::string_view text, const std::function<void(Json item)>& append,
                     std::string* error) {
  Json whole = Json::parse(text, nullptr, false);
  if (!whole.is_discarded()) {
    if (whole.is_object() && whole.contains("Items") && whole["Items"].is_array()) {
      for (Json& item : whole["Items"]) append(std::move(item));
      return true;
    }
    if (whole.is_object()) {  // a one-line JSON Lines file
      append(std::move(whole));
      return true;
    }
    if (error) *error = "a catalog is a JSON object with an Items array, or JSON Lines of items";
    return false;
  }
  return ForEachTextLine(text, [&](size_t line, std::string_view row) {
    Json item = Json::parse(row, nullptr, false);
    if (item.is_discarded() || !item.is_object()) {
      if (error) *error = "line " + std::to_string(line) + " is not a JSON object";
      return false;
    }
    append(std::move(item));
    return true;
  });
}

}  // namespace azure_pricing::fakes::prices
