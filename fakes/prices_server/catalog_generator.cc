#include "fakes/prices_server/catalog_generator.h"

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>
#include <string_view>
#include <vector>

namespace azure_pricing::fakes::prices {
namespace {

using Json = nlohmann::ordered_json;

struct Region {
  const char* arm;
  const char* location;
};
constexpr std::array<Region, 12> kRegions = {{{"eastus", "US East"},
                                              {"eastus2", "US East 2"},
                                              {"westus", "US West"},
                                              {"westeurope", "EU West"},
                                              {"northeurope", "EU North"},
                                              {"uksouth", "UK South"},
                                              {"japaneast", "JA East"},
                                              {"australiaeast", "AU East"},
                                              {"brazilsouth", "BR South"},
                                              {"centralindia", "IN Central"},
                                              {"usgovvirginia", "US Gov Virginia"},
                                              {"southafricanorth", "ZA North"}}};

struct Service {
  const char* name;
  const char* family;
  const char* product;
  bool vm_like;             // SKUs, reservations, savings plans, DevTest
  const char* zone_family;  // nullptr: regional and Global only
};
constexpr std::array<Service, 9> kServices = {{
    {"Virtual Machines", "Compute", "Virtual Machines Dsv5 Series", true, nullptr},
    {"Storage", "Storage", "Standard Page Blob", false, nullptr},
    {"SQL Database", "Databases", "SQL Database Single General Purpose", true, nullptr},
    {"Bandwidth", "Networking", "Rtn Preference: MGN", false, "network"},
    {"Virtual Network", "Networking", "Virtual Network Peering", false, "network"},
    {"VPN Gateway", "Networking", "VPN Gateway", false, "network"},
    {"Azure Front Door Service", "Networking", "Azure Front Door", false, "edge"},
    {"Content Delivery Network", "Networking", "Standard Microsoft CDN", false, "edge"},
    {"Azure DNS", "Networking", "Azure DNS", false, "dns"},
}};

constexpr std::array<const char*, 11> kZones = {"Zone 1", "Zone 2",        "Zone 3",       "Zone 4",
                                                "Zone 5", "Zone 6",        "Zone 7",       "Zone 8",
                                                "Zone 9", "US Gov Zone 1", "US Gov Zone 2"};

// The generator's one random stream; every draw goes through it, in a fixed order, so a seed
// always gives the same catalog (the differential recordings depend on it).
struct Random {
  std::mt19937_64 rng;
  size_t Pick(size_t n) { return static_cast<size_t>(rng() % n); }
  bool Chance(int percent) { return static_cast<int>(rng() % 100) < percent; }
};

struct Placement {
  std::string arm_region, location;
};

// Regional mostly; some Global, billing-zone and empty-region meters.
Placement Place(Random& random, const Service& s, const Region& r) {
  Placement p{r.arm, r.location};
  const int shape = static_cast<int>(random.rng() % 100);
  if (shape < 8) {
    p = {"Global", "Global"};
  } else if (shape < 20 && s.zone_family != nullptr) {
    p.arm_region = kZones[random.Pick(kZones.size())];
    p.location = p.arm_region;
  } else if (shape < 22 && std::string_view(s.name) == "Bandwidth") {
    p.arm_region = kZones[random.Pick(3)];  // ExpressRoute-like zone meters
    p.location = p.arm_region;
  } else if (shape < 23) {
    p = {"", ""};  // empty-region meters, e.g. some reservations and private DNS
  }
  return p;
}

Json MakeItem(Random& random, const Service& s, const Placement& place, uint64_t seed, int64_t i) {
  auto pick = [&](size_t n) { return random.Pick(n); };
  auto chance = [&](int percent) { return random.Chance(percent); };
  char meter_id[64];
  std::snprintf(meter_id, sizeof meter_id, "%08llx-0000-4000-8000-%012llx",
                static_cast<unsigned long long>(seed & 0xffffffff),
                static_cast<unsigned long long>(i));
  const int size = 2 << pick(5);
  const std::string sku = s.vm_like ? "D" + std::to_string(size) + "s v5" : "Standard";
  const std::string arm_sku =
      s.vm_like && !chance(10) ? "Standard_D" + std::to_string(size) + "s_v5" : "";
  std::string type = "Consumption";
  Json item = Json::object();
  double price = static_cast<double>(random.rng() % 100000) / 1000.0;
  std::string unit = s.vm_like ? "1 Hour" : "1 GB";
  if (s.vm_like && chance(15)) {
    type = "Reservation";
    unit = "1 Hour";
    price *= chance(50) ? 8760.0 * 0.6 : 26280.0 * 0.4;
  } else if (s.vm_like && chance(10)) {
    type = "DevTestConsumption";
  }
  item["currencyCode"] = "USD";
  item["tierMinimumUnits"] =
      (!s.vm_like && chance(30)) ? static_cast<double>(pick(4) * 5120) : 0.0;
  if (type == "Reservation") item["reservationTerm"] = chance(50) ? "1 Year" : "3 Years";
  item["retailPrice"] = price;
  item["unitPrice"] = price;
  item["armRegionName"] = place.arm_region;
  item["location"] = place.location;
  item["effectiveStartDate"] = "2024-0" + std::to_string(1 + pick(9)) + "-01T00:00:00Z";
  item["meterId"] = meter_id;
  item["meterName"] =
      s.vm_like ? sku + (chance(10) ? " Spot" : "") : std::string(s.product) + " Data Transfer";
  item["productId"] = "DZH318Z0" + std::to_string(pick(1000));
  item["skuId"] = "DZH318Z0/" + std::to_string(pick(100));
  item["productName"] = std::string(s.product) + (s.vm_like && chance(30) ? " Windows" : "");
  item["skuName"] = sku;
  item["serviceName"] = s.name;
  item["serviceId"] = "DZH3" + std::to_string(pick(100));
  item["serviceFamily"] = s.family;
  item["unitOfMeasure"] = unit;
  item["type"] = type;
  item["isPrimaryMeterRegion"] = !chance(5);
  item["armSkuName"] = arm_sku;
  if (type == "Consumption" && s.vm_like && chance(40)) {
    item["savingsPlan"] = Json::array(
        {{{"unitPrice", price * 0.7}, {"retailPrice", price * 0.7}, {"term", "1 Year"}},
         {{"unitPrice", price * 0.5}, {"retailPrice", price * 0.5}, {"term", "3 Years"}}});
  }
  return item;
}

}  // namespace

void GenerateCatalog(uint64_t seed, int64_t count,
                     const std::function<void(const std::string&)>& emit) {
  Random random{std::mt19937_64(seed)};
  for (int64_t i = 0; i < count; ++i) {
    const Service& s = kServices[random.Pick(kServices.size())];
    const Region& r = kRegions[random.Pick(kRegions.size())];
    const Placement place = Place(random, s, r);
    emit(MakeItem(random, s, place, seed, i).dump());
  }
}

}  // namespace azure_pricing::fakes::prices
