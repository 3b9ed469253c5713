#include "conformance/live/zone_drift.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <system_error>

#include "ref/zones/location_values.h"

namespace azure_pricing::conformance::live {
namespace {

using Json = nlohmann::ordered_json;
using zones::ZoneFamily;

constexpr ZoneFamily kFamilies[] = {ZoneFamily::kNetwork, ZoneFamily::kEdge, ZoneFamily::kDns};

// The rows the evidence rule reads: Global VNet peering's per-region data-transfer price.
constexpr std::string_view kPeeringProduct = "Global Virtual Network Peering";
constexpr std::string_view kPeeringMeter = "Inter-Region Egress";

// The parts of a price row the report reads.
struct Row {
  std::string service, product, meter, region;
  std::optional<double> unit_price;
};

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string StringField(const Json& row, const char* key) {
  const auto it = row.find(key);
  return it != row.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Row ReadRow(const Json& row) {
  Row r{StringField(row, "serviceName"), StringField(row, "productName"),
        StringField(row, "meterName"), StringField(row, "region"), std::nullopt};
  if (const auto it = row.find("unitPrice"); it != row.end() && it->is_number()) {
    r.unit_price = it->get<double>();
  }
  return r;
}

// Appends the rows of one CLI stdout, or says why it contributes none.
std::optional<SkippedOutput> ReadOutput(const CliOutput& output, std::vector<Row>* rows) {
  const Json doc = Json::parse(output.text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return SkippedOutput{output.name, SkipReason::kNotJson, std::nullopt};
  std::optional<long long> status;
  if (doc.is_object() && doc.contains("status") && doc["status"].is_number_integer()) {
    status = doc["status"].get<long long>();
  }
  if (!doc.is_object() || status != 200 || !doc.contains("message") ||
      doc["message"] != "Success") {
    return SkippedOutput{output.name, SkipReason::kNotSuccess, status};
  }
  const auto results = doc.find("results");
  if (results == doc.end() || !results->is_object() || !results->contains("prices") ||
      !(*results)["prices"].is_array()) {
    return SkippedOutput{output.name, SkipReason::kNoPriceList, status};
  }
  for (const Json& row : (*results)["prices"]) {
    rows->push_back(row.is_object() ? ReadRow(row) : Row{});
  }
  return std::nullopt;
}

// An ARM region name, as opposed to Global, a billing zone or another location value.
bool IsArmRegion(const std::string& region) {
  return !region.empty() && !zones::IsLocationValue(region);
}

template <typename T>
std::vector<T> Sorted(const std::set<T>& s) {
  return std::vector<T>(s.begin(), s.end());
}

// Which regions and zone names the zone-family rows name.
struct Seen {
  std::set<std::string> regions;          // ARM regions of zone-family rows
  std::set<std::string> network_regions;  // ARM regions of network-family rows
  std::map<ZoneFamily, std::set<std::string>> zones;  // zone names per family
  std::map<std::string, std::set<double>> peering;     // ARM region -> egress prices
  size_t zone_family_rows = 0;
};

// Only rows of the services the mapping covers count: those are the rows selection chooses by
// zone, so their ARM regions are the regions the mapping must cover. Other services' rows name
// locations that are not billing regions at all (VM edge zones such as attatlanta1) and would
// be reported as missing regions that no mapping update could or should add.
Seen Collect(const std::vector<Row>& rows) {
  Seen seen;
  for (const Row& row : rows) {
    // Front Door Standard/Premium has no family (zones.h): its Zones 6 to 8 would otherwise read
    // as edge zones the mapping lacks.
    const std::optional<ZoneFamily> family = zones::FamilyOf(row.service, row.product);
    if (!family) continue;
    ++seen.zone_family_rows;
    if (zones::IsBillingZone(row.region)) seen.zones[*family].insert(row.region);
    if (!IsArmRegion(row.region)) continue;
    const std::string region = Lower(row.region);
    seen.regions.insert(region);
    if (*family != ZoneFamily::kNetwork) continue;
    seen.network_regions.insert(region);
    if (row.product == kPeeringProduct && row.meter == kPeeringMeter && row.unit_price) {
      seen.peering[region].insert(*row.unit_price);
    }
  }
  return seen;
}

void JudgeRegions(const Seen& seen, const zones::ZoneTable& table, DriftReport* report) {
  report->regions_seen = Sorted(seen.regions);
  for (const std::string& region : seen.regions) {
    if (table.Find(region) == nullptr) report->missing_from_mapping.push_back(region);
  }
  report->network_regions_seen = seen.network_regions.size();
  report->absent_judged = seen.network_regions.size() >= report->listing_min_regions;
  if (!report->absent_judged) return;
  // Sovereign regions are not judged: US Government rows may or may not be in a commercial
  // listing, and China's are in a separate price list altogether.
  for (const zones::RegionZones& z : table.regions()) {
    if (z.cloud == "public" && seen.network_regions.count(z.region) == 0) {
      report->absent_upstream.push_back(z.region);
    }
  }
}

void JudgeZoneNames(const Seen& seen, const zones::ZoneTable& table, DriftReport* report) {
  for (ZoneFamily family : kFamilies) {
    FamilyZoneNames names{family};
    const auto it = seen.zones.find(family);
    names.judged = it != seen.zones.end();
    if (names.judged) names.seen = Sorted(it->second);
    std::set<std::string> assigned;
    for (const zones::RegionZones& z : table.regions()) {
      if (z.For(family)) assigned.insert(z.For(family)->zone);
    }
    for (const std::string& zone : assigned) {
      if (names.judged && it->second.count(zone) == 0) names.never_seen.push_back(zone);
    }
    report->zone_names.push_back(std::move(names));
  }
}

}  // namespace

// The evidence rule, in one place. Global VNet peering is billed per ARM region at its network
// zone's rate, so the Inter-Region Egress rows under a region say which zone it is billed in.
//  - A zone's price is learnt from the rows of the regions the mapping places in it on the
//    published_region basis; the zone is learnable when they agree on one unitPrice. No price is
//    written in the code: the price list itself says what each zone costs.
//  - A region with rows that all show one price: "agrees" when it is its mapped zone's learnt
//    price; "says_zone" when the mapped zone is learnable, the price is not its price and exactly
//    one other learnable zone has it; otherwise "ambiguous" (no zone or several have it, or the
//    mapped zone's price is unknown, so the row might still be its price). Rows showing several
//    prices are "ambiguous"; no row is "no_published_row".
//  - A published_region region is judged against the zones learnt without it, so that its own
//    row cannot make its mapped zone unlearnable; it is reported only when it says another zone.
//    Those regions are then left out when the zones are learnt for the nearest_region regions.
namespace {

using ZonePrices = std::map<std::string, ZonePrice>;

void AddUnique(std::vector<double>* prices, double price) {
  if (std::find(prices->begin(), prices->end(), price) == prices->end()) {
    prices->insert(std::upper_bound(prices->begin(), prices->end(), price), price);
  }
}

ZonePrices LearnZonePrices(const Seen& seen, const zones::ZoneTable& table,
                           const std::set<std::string>& left_out) {
  ZonePrices learnt;
  for (const zones::RegionZones& z : table.regions()) {
    if (!z.network) continue;
    ZonePrice& zone = learnt[z.network->zone];
    zone.zone = z.network->zone;
    if (z.network->basis != "published_region" || left_out.count(z.region) > 0) continue;
    const auto rows = seen.peering.find(z.region);
    if (rows == seen.peering.end()) continue;
    zone.regions.push_back(z.region);
    for (double price : rows->second) AddUnique(&zone.prices, price);
  }
  return learnt;
}

RegionEvidence Judge(const zones::RegionZones& z, const Seen& seen, const ZonePrices& learnt) {
  RegionEvidence e{z.region, z.network->basis, z.network->zone, z.network->reference_region};
  const auto rows = seen.peering.find(z.region);
  if (rows == seen.peering.end()) return e;
  e.prices = std::vector<double>(rows->second.begin(), rows->second.end());
  e.evidence = Evidence::kAmbiguous;
  if (e.prices.size() != 1) return e;
  for (const auto& [zone, price] : learnt) {
    if (price.learnable() && price.prices[0] == e.prices[0]) e.matching_zones.push_back(zone);
  }
  const auto mapped = learnt.find(e.mapped_zone);
  if (mapped == learnt.end() || !mapped->second.learnable()) return e;
  if (mapped->second.prices[0] == e.prices[0]) {
    e.evidence = Evidence::kAgrees;
  } else if (e.matching_zones.size() == 1) {
    e.evidence = Evidence::kSaysZone;
    e.says_zone = e.matching_zones[0];
  }
  return e;
}

bool HasBasis(const zones::RegionZones& z, std::string_view basis) {
  return z.network && z.network->basis == basis;
}

void JudgeEvidence(const Seen& seen, const zones::ZoneTable& table, DriftReport* report) {
  std::set<std::string> drifted;
  for (const zones::RegionZones& z : table.regions()) {
    if (!HasBasis(z, "published_region")) continue;
    RegionEvidence e = Judge(z, seen, LearnZonePrices(seen, table, {z.region}));
    if (e.evidence != Evidence::kSaysZone) continue;
    drifted.insert(z.region);
    report->published_drift.push_back(std::move(e));
  }
  const ZonePrices learnt = LearnZonePrices(seen, table, drifted);
  for (const zones::RegionZones& z : table.regions()) {
    if (HasBasis(z, "nearest_region")) report->nearest_region.push_back(Judge(z, seen, learnt));
  }
  // In the expansion's order, which is the order a person reads zones in.
  for (std::string_view zone : zones::kExpansionZones) {
    const auto it = learnt.find(std::string(zone));
    if (it != learnt.end()) report->zone_prices.push_back(it->second);
  }
}

// The one rule for "the mapping needs an update": a region the price list bills that the mapping
// lacks, a mapped region a region-wide listing no longer has, or a published row that puts a
// region in another zone than the mapping does. Zone names never seen and ambiguous evidence are
// shown but do not decide it: the queries read may simply not cover every product of a family,
// and ambiguity is the absence of evidence, not evidence of drift.
void DecideUpdate(DriftReport* report) {
  if (!report->missing_from_mapping.empty()) {
    report->update_causes.push_back(UpdateCause::kMissingFromMapping);
  }
  if (!report->absent_upstream.empty()) {
    report->update_causes.push_back(UpdateCause::kAbsentUpstream);
  }
  if (std::any_of(report->nearest_region.begin(), report->nearest_region.end(),
                  [](const RegionEvidence& e) { return e.evidence == Evidence::kSaysZone; })) {
    report->update_causes.push_back(UpdateCause::kNearestRegionSaysZone);
  }
  if (!report->published_drift.empty()) {
    report->update_causes.push_back(UpdateCause::kPublishedRegionSaysZone);
  }
}

}  // namespace

std::string_view SkipReasonName(SkipReason reason) {
  switch (reason) {
    case SkipReason::kNotJson:
      return "not_json";
    case SkipReason::kNotSuccess:
      return "not_success";
    case SkipReason::kNoPriceList:
      return "no_price_list";
  }
  return "not_json";
}

std::string_view EvidenceName(Evidence evidence) {
  switch (evidence) {
    case Evidence::kAgrees:
      return "agrees";
    case Evidence::kSaysZone:
      return "says_zone";
    case Evidence::kAmbiguous:
      return "ambiguous";
    case Evidence::kNoPublishedRow:
      return "no_published_row";
  }
  return "ambiguous";
}

std::string_view UpdateCauseName(UpdateCause cause) {
  switch (cause) {
    case UpdateCause::kMissingFromMapping:
      return "missing_from_mapping";
    case UpdateCause::kAbsentUpstream:
      return "absent_upstream";
    case UpdateCause::kNearestRegionSaysZone:
      return "nearest_region_says_zone";
    case UpdateCause::kPublishedRegionSaysZone:
      return "published_region_says_zone";
  }
  return "missing_from_mapping";
}

DriftReport BuildDriftReport(const std::vector<CliOutput>& outputs,
                             const zones::ZoneTable& table, const DriftOptions& options) {
  DriftReport report;
  report.listing_min_regions = options.listing_min_regions;
  std::vector<Row> rows;
  for (const CliOutput& output : outputs) {
    if (std::optional<SkippedOutput> skipped = ReadOutput(output, &rows)) {
      report.skipped.push_back(std::move(*skipped));
    } else {
      ++report.outputs_read;
    }
  }
  report.rows_read = rows.size();
  const Seen seen = Collect(rows);
  report.zone_family_rows = seen.zone_family_rows;
  JudgeRegions(seen, table, &report);
  JudgeZoneNames(seen, table, &report);
  JudgeEvidence(seen, table, &report);
  DecideUpdate(&report);
  return report;
}

int DriftExitStatus(const DriftReport& report) {
  if (report.needs_update()) return kExitNeedsUpdate;
  return report.judged() ? kExitUpToDate : kExitNothingJudged;
}

StatusOr<std::vector<std::string>> RecordingCliFiles(const std::string& dir) {
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) {
    return ProgramError(kRecordingNotADirectory, "The recording is not a directory.");
  }
  std::vector<std::string> files;
  const std::filesystem::path cli = std::filesystem::path(dir) / "cli";
  for (const auto& entry : std::filesystem::directory_iterator(cli, error)) {
    if (entry.path().extension() == ".json" && !entry.is_directory(error)) {
      files.push_back(entry.path().string());
    }
  }
  if (files.empty()) {
    return ProgramError(kRecordingWithoutCliOutputs, "The recording has no cli/*.json files.");
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The JSON shape (stable; a key is never removed, only added):
// {
//   "needs_update": bool,            the exit rule's verdict (DecideUpdate)
//   "judged": bool,                  false when no row of a zone-family service was read
//   "update_causes": ["missing_from_mapping" | "absent_upstream" |
//                     "nearest_region_says_zone" | "published_region_says_zone", ...],
//   "inputs": {"outputs_read": N, "rows_read": N, "zone_family_rows": N,
//              "skipped": [{"file": NAME, "reason": "not_json" | "not_success" |
//                           "no_price_list", "status": N | null}]},
//   "regions_seen": [ARM region, ...],
//   "missing_from_mapping": [ARM region, ...],
//   "absent_upstream": {"judged": bool, "network_regions_seen": N, "min_regions": N,
//                       "regions": [ARM region, ...]},
//   "zone_names": [{"family": "network" | "edge" | "dns", "judged": bool,
//                   "seen": [zone, ...], "never_seen": [zone, ...]}],
//   "zone_prices": [{"zone": Z, "learnable": bool, "price": P | null, "prices": [P, ...],
//                    "regions": [published_region region, ...]}],
//   "nearest_region": [EVIDENCE, ...],
//   "published_drift": [EVIDENCE, ...]
// }
// EVIDENCE: {"region", "basis", "mapped_zone", "reference_region", "evidence": "agrees" |
//            "says_zone" | "ambiguous" | "no_published_row", "price": P | null,
//            "prices": [P, ...], "matching_zones": [zone, ...], "says_zone": Z | null}
namespace {

Json PriceOrNull(const std::vector<double>& prices) {
  return prices.size() == 1 ? Json(prices[0]) : Json(nullptr);
}

Json EvidenceJson(const RegionEvidence& e) {
  return Json{{"region", e.region},
              {"basis", e.basis},
              {"mapped_zone", e.mapped_zone},
              {"reference_region", e.reference_region},
              {"evidence", EvidenceName(e.evidence)},
              {"price", PriceOrNull(e.prices)},
              {"prices", e.prices},
              {"matching_zones", e.matching_zones},
              {"says_zone", e.says_zone.empty() ? Json(nullptr) : Json(e.says_zone)}};
}

Json InputsJson(const DriftReport& r) {
  Json skipped = Json::array();
  for (const SkippedOutput& s : r.skipped) {
    skipped.push_back({{"file", s.name},
                       {"reason", SkipReasonName(s.reason)},
                       {"status", s.status ? Json(*s.status) : Json(nullptr)}});
  }
  return Json{{"outputs_read", r.outputs_read},
              {"rows_read", r.rows_read},
              {"zone_family_rows", r.zone_family_rows},
              {"skipped", std::move(skipped)}};
}

Json ZonesJson(const DriftReport& r, Json* prices) {
  Json names = Json::array();
  for (const FamilyZoneNames& f : r.zone_names) {
    names.push_back({{"family", zones::ZoneFamilyName(f.family)},
                     {"judged", f.judged},
                     {"seen", f.seen},
                     {"never_seen", f.never_seen}});
  }
  *prices = Json::array();
  for (const ZonePrice& z : r.zone_prices) {
    prices->push_back({{"zone", z.zone},
                       {"learnable", z.learnable()},
                       {"price", PriceOrNull(z.prices)},
                       {"prices", z.prices},
                       {"regions", z.regions}});
  }
  return names;
}

}  // namespace

std::string FormatDriftJson(const DriftReport& r) {
  Json causes = Json::array();
  for (UpdateCause c : r.update_causes) causes.push_back(UpdateCauseName(c));
  Json zone_prices;
  Json zone_names = ZonesJson(r, &zone_prices);
  Json nearest = Json::array(), drift = Json::array();
  for (const RegionEvidence& e : r.nearest_region) nearest.push_back(EvidenceJson(e));
  for (const RegionEvidence& e : r.published_drift) drift.push_back(EvidenceJson(e));
  const Json doc{{"needs_update", r.needs_update()},
                 {"judged", r.judged()},
                 {"update_causes", std::move(causes)},
                 {"inputs", InputsJson(r)},
                 {"regions_seen", r.regions_seen},
                 {"missing_from_mapping", r.missing_from_mapping},
                 {"absent_upstream",
                  {{"judged", r.absent_judged},
                   {"network_regions_seen", r.network_regions_seen},
                   {"min_regions", r.listing_min_regions},
                   {"regions", r.absent_upstream}}},
                 {"zone_names", std::move(zone_names)},
                 {"zone_prices", std::move(zone_prices)},
                 {"nearest_region", std::move(nearest)},
                 {"published_drift", std::move(drift)}};
  return doc.dump() + "\n";
}

namespace {

// printf into a std::string, for the fixed-width table.
template <typename... Args>
void Line(std::string* out, const char* format, Args... args) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, format, args...);
  *out += buffer;
  *out += '\n';
}

std::string Join(const std::vector<std::string>& items) {
  if (items.empty()) return "-";
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::string Prices(const std::vector<double>& prices) {
  if (prices.empty()) return "-";
  std::string out;
  for (double p : prices) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.10g", p);
    out += (out.empty() ? "" : ", ") + std::string(buffer);
  }
  return out;
}

std::string EvidenceText(const RegionEvidence& e) {
  if (e.evidence == Evidence::kSaysZone) return "says " + e.says_zone + " (drift)";
  if (e.evidence == Evidence::kNoPublishedRow) return "no published row";
  return std::string(EvidenceName(e.evidence));
}

void InputsTable(const DriftReport& r, std::string* out) {
  Line(out, "zone-drift report: %zu CLI outputs read, %zu skipped; %zu rows, %zu of zone-family "
            "services",
       r.outputs_read, r.skipped.size(), r.rows_read, r.zone_family_rows);
  for (const SkippedOutput& s : r.skipped) {
    const std::string status = s.status ? " (status " + std::to_string(*s.status) + ")" : "";
    Line(out, "  skipped %s: %s%s", s.name.c_str(), std::string(SkipReasonName(s.reason)).c_str(),
         status.c_str());
  }
  Line(out, "ARM regions in zone-family rows: %zu", r.regions_seen.size());
  Line(out, "regions missing from the mapping: %s", Join(r.missing_from_mapping).c_str());
  if (r.absent_judged) {
    Line(out, "mapped public regions absent upstream: %s", Join(r.absent_upstream).c_str());
  } else {
    Line(out, "mapped public regions absent upstream: not judged (network rows under %zu ARM "
              "regions; a region-wide listing has at least %zu)",
         r.network_regions_seen, r.listing_min_regions);
  }
}

void ZonesTable(const DriftReport& r, std::string* out) {
  Line(out, "%s", "");
  Line(out, "%-8s %-11s %-32s %s", "family", "zone names", "never seen", "seen");
  for (const FamilyZoneNames& f : r.zone_names) {
    Line(out, "%-8s %-11s %-32s %s", std::string(zones::ZoneFamilyName(f.family)).c_str(),
         f.judged ? "judged" : "not judged", f.judged ? Join(f.never_seen).c_str() : "-",
         Join(f.seen).c_str());
  }
  Line(out, "%s", "");
  Line(out, "network zone prices learnt (%s, %s):", std::string(kPeeringProduct).c_str(),
       std::string(kPeeringMeter).c_str());
  Line(out, "%-14s %-11s %-24s %s", "zone", "learnable", "prices", "from published regions");
  for (const ZonePrice& z : r.zone_prices) {
    Line(out, "%-14s %-11s %-24s %zu", z.zone.c_str(), z.learnable() ? "yes" : "no",
         Prices(z.prices).c_str(), z.regions.size());
  }
}

void EvidenceTable(const char* title, const std::vector<RegionEvidence>& rows, std::string* out) {
  Line(out, "%s", "");
  Line(out, "%s", title);
  Line(out, "%-20s %-14s %-20s %-26s %s", "region", "mapped zone", "reference region", "evidence",
       "prices");
  for (const RegionEvidence& e : rows) {
    Line(out, "%-20s %-14s %-20s %-26s %s", e.region.c_str(), e.mapped_zone.c_str(),
         e.reference_region.c_str(), EvidenceText(e).c_str(), Prices(e.prices).c_str());
  }
  if (rows.empty()) Line(out, "%s", "(none)");
}

}  // namespace

std::string FormatDriftTable(const DriftReport& r) {
  std::string out;
  InputsTable(r, &out);
  ZonesTable(r, &out);
  EvidenceTable("nearest_region estimates against the published rows:", r.nearest_region, &out);
  EvidenceTable("published_region regions whose rows say another zone:", r.published_drift, &out);
  Line(&out, "%s", "");
  std::vector<std::string> causes;
  for (UpdateCause c : r.update_causes) causes.emplace_back(UpdateCauseName(c));
  if (r.needs_update()) {
    Line(&out, "the mapping needs an update: %s", Join(causes).c_str());
  } else if (r.judged()) {
    Line(&out, "%s", "the mapping is up to date for what was seen");
  } else {
    Line(&out, "%s", "nothing could be judged: no rows of a zone-family service were read");
  }
  return out;
}

}  // namespace azure_pricing::conformance::live
