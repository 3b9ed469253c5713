#include "ref/zones/zones.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "ref/status/status_macros.h"

namespace azure_pricing::zones {

extern const char kBillingZonesCsv[];  // generated from billing_zones.csv

namespace {

Status Malformed(std::string message) {
  return Status(Outcome::kFailed, kMalformedZoneTable, std::move(message));
}

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// RFC 4180 records: fields separated by commas, optionally quoted with "" for a quote.
std::optional<std::vector<std::vector<std::string>>> ReadCsv(std::string_view text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false, any = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field.push_back('"');
          ++i;
        } else {
          quoted = false;
        }
      } else {
        field.push_back(c);
      }
      continue;
    }
    if (c == '"' && field.empty()) {
      quoted = true;
      any = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any || !field.empty()) {
        record.push_back(std::move(field));
        records.push_back(std::move(record));
      }
      record.clear();
      field.clear();
      any = false;
    } else {
      field.push_back(c);
      any = true;
    }
  }
  if (quoted) return std::nullopt;
  if (any || !field.empty()) {
    record.push_back(std::move(field));
    records.push_back(std::move(record));
  }
  return records;
}

constexpr std::array<std::string_view, 12> kColumns = {"region",
                                                       "display_name",
                                                       "geography_group",
                                                       "cloud",
                                                       "network_zone",
                                                       "network_basis",
                                                       "network_reference_region",
                                                       "edge_zone",
                                                       "edge_basis",
                                                       "dns_zone",
                                                       "dns_basis",
                                                       "notes"};

}  // namespace

bool SameRegionName(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [](char x, char y) { return Lower(x) == Lower(y); });
}

std::string_view ZoneFamilyName(ZoneFamily family) {
  switch (family) {
    case ZoneFamily::kNetwork:
      return "network";
    case ZoneFamily::kEdge:
      return "edge";
    case ZoneFamily::kDns:
      return "dns";
  }
  return "network";
}

std::optional<ZoneFamily> FamilyOf(std::string_view service_name, std::string_view product_name) {
  if (IsFrontDoorStandardPremium(service_name, product_name)) return std::nullopt;
  if (service_name == "Virtual Network" || service_name == "VPN Gateway" ||
      service_name == "Bandwidth") {
    return ZoneFamily::kNetwork;
  }
  if (service_name == "Azure Front Door Service" || service_name == "Content Delivery Network") {
    return ZoneFamily::kEdge;
  }
  if (service_name == "Azure DNS") return ZoneFamily::kDns;
  return std::nullopt;
}

bool IsFrontDoorStandardPremium(std::string_view service_name, std::string_view product_name) {
  return service_name == "Azure Front Door Service" && product_name == "Azure Front Door";
}

bool IsBillingZone(std::string_view location) {
  return std::find(kExpansionZones.begin(), kExpansionZones.end(), location) !=
         kExpansionZones.end();
}

const std::optional<ZoneAssignment>& RegionZones::For(ZoneFamily family) const {
  switch (family) {
    case ZoneFamily::kNetwork:
      return network;
    case ZoneFamily::kEdge:
      return edge;
    case ZoneFamily::kDns:
      return dns;
  }
  return network;
}

