// The bundled billing-zone mapping (billing_zones.csv, compiled in): which billing zone each zone
// family selects for a known ARM region, and why. No network call is ever made to decide this.
#ifndef REF_ZONES_ZONES_H_
#define REF_ZONES_ZONES_H_

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ref/status/status.h"

namespace azure_pricing::zones {

// The reason a table that breaks the format's invariants is refused with.
inline constexpr Reason kMalformedZoneTable = "malformed_zone_table";

// The date the mapping's sources were last checked (see PROVENANCE.md).
inline constexpr char kMappingCheckDate[] = "2026-11-03";

// The billing-zone locations an expanded query asks for, in order.
inline constexpr std::array<std::string_view, 11> kExpansionZones = {
    "Zone 1", "Zone 2", "Zone 3", "Zone 4",        "Zone 5",       "Zone 6",
    "Zone 7", "Zone 8", "Zone 9", "US Gov Zone 1", "US Gov Zone 2"};

enum class ZoneFamily { kNetwork, kEdge, kDns };
std::string_view ZoneFamilyName(ZoneFamily family);  // "network", "edge", "dns"

// Front Door Standard/Premium: product "Azure Front Door" of service "Azure Front Door Service".
// It bills in Zones 1 to 8, and no source the mapping rests on says which geographies those
// zones cover (its Zone 6 has Zone 1's prices, so they are not the CDN zones); its zone rows are
// never selected by the classic edge zones but left out with a note (PROVENANCE.md).
bool IsFrontDoorStandardPremium(std::string_view service_name, std::string_view product_name);

// The family a zone row belongs to, by its serviceName and productName; nullopt for ExpressRoute,
// Front Door Standard/Premium and any service whose zones the mapping does not cover.
std::optional<ZoneFamily> FamilyOf(std::string_view service_name, std::string_view product_name);

// ARM region names compare without regard to ASCII letter case ("EastUS" is "eastus").
bool SameRegionName(std::string_view a, std::string_view b);

// True for the location values that name billing zones (the expansion list), exactly.
bool IsBillingZone(std::string_view location);

struct ZoneAssignment {
  std::string zone;   // e.g. "Zone 2"
  std::string basis;  // published_region | nearest_region | geography | uniform_commercial
  std::string reference_region;  // network family only: whose published zone was used
};

struct RegionZones {
  std::string region;  // canonical ARM name, lower case
  std::string display_name;
  std::string geography_group;
  std::string cloud;  // public | usgov | china
  std::optional<ZoneAssignment> network, edge, dns;
  std::string notes;

  const std::optional<ZoneAssignment>& For(ZoneFamily family) const;
};

class ZoneTable {
 public:
  // The bundled table, parsed on first use. Its validity is a build-time fact checked by tests.
  static const ZoneTable& Bundled();
  // Parses a table in billing_zones.csv's format, checking its invariants.
  static StatusOr<ZoneTable> Parse(std::string_view csv);

  // Case-insensitive lookup of an ARM region name; nullptr when the region is not known.
  const RegionZones* Find(std::string_view region) const;
  const std::vector<RegionZones>& regions() const { return regions_; }

 private:
  std::vector<RegionZones> regions_;
};

// The raw bundled CSV, for tools that show it.
std::string_view BundledCsv();

}  // namespace azure_pricing::zones

#endif  // REF_ZONES_ZONES_H_
