// The lexical side of a price API request's query string, shared by the fake API (price_api) and
// its oracle (price_api_oracle): splitting into parameters, percent-decoding, the quotes the API
// allows around a value, ASCII lower case. Nothing here decides what a request means.
#ifndef FAKES_PRICES_SERVER_QUERY_TEXT_H_
#define FAKES_PRICES_SERVER_QUERY_TEXT_H_

#include <string>
#include <string_view>
#include <vector>

namespace azure_pricing::fakes::prices {

// One `key=value` part of a query: as sent (a NextPageLink repeats it so) and percent-decoded.
struct QueryParam {
  std::string raw_key, raw_value, key, value;
};

// Percent-decoding of one query component ('+' stays '+', as the API's own links never use it).
// A '%' not followed by two hex digits stays as it is.
std::string PercentDecode(std::string_view text);

// The query's '&'-separated parts in order, empty parts left out. A part's key ends at its first
// '='; a part without one has an empty value.
std::vector<QueryParam> SplitQuery(std::string_view query);

// `'v'` is `v`; any other value is returned as it is.
std::string Unquote(std::string_view value);

// 'A'-'Z' lowered; every other byte, UTF-8 included, unchanged.
std::string AsciiLower(std::string_view text);

}  // namespace azure_pricing::fakes::prices

#endif  // FAKES_PRICES_SERVER_QUERY_TEXT_H_
