#include "conformance/judge/json_diff.h"

#include <nlohmann/json.hpp>

namespace azure_pricing::conformance::judge {
namespace {

using nlohmann::ordered_json;

// Long values are cut in a failure line; the --json report carries them whole.
std::string Shown(const ordered_json& v) {
  std::string text = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return text.size() <= 120 ? text : text.substr(0, 117) + "...";
}

bool SameValue(const ordered_json& a, const ordered_json& b) {
  if (a.is_number() && b.is_number()) return a.get<double>() == b.get<double>();
  return a == b && a.type() == b.type();
}

void Collect(const ordered_json& got, const ordered_json& want, const std::string& path,
             std::vector<std::string>& out) {
  auto add = [&out](std::string line) { out.push_back(std::move(line)); };
  if (got.is_object() && want.is_object()) {
    for (const auto& item : want.items()) {
      const std::string at = path + "." + item.key();
      if (!got.contains(item.key())) {
        add(at + ": missing, want " + Shown(item.value()));
      } else {
        Collect(got[item.key()], item.value(), at, out);
      }
    }
    for (const auto& item : got.items()) {
      if (!want.contains(item.key())) add(path + "." + item.key() + ": unexpected " + Shown(item.value()));
    }
  } else if (got.is_array() && want.is_array()) {
    const size_t common = std::min(got.size(), want.size());
    for (size_t i = 0; i < common; ++i) {
      Collect(got[i], want[i], path + "[" + std::to_string(i) + "]", out);
    }
    if (got.size() != want.size()) {
      add(path + ": " + std::to_string(got.size()) + " items, want " + std::to_string(want.size()));
    }
  } else if (!SameValue(got, want)) {
    add(path + ": " + Shown(got) + ", want " + Shown(want));
  }
}

}  // namespace

std::vector<std::string> JsonDifferences(const ordered_json& got, const ordered_json& want,
                                         size_t limit) {
  std::vector<std::string> all;
  Collect(got, want, "$", all);
  if (all.size() > limit) all.resize(limit);
  return all;
}

std::string DescribeJsonDifference(const ordered_json& got, const ordered_json& want,
                                   size_t limit) {
  std::vector<std::string> all;
  Collect(got, want, "$", all);
  std::string out;
  for (size_t i = 0; i < all.size() && i < limit; ++i) out += (i == 0 ? "" : "; ") + all[i];
  if (all.size() > limit) out += "; and " + std::to_string(all.size() - limit) + " more";
  return out;
}

}  // namespace azure_pricing::conformance::judge
