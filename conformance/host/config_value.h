// The scripted host's configuration values (json::Value, the reference's strict reader) to and
// from the nlohmann JSON the harness reads cases and protocol lines with. A template, so that
// this header pulls in neither JSON library's heavy header for those who include it.
#ifndef CONFORMANCE_HOST_CONFIG_VALUE_H_
#define CONFORMANCE_HOST_CONFIG_VALUE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ref/json/json.h"
#include "ref/labels/labels.h"

namespace azure_pricing::conformance::host {

// `v` (an nlohmann::json or ordered_json) as a json::Value; object members keep their order.
template <class Json>
json::Value ConfigValueOf(const Json& v) {
  if (v.is_object()) {
    json::Value out = json::Value::Object();
    for (const auto& item : v.items()) out.Add(item.key(), ConfigValueOf(item.value()));
    return out;
  }
  if (v.is_array()) {
    std::vector<json::Value> items;
    for (const auto& item : v) items.push_back(ConfigValueOf(item));
    return json::Value::Array(std::move(items));
  }
  if (v.is_string()) return json::Value::String(v.template get<std::string>());
  if (v.is_boolean()) return json::Value::Bool(v.template get<bool>());
  if (v.is_number()) return json::Value::Number(v.template get<double>());
  return json::Value::Null();
}

// The inverse: `value` as a `Json`.
template <class Json>
Json JsonOfConfig(const json::Value& value) {
  switch (value.type()) {
    case json::Type::kObject: {
      Json out = Json::object();
      for (const json::Member& m : value.members()) out[m.key] = JsonOfConfig<Json>(m.value);
      return out;
    }
    case json::Type::kArray: {
      Json out = Json::array();
      for (const json::Value& item : value.items()) out.push_back(JsonOfConfig<Json>(item));
      return out;
    }
    case json::Type::kString:
      return value.as_string();
    case json::Type::kBool:
      return value.as_bool();
    case json::Type::kNumber: {
      // A whole number goes as an integer, as the case or line that gave it wrote it.
      const double d = value.as_number();
      if (d >= -9.0e15 && d <= 9.0e15 && d == static_cast<double>(static_cast<int64_t>(d))) {
        return static_cast<int64_t>(d);
      }
      return d;
    }
    case json::Type::kNull:
      break;
  }
  return nullptr;
}

// A label as cases and protocol lines write it, {"integrity", "confidentiality"}; null for none.
template <class Json>
Json JsonOfLabel(const std::optional<labels::ContentLabel>& label) {
  if (!label.has_value()) return Json(nullptr);
  return Json{{"integrity", std::string(labels::Name(label->integrity))},
              {"confidentiality", std::string(labels::Name(label->confidentiality))}};
}

}  // namespace azure_pricing::conformance::host

#endif  // CONFORMANCE_HOST_CONFIG_VALUE_H_
