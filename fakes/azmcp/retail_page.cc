#include "fakes/azmcp/retail_page.h"

#include <array>
#include <cctype>
#include <cmath>
#include <utility>

#include "fakes/azmcp/dotnet_json.h"

namespace azure_pricing::fakes::azmcp {
namespace {

using stj::DotnetError;
using stj::Element;
using stj::Kind;
using Error = std::optional<DotnetError>;

// The CLI's ServiceFamily enum: price-list value -> member name, member 0 first.
constexpr std::array<std::pair<const char*, const char*>, 26> kFamilies = {{
    {"Analytics", "Analytics"},
    {"Azure Arc", "AzureArc"},
    {"Azure Communication Services", "AzureCommunicationServices"},
    {"Azure Security", "AzureSecurity"},
    {"Azure Stack", "AzureStack"},
    {"Compute", "Compute"},
    {"Containers", "Containers"},
    {"Data", "Data"},
    {"Databases", "Databases"},
    {"Developer Tools", "DeveloperTools"},
    {"Dynamics", "Dynamics"},
    {"Gaming", "Gaming"},
    {"Integration", "Integration"},
    {"Internet Of Things", "InternetOfThings"},
    {"Management and Governance", "ManagementAndGovernance"},
    {"Microsoft Syntex", "MicrosoftSyntex"},
    {"Mixed Reality", "MixedReality"},
    {"Networking", "Networking"},
    {"Other", "Other"},
    {"Power Platform", "PowerPlatform"},
    {"Quantum Computing", "QuantumComputing"},
    {"Security", "Security"},
    {"Storage", "Storage"},
    {"Telecommunications", "Telecommunications"},
    {"Web", "Web"},
    {"Windows Virtual Desktop", "WindowsVirtualDesktop"},
}};
constexpr std::array<const char*, 3> kPriceTypes = {"Reservation", "Consumption",
                                                    "DevTestConsumption"};

bool EqualsIgnoreCase(const std::string& a, const char* b) {
  size_t i = 0;
  for (; i < a.size() && b[i] != '\0'; ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return i == a.size() && b[i] == '\0';
}

// The generated ToServiceFamily/ToPriceType: ArgumentOutOfRangeException(nameof(value), value,
// "Unknown X value."), whose message names the actual value only when it is not null.
DotnetError UnknownEnum(const char* type_name, const std::optional<std::string>& value) {
  std::string message = std::string("Unknown ") + type_name + " value. (Parameter 'value')";
  if (value) message += "\nActual value was " + *value + ".";
  return {"ArgumentOutOfRangeException", message};
}

Error ReadDate(const Element& v, std::string& out) {
  std::optional<std::string> text;
  if (Error e = stj::GetString(v, text)) return e;
  if (!text) return DotnetError{"ArgumentNullException", "Value cannot be null. (Parameter 'input')"};
  std::optional<std::string> formatted = FormatDateTimeOffset(*text);
  if (!formatted) {
    const bool word = !text->empty() && std::isalpha(static_cast<unsigned char>((*text)[0]));
    return DotnetError{"FormatException",
                       word ? "The string '" + *text +
                                  "' was not recognized as a valid DateTime. There is an unknown "
                                  "word starting at index '0'."
                            : "String '" + *text + "' was not recognized as a valid DateTime."};
  }
  out = *formatted;
  return std::nullopt;
}

Error DeserializeSavingsPlan(const Element& e, std::optional<SavingsPlanModel>& out) {
  if (e.kind == Kind::kNull) return std::nullopt;
  if (Error err = stj::RequireKind(e, Kind::kObject)) return err;
  SavingsPlanModel plan;
  for (const auto& [name, v] : e.properties) {
    Error err;
    if (name == "unitPrice") {
      err = stj::GetDouble(v, plan.unit_price);
    } else if (name == "retailPrice") {
      err = stj::GetDouble(v, plan.retail_price);
    } else if (name == "term") {
      err = stj::GetString(v, plan.term);
    }
    if (err) return err;
  }
  out = std::move(plan);
  return std::nullopt;
}

// The enum-typed and list members: a value outside the enum is the converter's error.
Error ReadServiceFamily(const Element& v, PriceItemModel& m) {
  std::optional<std::string> value;
  if (Error err = stj::GetString(v, value)) return err;
  const char* member = value ? ServiceFamilyMember(*value) : nullptr;
  if (member == nullptr) return UnknownEnum("ServiceFamily", value);
  m.service_family = member;
  return std::nullopt;
}

Error ReadPriceType(const Element& v, PriceItemModel& m) {
  std::optional<std::string> value;
  if (Error err = stj::GetString(v, value)) return err;
  const char* member = nullptr;
  for (const char* t : kPriceTypes) {
    if (value && EqualsIgnoreCase(*value, t)) member = t;
  }
  if (member == nullptr) return UnknownEnum("PriceType", value);
  m.price_type = member;
  return std::nullopt;
}

Error ReadSavingsPlans(const Element& v, PriceItemModel& m) {
  if (v.kind == Kind::kNull) return std::nullopt;
  if (Error err = stj::RequireKind(v, Kind::kArray)) return err;
  std::vector<std::optional<SavingsPlanModel>> plans;
  for (const Element& p : v.items) {
    std::optional<SavingsPlanModel> plan;
    if (Error err = DeserializeSavingsPlan(p, plan)) return err;
    plans.push_back(std::move(plan));
  }
  m.savings_plan = std::move(plans);
  return std::nullopt;
}

Error DeserializeItem(const Element& e, std::optional<PriceItemModel>& out) {
  if (e.kind == Kind::kNull) return std::nullopt;
  if (Error err = stj::RequireKind(e, Kind::kObject)) return err;
  PriceItemModel m;
  std::optional<std::string> ignored;
  double ignored_number = 0;
  for (const auto& [name, v] : e.properties) {
    Error err;
    if (name == "currencyCode") {
      err = stj::GetString(v, m.currency_code);
    } else if (name == "tierMinimumUnits") {
      err = stj::GetDouble(v, ignored_number);
    } else if (name == "retailPrice") {
      err = stj::GetDouble(v, m.retail_price);
    } else if (name == "unitPrice") {
      err = stj::GetDouble(v, m.unit_price);
    } else if (name == "armRegionName") {
      err = stj::GetString(v, m.arm_region_name);
    } else if (name == "location") {
      err = stj::GetString(v, m.location);
    } else if (name == "effectiveStartDate") {
      err = ReadDate(v, m.effective_start_date);
    } else if (name == "meterId") {
      err = stj::GetString(v, m.meter_id);
    } else if (name == "meterName") {
      err = stj::GetString(v, m.meter_name);
    } else if (name == "productId" || name == "skuId" || name == "serviceId" ||
               name == "availabilityId") {
      err = stj::GetString(v, ignored);  // modelled, never printed
    } else if (name == "productName") {
      err = stj::GetString(v, m.product_name);
    } else if (name == "skuName") {
      err = stj::GetString(v, m.sku_name);
    } else if (name == "serviceName") {
      err = stj::GetString(v, m.service_name);
    } else if (name == "serviceFamily") {
      err = ReadServiceFamily(v, m);
    } else if (name == "unitOfMeasure") {
      err = stj::GetString(v, m.unit_of_measure);
    } else if (name == "type") {
      err = ReadPriceType(v, m);
    } else if (name == "isPrimaryMeterRegion") {
      err = stj::GetBoolean(v, m.is_primary_meter_region);
    } else if (name == "armSkuName") {
      err = stj::GetString(v, m.arm_sku_name);
    } else if (name == "reservationTerm") {
      err = stj::GetString(v, m.reservation_term);
    } else if (name == "savingsPlan") {
      err = ReadSavingsPlans(v, m);
    }
    if (err) return err;
  }
  out = std::move(m);
  return std::nullopt;
}

void PutString(nlohmann::ordered_json& row, const char* key, const std::optional<std::string>& v) {
  if (v) row[key] = *v;
}

}  // namespace

int StatusForException(const std::string& type) {
  if (type == "ArgumentOutOfRangeException" || type == "ArgumentNullException" ||
      type == "ArgumentException") {
    return 400;
  }
  if (type == "InvalidOperationException") return 422;
  return 500;
}

const char* ServiceFamilyMember(const std::string& value) {
  for (const auto& [listed, member] : kFamilies) {
    if (EqualsIgnoreCase(value, listed)) return member;
  }
  return nullptr;
}

DotnetError NullReference() {
  return {"NullReferenceException", "Object reference not set to an instance of an object."};
}

std::optional<DotnetError> DeserializePage(const Element& root, PageModel& page) {
  page = PageModel{};
  if (root.kind == Kind::kNull) {
    page.null_root = true;
    return std::nullopt;
  }
  if (Error err = stj::RequireKind(root, Kind::kObject)) return err;
  std::optional<std::string> ignored;
  for (const auto& [name, v] : root.properties) {
    Error err;
    if (name == "BillingCurrency" || name == "CustomerEntityId" || name == "CustomerEntityType") {
      err = stj::GetString(v, ignored);
    } else if (name == "Items") {
      if ((err = stj::RequireKind(v, Kind::kArray))) return err;
      std::vector<std::optional<PriceItemModel>> items;
      for (const Element& item : v.items) {
        std::optional<PriceItemModel> model;
        if ((err = DeserializeItem(item, model))) return err;
        items.push_back(std::move(model));
      }
      page.items = std::move(items);
    } else if (name == "NextPageLink") {
      err = stj::GetString(v, page.next_page_link);
    } else if (name == "Count") {
      int64_t count = 0;
      err = stj::GetInt64(v, count);
    }
    if (err) return err;
  }
  return std::nullopt;
}

std::optional<DotnetError> MapRow(const std::optional<PriceItemModel>& item,
                                  nlohmann::ordered_json& row) {
  if (!item) return NullReference();
  const PriceItemModel& m = *item;
  row = nlohmann::ordered_json::object();
  PutString(row, "armSkuName", m.arm_sku_name);
  PutString(row, "skuName", m.sku_name);
  PutString(row, "productName", m.product_name);
  PutString(row, "serviceName", m.service_name);
  row["serviceFamily"] = m.service_family;
  PutString(row, "region", m.arm_region_name);
  PutString(row, "location", m.location);
  row["retailPrice"] = m.retail_price;
  row["unitPrice"] = m.unit_price;
  PutString(row, "currencyCode", m.currency_code);
  PutString(row, "unitOfMeasure", m.unit_of_measure);
  row["priceType"] = m.price_type;
  PutString(row, "reservationTerm", m.reservation_term);
  row["effectiveStartDate"] = m.effective_start_date;
  PutString(row, "meterName", m.meter_name);
  PutString(row, "meterId", m.meter_id);
  row["isPrimaryMeterRegion"] = m.is_primary_meter_region;
  if (m.savings_plan && !m.savings_plan->empty()) {
    nlohmann::ordered_json plans = nlohmann::ordered_json::array();
    for (const std::optional<SavingsPlanModel>& p : *m.savings_plan) {
      if (!p) return NullReference();
      nlohmann::ordered_json plan = nlohmann::ordered_json::object();
      PutString(plan, "term", p->term);
      plan["unitPrice"] = p->unit_price;
      plan["retailPrice"] = p->retail_price;
      plans.push_back(std::move(plan));
    }
    row["savingsPlan"] = std::move(plans);
  }
  return std::nullopt;
}

}  // namespace azure_pricing::fakes::azmcp
