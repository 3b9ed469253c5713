#include "ref/pricing/schema.h"

#include <array>
#include <string_view>

#include "ref/json/json.h"
#include "ref/pricing/arguments.h"
#include "ref/zones/location_values.h"

namespace azure_pricing {
namespace {

json::Value Str(std::string_view s) { return json::Value::String(std::string(s)); }

json::Value StringProperty(std::string_view description, size_t max_length) {
  json::Value p = json::Value::Object();
  p.Add("type", json::Value::Array({Str("string"), Str("null")}));
  p.Add("minLength", json::Value::Number(1));
  p.Add("maxLength", json::Value::Number(static_cast<double>(max_length)));
  p.Add("description", Str(description));
  return p;
}

// A typed value the CLI could mistake for an option or a response file is refused.
// Not option-like, and not only spaces; no lookahead, which RE2-based validators lack.
constexpr char kTypedPattern[] = "^(?:[^-@\\s]|\\s+\\S)";
// A region is exact: no space at either end, and not option-like.
constexpr char kRegionPattern[] = "^[^-@\\s](?:[\\s\\S]*\\S)?$";

json::Value TypedProperty(std::string_view description,
                          std::string_view pattern = kTypedPattern) {
  json::Value p = StringProperty(description, kMaxTypedValueLength);
  p.Add("pattern", Str(pattern));
  return p;
}

// {"required": [name], "properties": {name: {"type": "string"}}}: present and not null.
json::Value RequiredString(std::string_view name) {
  json::Value type = json::Value::Object();
  type.Add("type", Str("string"));
  json::Value props = json::Value::Object();
  props.Add(std::string(name), std::move(type));
  json::Value alt = json::Value::Object();
  alt.Add("required", json::Value::Array({Str(name)}));
  alt.Add("properties", std::move(props));
  return alt;
}

// A string property whose values are exactly `allowed` (or null, meaning not supplied).
template <size_t N>
json::Value EnumProperty(std::string_view description,
                         const std::array<std::string_view, N>& allowed) {
  json::Value p = StringProperty(description, kMaxTypedValueLength);
  std::vector<json::Value> values;
  for (std::string_view v : allowed) values.push_back(Str(v));
  values.push_back(json::Value::Null());
  p.Add("enum", json::Value::Array(std::move(values)));
  return p;
}

// Every accepted form, with the location values spelled from the one list that decides them.
std::string RegionDescription() {
  return "Either an ARM region name (armRegionName), e.g. eastus, which expands the query to "
         "that region, Global and the billing zones and keeps the rows that apply (each labelled "
         "matched_by); or, exactly as the price list spells it (case-sensitive), one of the "
         "non-ARM location values " +
         zones::LocationValueList() +
         ", which keeps the CLI's exact behaviour and the original report shape. A case or "
         "spacing variant of a location value (e.g. global) and a value with a space at either "
         "end are refused. Must not be empty or blank: meters with "
         "an empty region need filter \"armRegionName eq ''\" instead. To pick zone rows "
         "yourself, omit region and filter on armRegionName or location.";
}

}  // namespace

std::string ToolDescription() {
  return "Look up Azure public retail prices (not negotiated account prices) with one fixed "
         "'azmcp pricing get' run in a fresh sandbox. Give at least one of sku, service, region, "
         "service_family, price_type or filter; service also needs sku. Values are exact, "
         "case-sensitive price-list values.";
}

namespace {

json::Value Properties() {
  json::Value props = json::Value::Object();
  props.Add("sku",
            TypedProperty("ARM SKU name as in the price list's armSkuName, e.g. Standard_D4s_v5. "
                          "Exact and case-sensitive. Many network and platform meters have an "
                          "empty armSkuName: do not substitute a product name or invent a SKU; "
                          "use filter on productName or meterName instead."));
  props.Add("service",
            TypedProperty("Price-list serviceName, e.g. 'Virtual Machines'. Requires sku (the CLI "
                          "rejects a service without a SKU, even with a filter). Without a SKU, "
                          "omit both and use filter on serviceName, productName or meterName. "
                          "Example for Private Endpoint pricing: region=\"eastus\" and filter="
                          "\"serviceName eq 'Virtual Network' and productName eq 'Virtual "
                          "Network Private Link' and meterName eq 'Standard Private Endpoint'\"; "
                          "those rows have an empty ARM SKU and return as a Global fallback."));
  props.Add("region", TypedProperty(RegionDescription(), kRegionPattern));
  props.Add("service_family",
            EnumProperty("Price-list serviceFamily value, exact and case-sensitive. Output rows "
                         "spell it as the CLI's enum member name without spaces (e.g. "
                         "ManagementAndGovernance).",
                         kServiceFamilies));
  props.Add("price_type",
            EnumProperty("Price type, exact: Consumption, Reservation or DevTestConsumption. "
                         "Savings plans are not a price type; use include_savings_plan.",
                         kPriceTypes));
  {
    json::Value p = StringProperty("ISO 4217 currency code, three upper-case letters.", 3);
    p.Add("pattern", Str("^[A-Z]{3}$"));
    p.Add("default", Str("USD"));
    props.Add("currency", std::move(p));
  }
  {
    json::Value p = json::Value::Object();
    p.Add("type", json::Value::Array({Str("boolean"), Str("null")}));
    p.Add("default", json::Value::Bool(false));
    p.Add("description",
          Str("Also return savings-plan prices, nested in each row with their own terms."));
    props.Add("include_savings_plan", std::move(p));
  }
  {
    json::Value p = StringProperty(
        "Raw OData filter, passed in parentheses and ANDed with the typed filters. The host "
        "checks only that its parentheses balance and its quoted strings close, so that it "
        "stays ANDed; fields, operators and values are not checked, the price API decides. "
        "Fields that work: armRegionName, "
        "location, meterId, meterName, productId, skuId, productName, skuName, "
        "serviceName, serviceId, serviceFamily, priceType, armSkuName; reservationTerm "
        "also works. Operators: eq, and, or, parentheses; contains(meterName, 'Spot') "
        "supports substring queries. Values are exact and case-sensitive, in single "
        "quotes. There is no operating-system field such as osType: Windows VM meters "
        "have Windows at the end of productName. skuName is a price-list value (e.g. "
        "'D4s v5'), not a portal display name. Unknown fields fail the whole lookup.",
        kMaxFilterLength);
    p.Add("pattern", Str("\\S"));  // not only spaces
    props.Add("filter", std::move(p));
  }
  return props;
}

// service requires sku: either service is absent (null) or sku is present.
json::Value DependentSchemas() {
  json::Value service_absent = json::Value::Object();
  json::Value null_type = json::Value::Object();
  null_type.Add("type", Str("null"));
  json::Value props_null = json::Value::Object();
  props_null.Add("service", std::move(null_type));
  service_absent.Add("properties", std::move(props_null));
  json::Value service_rule = json::Value::Object();
  service_rule.Add("anyOf", json::Value::Array({std::move(service_absent), RequiredString("sku")}));
  json::Value dependent = json::Value::Object();
  dependent.Add("service", std::move(service_rule));
  return dependent;
}

}  // namespace

std::string ParameterSchemaJson() {
  json::Value props = Properties();
  json::Value schema = json::Value::Object();
  schema.Add("$schema", Str("https://json-schema.org/draft/2020-12/schema"));
  schema.Add("type", Str("object"));
  schema.Add("properties", std::move(props));
  schema.Add("additionalProperties", json::Value::Bool(false));
  // At least one filter, present and not null; service only together with sku.
  std::vector<json::Value> alternatives;
  for (std::string_view n :
       {"sku", "service", "region", "service_family", "price_type", "filter"}) {
    alternatives.push_back(RequiredString(n));
  }
  schema.Add("anyOf", json::Value::Array(std::move(alternatives)));
  schema.Add("dependentSchemas", DependentSchemas());
  return json::Serialize(schema);
}

}  // namespace azure_pricing
