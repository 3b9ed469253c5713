// zones: show the bundled billing-zone mapping.
//   zones                 the mapping as a table
//   zones --json          the mapping as JSON
//   zones --region R      what an expanded query for R selects per zone family, and why
// Exit status: 0, 1 for an unknown region, 64 for a usage error.
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "ref/json/json.h"
#include "ref/zones/zones.h"

namespace azure_pricing::zones {
namespace {

constexpr char kUsage[] =
    "usage: zones [--json] [--region REGION]\n"
    "Shows the bundled billing-zone mapping (sources checked 2026-11-03).\n"
    "  --json           print JSON instead of a table\n"
    "  --region REGION  explain what an expanded query for REGION selects\n"
    "Exit status: 0, 1 for an unknown region, 64 for a usage error.\n";

constexpr ZoneFamily kFamilies[] = {ZoneFamily::kNetwork, ZoneFamily::kEdge, ZoneFamily::kDns};

const char* FamilyServices(ZoneFamily f) {
  switch (f) {
    case ZoneFamily::kNetwork:
      return "Virtual Network, VPN Gateway, Bandwidth";
    case ZoneFamily::kEdge:
      return "Azure Front Door Service, Content Delivery Network";
    case ZoneFamily::kDns:
      return "Azure DNS";
  }
  return "";
}

std::string Why(const RegionZones& z, ZoneFamily f) {
  const auto& a = z.For(f);
  if (!a) return "no assignment: zone rows of this family are omitted with a note";
  if (a->basis == "published_region") return "Microsoft's published table lists this region";
  if (a->basis == "nearest_region") {
    return "estimate: the nearest region in the published table is " + a->reference_region +
           " (a geographic estimate, not a Microsoft assignment)";
  }
  if (a->basis == "geography") {
    return "the region's geography (" + z.geography_group +
           "); real billing follows the serving edge location";
  }
  if (a->basis == "uniform_commercial") return "commercial DNS prices are uniform across zones";
  return a->basis;
}

json::Value AssignmentJson(const std::optional<ZoneAssignment>& a, bool with_reference) {
  if (!a) return json::Value::Null();
  json::Value v = json::Value::Object();
  v.Add("zone", json::Value::String(a->zone));
  v.Add("basis", json::Value::String(a->basis));
  if (with_reference) v.Add("reference_region", json::Value::String(a->reference_region));
  return v;
}

int Main(int argc, char** argv) {
  bool as_json = false;
  const char* region = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0) {
      as_json = true;
    } else if (std::strcmp(argv[i], "--region") == 0 && i + 1 < argc) {
      region = argv[++i];
    } else if (std::strcmp(argv[i], "--help") == 0) {
      std::fputs(kUsage, stdout);
      return 0;
    } else {
      std::fprintf(stderr, "zones: unknown option or missing value: %s\n%s", argv[i], kUsage);
      return 64;
    }
  }
  const ZoneTable& table = ZoneTable::Bundled();
  if (region != nullptr) {
    const RegionZones* z = table.Find(region);
    if (z == nullptr) {
      std::printf(
          "unknown region: not in the bundled mapping (checked %s). An expanded query keeps exact "
          "regional and Global rows and omits every zone row with a note; a newly named region "
          "needs a mapping update or an explicit location filter.\n",
          kMappingCheckDate);
      return 1;
    }
    if (as_json) {
      json::Value v = json::Value::Object();
      v.Add("region", json::Value::String(z->region));
      for (ZoneFamily f : kFamilies) {
        json::Value fam = AssignmentJson(z->For(f), f == ZoneFamily::kNetwork);
        if (fam.is_object()) fam.Add("why", json::Value::String(Why(*z, f)));
        v.Add(std::string(ZoneFamilyName(f)), std::move(fam));
      }
      std::printf("%s\n", json::Serialize(v).c_str());
      return 0;
    }
    std::printf("%s (%s, %s, cloud %s)\n", z->region.c_str(), z->display_name.c_str(),
                z->geography_group.c_str(), z->cloud.c_str());
    for (ZoneFamily f : kFamilies) {
      const auto& a = z->For(f);
      std::printf("  %-7s %-14s %s\n           services: %s\n",
                  std::string(ZoneFamilyName(f)).c_str(), a ? a->zone.c_str() : "(none)",
                  Why(*z, f).c_str(), FamilyServices(f));
    }
    std::printf(
        "  ExpressRoute zone rows are never selected by region (they follow the peering "
        "location).\n");
    if (!z->notes.empty()) std::printf("  note: %s\n", z->notes.c_str());
    return 0;
  }
  if (as_json) {
    json::Value all = json::Value::Array();
    for (const RegionZones& z : table.regions()) {
      json::Value v = json::Value::Object();
      v.Add("region", json::Value::String(z.region));
      v.Add("display_name", json::Value::String(z.display_name));
      v.Add("geography_group", json::Value::String(z.geography_group));
      v.Add("cloud", json::Value::String(z.cloud));
      v.Add("network", AssignmentJson(z.network, true));
      v.Add("edge", AssignmentJson(z.edge, false));
      v.Add("dns", AssignmentJson(z.dns, false));
      v.Add("notes", json::Value::String(z.notes));
      all.items().push_back(std::move(v));
    }
    json::Value doc = json::Value::Object();
    doc.Add("checked", json::Value::String(kMappingCheckDate));
    doc.Add("regions", std::move(all));
    std::printf("%s\n", json::Serialize(doc).c_str());
    return 0;
  }
  std::printf("billing-zone mapping, sources checked %s (%zu regions)\n", kMappingCheckDate,
              table.regions().size());
  std::printf("%-20s %-8s %-14s %-16s %-20s %-14s %s\n", "region", "cloud", "network",
              "network basis", "network reference", "edge", "dns");
  for (const RegionZones& z : table.regions()) {
    auto zone = [](const std::optional<ZoneAssignment>& a) { return a ? a->zone : "-"; };
    std::printf("%-20s %-8s %-14s %-16s %-20s %-14s %s\n", z.region.c_str(), z.cloud.c_str(),
                zone(z.network).c_str(), z.network ? z.network->basis.c_str() : "-",
                z.network ? z.network->reference_region.c_str() : "-", zone(z.edge).c_str(),
                zone(z.dns).c_str());
  }
  return 0;
}

}  // namespace
}  // namespace azure_pricing::zones

int main(int argc, char** argv) { return azure_pricing::zones::Main(argc, argv); }
