#include "conformance/stack/catalog_summary.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "ref/json/json.h"

namespace azure_pricing::conformance::stack {
namespace {

// 26025 -> "26,025": the counts a person reads.
std::string Grouped(size_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// "K NOUNs: A, B, C and M more", the names by count, most first.
std::string NameList(const std::map<std::string, size_t>& counts, const std::string& noun) {
  std::vector<std::pair<std::string, size_t>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out = Grouped(sorted.size()) + " " + noun + (sorted.size() == 1 ? "" : "s");
  const size_t shown = std::min(sorted.size(), kCatalogNamesShown);
  for (size_t i = 0; i < shown; ++i) out += (i == 0 ? ": " : ", ") + sorted[i].first;
  if (sorted.size() > shown) out += " and " + Grouped(sorted.size() - shown) + " more";
  return out;
}

void Count(const json::Value& item, std::string_view key, std::map<std::string, size_t>& counts) {
  const json::Value* value = item.Find(key);
  if (value != nullptr && value->is_string() && !value->as_string().empty()) {
    ++counts[value->as_string()];
  }
}

}  // namespace

std::string DescribeCatalog(std::string_view jsonl, std::string_view source) {
  std::map<std::string, size_t> services, regions;
  size_t rows = 0;
  while (!jsonl.empty()) {
    const size_t end = std::min(jsonl.find('\n'), jsonl.size());
    const json::ParseResult item = json::ParseStrict(jsonl.substr(0, end));
    jsonl.remove_prefix(std::min(end + 1, jsonl.size()));
    if (item.error != json::ParseError::kNone || !item.value.is_object()) continue;
    ++rows;
    Count(item.value, "serviceName", services);
    Count(item.value, "armRegionName", regions);
  }
  return "local stack: offline catalog of " + Grouped(rows) + " row" + (rows == 1 ? "" : "s") +
         "; " + NameList(services, "service") + "; " + NameList(regions, "region") + " (" +
         std::string(source) + ")";
}

}  // namespace azure_pricing::conformance::stack
