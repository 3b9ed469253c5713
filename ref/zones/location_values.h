// The location values the price list uses in armRegionName (and location) that are not ARM
// regions: Global and the billing zones of every cloud. A region argument equal to one of them
// keeps the CLI's exact behaviour (no expansion, the original report shape); one that equals a
// value only when letter case is ignored is refused, because price-list values are exact and
// case-sensitive. Where each value was seen is in PROVENANCE.md beside this file.
#ifndef REF_ZONES_LOCATION_VALUES_H_
#define REF_ZONES_LOCATION_VALUES_H_

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace azure_pricing::zones {

enum class LocationKind {
  kGlobal,          // rows that apply everywhere
  kExpansionZone,   // a billing zone an expanded query asks for (kExpansionZones in zones.h)
  kOtherZone,       // a sovereign or legacy zone the expansion never asks for
  kCloudAggregate,  // a whole cloud's aggregate location
};

struct LocationValue {
  std::string_view value;  // exact, case-sensitive
  LocationKind kind;
};

inline constexpr std::array<LocationValue, 17> kLocationValues = {{
    {"Global", LocationKind::kGlobal},
    {"Zone 1", LocationKind::kExpansionZone},
    {"Zone 2", LocationKind::kExpansionZone},
    {"Zone 3", LocationKind::kExpansionZone},
    {"Zone 4", LocationKind::kExpansionZone},
    {"Zone 5", LocationKind::kExpansionZone},
    {"Zone 6", LocationKind::kExpansionZone},
    {"Zone 7", LocationKind::kExpansionZone},
    {"Zone 8", LocationKind::kExpansionZone},
    {"Zone 9", LocationKind::kExpansionZone},
    {"US Gov Zone 1", LocationKind::kExpansionZone},
    {"US Gov Zone 2", LocationKind::kExpansionZone},
    {"DE Zone 1", LocationKind::kOtherZone},
    {"DE Gov Zone 2", LocationKind::kOtherZone},
    {"CN Zone 1", LocationKind::kOtherZone},
    {"Zone 1 (China)", LocationKind::kOtherZone},
    {"US Gov", LocationKind::kCloudAggregate},
}};

// True when `value` is one of kLocationValues, exactly.
bool IsLocationValue(std::string_view value);

// The exact spelling of the location value that `value` equals only when ASCII letter case is
// ignored ("zone 1" -> "Zone 1"); nullopt for an exact value or anything else.
std::optional<std::string_view> LocationValueDifferingInCase(std::string_view value);

// The exact spelling of the location value that `value` equals only once runs of ASCII spaces are
// collapsed to one, leading and trailing ones dropped and letter case ignored ("Zone  1",
// " zone 1 " -> "Zone 1"), when it is not already an exact value or a case-only variant.
std::optional<std::string_view> LocationValueDifferingInSpacing(std::string_view value);

// Every location value, quoted and comma-separated, for fixed messages and descriptions:
// "'Global', 'Zone 1', ..., 'US Gov'". Built from the constants above only.
std::string LocationValueList();

}  // namespace azure_pricing::zones

#endif  // REF_ZONES_LOCATION_VALUES_H_