namespace {

using Fields = std::vector<std::string>;

// One family's zone, basis and (network only) reference region; an empty zone is no assignment.
StatusOr<std::optional<ZoneAssignment>> ReadAssignment(const Fields& f, size_t zone, size_t basis,
                                                       std::optional<size_t> reference,
                                                       const std::string& line) {
  if (f[zone].empty()) {
    if (!f[basis].empty() || (reference && !f[*reference].empty())) {
      return Malformed("A basis is given without a zone" + line);
    }
    return std::optional<ZoneAssignment>();
  }
  if (!IsBillingZone(f[zone])) return Malformed("A zone is not in the expansion list" + line);
  return std::optional<ZoneAssignment>(
      ZoneAssignment{f[zone], f[basis], reference ? f[*reference] : ""});
}

// The bases a row may use, by family and cloud.
Status CheckBases(const RegionZones& z, const std::string& line) {
  const bool commercial = z.cloud == "public";
  if (z.network) {
    if (z.network->basis != "published_region" && z.network->basis != "nearest_region") {
      return Malformed("A network basis is not published_region or nearest_region" + line);
    }
    if (z.network->reference_region.empty()) {
      return Malformed("A network zone has no reference region" + line);
    }
    if (!commercial && z.network->basis == "nearest_region") {
      return Malformed("A sovereign region is mapped by proximity" + line);
    }
    if (z.network->basis == "published_region" && z.network->reference_region != z.region) {
      return Malformed("A published network zone names another region as its reference" + line);
    }
  }
  if (z.edge && z.edge->basis != "geography") {
    return Malformed("An edge basis is not geography" + line);
  }
  if (z.dns && z.dns->basis != (commercial ? "uniform_commercial" : "published_region")) {
    return Malformed("A DNS basis does not fit the region's cloud" + line);
  }
  // Commercial zones are "Zone N"; sovereign regions never land in them.
  for (const auto* a : {&z.network, &z.edge, &z.dns}) {
    if (*a && commercial != ((*a)->zone.rfind("US Gov ", 0) != 0)) {
      return Malformed("A region is mapped into another cloud's zones" + line);
    }
  }
  return OkStatus();
}

StatusOr<RegionZones> ReadRegion(const Fields& f, const std::string& line) {
  if (f.size() != kColumns.size()) {
    return Malformed("A zone table row has the wrong field count" + line);
  }
  RegionZones z;
  z.region = f[0];
  z.display_name = f[1];
  z.geography_group = f[2];
  z.cloud = f[3];
  z.notes = f[11];
  if (z.region.empty() || std::any_of(z.region.begin(), z.region.end(), [](char c) {
        return !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'));
      })) {
    return Malformed("A region name is not a lower-case ARM name" + line);
  }
  if (z.cloud != "public" && z.cloud != "usgov" && z.cloud != "china") {
    return Malformed("A region's cloud is not public, usgov or china" + line);
  }
  auto network = ReadAssignment(f, 4, 5, 6, line);
  auto edge = ReadAssignment(f, 7, 8, std::nullopt, line);
  auto dns = ReadAssignment(f, 9, 10, std::nullopt, line);
  for (const auto* a : {&network, &edge, &dns}) {
    if (!a->ok()) return a->status();
  }
  z.network = *network;
  z.edge = *edge;
  z.dns = *dns;
  RETURN_IF_ERROR(CheckBases(z, line));
  return z;
}

}  // namespace

StatusOr<ZoneTable> ZoneTable::Parse(std::string_view csv) {
  const auto records = ReadCsv(csv);
  if (!records || records->empty()) return Malformed("The zone table is not CSV.");
  const Fields& header = (*records)[0];
  if (header.size() != kColumns.size() ||
      !std::equal(header.begin(), header.end(), kColumns.begin())) {
    return Malformed("The zone table's header is not the expected columns.");
  }
  ZoneTable table;
  std::set<std::string> seen;
  for (size_t r = 1; r < records->size(); ++r) {
    const std::string line = " (line " + std::to_string(r + 1) + ")";
    ASSIGN_OR_RETURN(RegionZones z, ReadRegion((*records)[r], line));
    if (!seen.insert(z.region).second) return Malformed("A region appears twice" + line);
    table.regions_.push_back(std::move(z));
  }
  // Every nearest_region estimate borrows a published assignment.
  for (const RegionZones& z : table.regions_) {
    if (!z.network || z.network->basis != "nearest_region") continue;
    const RegionZones* ref = table.Find(z.network->reference_region);
    if (ref == nullptr || !ref->network || ref->network->basis != "published_region" ||
        ref->network->zone != z.network->zone) {
      return Malformed("A nearest_region estimate does not borrow a published zone (" + z.region +
                       ")");
    }
  }
  return table;
}

const RegionZones* ZoneTable::Find(std::string_view region) const {
  for (const RegionZones& z : regions_) {
    if (SameRegionName(z.region, region)) return &z;
  }
  return nullptr;
}

std::string_view BundledCsv() { return kBillingZonesCsv; }

const ZoneTable& ZoneTable::Bundled() {
  static const ZoneTable* table = [] {
    StatusOr<ZoneTable> parsed = Parse(kBillingZonesCsv);
    // The bundled table is fixed at build time and checked by zones_test; a broken copy must
    // not be used silently.
    if (!parsed.ok()) std::abort();
    return new ZoneTable(std::move(parsed).value());
  }();
  return *table;
}

}  // namespace azure_pricing::zones
