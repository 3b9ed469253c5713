// zones: show the bundled billing-zone mapping.
//   zones                 the mapping as a table
//   zones --json          the mapping as JSON
//   zones --region R      what an expanded query for R selects per zone family, and why
// Exit status: 0, 1 for an unknown or refused region, 64 for a usage error.
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "ref/base/flags.h"
#include "ref/base/main_guard.h"
#include "ref/json/json.h"
#include "ref/pricing/arguments.h"
#include "ref/status/status.h"
#include "ref/zones/location_values.h"
#include "ref/zones/zones.h"

namespace azure_pricing::zones {
namespace {

constexpr char kUsage[] =
    "usage: zones [--json] [--region REGION]\n"
    "Shows the bundled billing-zone mapping (sources checked 2026-11-03).\n"
    "  --json           print JSON instead of a table\n"
    "  --region REGION  explain what an expanded query for REGION selects\n"
    "A location value (Global, Zone 1, DE Zone 1, ...) is explained as the CLI's exact\n"
    "behaviour; a case or spacing variant of one as refused.\n"
    "Exit status: 0, 1 for an unknown or refused region, 64 for a usage error.\n";

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

struct Options {
  bool help = false;
  bool as_json = false;
  std::optional<std::string> region;
};

// The command line as Options; on failure `problem` is the line to show.
StatusOr<Options> ParseFlags(int argc, char** argv, std::string* problem) {
  const StatusOr<base::Flags> flags =
      base::Flags::ParseOrExplain(argc, argv,
                                  {{"--help", base::FlagKind::kSwitch},
                                   {"--json", base::FlagKind::kSwitch},
                                   {"--region", base::FlagKind::kValue}},
                                  problem);
  if (!flags.ok()) return flags.status();
  return Options{flags->Has("--help"), flags->Has("--json"), flags->Value("--region")};
}

// The region as the person typed it, for naming it back: printable ASCII as is, any other byte
// as \xHH, so that a control character cannot rewrite the terminal.
std::string Printable(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  return out;
}

// Prints one explanation, as a line or as
// {"region": R, "selection": KIND, "explanation": TEXT}.
void PrintExplanation(const std::string& region, std::string_view kind, const std::string& text,
                      bool as_json) {
  if (!as_json) {
    std::printf("%s\n", text.c_str());
    return;
  }
  json::Value v = json::Value::Object();
  v.Add("region", json::Value::String(Printable(region)));
  v.Add("selection", json::Value::String(std::string(kind)));
  v.Add("explanation", json::Value::String(text));
  std::printf("%s\n", json::Serialize(v).c_str());
}

// The tool's own refusal of `region` (empty, a space at either end, a control character, ...),
// in its own words, so that zones never explains a query the tool would not make.
std::optional<std::string> ToolRefusal(const std::string& region) {
  json::Value arguments = json::Value::Object();
  arguments.Add("region", json::Value::String(region));
  const StatusOr<azure_pricing::ToolArguments> parsed = azure_pricing::ValidateToolArguments(arguments);
  if (parsed.ok()) return std::nullopt;
  return parsed.status().message();
}

// A region that is not an ARM region name the mapping knows: a location value, a near miss of
// one, or an unknown name. Returns the exit status, or nullopt when `region` is a known region.
std::optional<int> ExplainNonMapped(const ZoneTable& table, const std::string& region,
                                    bool as_json) {
  const std::string named = "'" + Printable(region) + "'";
  if (IsLocationValue(region)) {
    PrintExplanation(region, "exact_cli_behaviour",
                     named + " is a price-list location value, not an ARM region: the CLI "
                     "gets it as --region exactly as given, and the report keeps the CLI's own "
                     "rows and shape (no matched_by, no selection).",
                     as_json);
    return 0;
  }
  std::optional<std::string_view> meant = LocationValueDifferingInCase(region);
  if (!meant) meant = LocationValueDifferingInSpacing(region);
  if (meant) {
    PrintExplanation(region, "refused",
                     named + " is refused before any sandbox: location values are exact; "
                     "write '" + std::string(*meant) + "'.",
                     as_json);
    return 1;
  }
  if (const std::optional<std::string> refusal = ToolRefusal(region)) {
    PrintExplanation(region, "refused", named + " is refused before any sandbox: " + *refusal,
                     as_json);
    return 1;
  }
  if (table.Find(region) != nullptr) return std::nullopt;
  PrintExplanation(
      region, "unknown_region",
      "unknown region " + named + ": not in the bundled mapping (checked " + kMappingCheckDate +
          "). An expanded query keeps exact regional and Global rows and omits every zone row "
          "with a note; a newly named region needs a mapping update. To choose zone rows "
          "yourself, omit region and name the locations in filter on armRegionName.",
      as_json);
  return 1;
}

// --region R: what an expanded query for R selects per zone family, and why.
int PrintRegion(const ZoneTable& table, const std::string& region, bool as_json) {
  if (const std::optional<int> status = ExplainNonMapped(table, region, as_json)) return *status;
  const RegionZones* z = table.Find(region);
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

void PrintAllJson(const ZoneTable& table) {
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
}

void PrintAllTable(const ZoneTable& table) {
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
}

int Main(int argc, char** argv) {
  std::string problem;
  const StatusOr<Options> options = ParseFlags(argc, argv, &problem);
  if (!options.ok()) {
    std::fprintf(stderr, "zones: %s\n%s", problem.c_str(), kUsage);
    return 64;
  }
  if (options->help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  const ZoneTable& table = ZoneTable::Bundled();
  if (options->region) return PrintRegion(table, *options->region, options->as_json);
  if (options->as_json) {
    PrintAllJson(table);
  } else {
    PrintAllTable(table);
  }
  return 0;
}

}  // namespace
}  // namespace azure_pricing::zones

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("zones", [&] { return azure_pricing::zones::Main(argc, argv); });
}
