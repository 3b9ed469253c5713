#include "ref/zones/location_values.h"

#include "ref/zones/zones.h"

namespace azure_pricing::zones {

bool IsLocationValue(std::string_view value) {
  for (const LocationValue& v : kLocationValues) {
    if (v.value == value) return true;
  }
  return false;
}

std::optional<std::string_view> LocationValueDifferingInCase(std::string_view value) {
  if (IsLocationValue(value)) return std::nullopt;
  for (const LocationValue& v : kLocationValues) {
    // The same ASCII case folding as ARM region names use.
    if (SameRegionName(v.value, value)) return v.value;
  }
  return std::nullopt;
}

std::optional<std::string_view> LocationValueDifferingInSpacing(std::string_view value) {
  if (IsLocationValue(value) || LocationValueDifferingInCase(value).has_value()) {
    return std::nullopt;
  }
  std::string squeezed;
  for (const char c : value) {
    if (c == ' ' && (squeezed.empty() || squeezed.back() == ' ')) continue;
    squeezed.push_back(c);
  }
  if (!squeezed.empty() && squeezed.back() == ' ') squeezed.pop_back();
  for (const LocationValue& v : kLocationValues) {
    if (SameRegionName(v.value, squeezed)) return v.value;
  }
  return std::nullopt;
}

std::string LocationValueList() {
  std::string out;
  for (const LocationValue& v : kLocationValues) {
    if (!out.empty()) out += ", ";
    out += "'";
    out += v.value;
    out += "'";
  }
  return out;
}

}  // namespace azure_pricing::zones
