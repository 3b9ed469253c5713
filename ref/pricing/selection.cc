#include "ref/pricing/selection.h"

#include <string_view>
#include <unordered_set>

#include <set>
#include <tuple>

#include "ref/zones/location_values.h"
#include "ref/zones/zones.h"

namespace azure_pricing {

const char kNoteUnknownRegion[] =
    "The requested region is not in the bundled billing-zone mapping (checked 2026-11-03), so "
    "billing-zone rows were left out; regional and Global rows are kept. A newly named region "
    "needs a mapping update. To choose zone rows yourself, omit region (a filter given with "
    "region is ANDed with this expansion and cannot add rows) and name every location in "
    "filter on armRegionName, for example, with your region's ARM name in place of REGION, "
    "filter=\"serviceName eq 'Bandwidth' and (armRegionName eq 'REGION' or armRegionName eq "
    "'Zone 1' or armRegionName eq 'Global')\".";
const char kNoteNoAssignment[] =
    "The bundled mapping has no billing-zone assignment for the requested region in some zone "
    "families (sovereign clouds are never mapped into commercial zones), so those zone rows were "
    "left out.";
const char kNoteUnknownFamily[] =
    "Billing-zone rows of services whose zone families the mapping does not cover were left out.";
const char kNoteExpressRoute[] =
    "ExpressRoute billing-zone rows were left out: their zones follow the peering location, not "
    "the Azure region.";
const char kNoteFrontDoorStandardPremium[] =
    "Front Door Standard/Premium billing-zone rows were left out: it bills in Zones 1 to 8, and "
    "the bundled mapping does not know which geographies those zones cover.";
const char kNoteEdgeZone[] =
    "Front Door and CDN zone rows assume the requested region's geography is the serving edge; "
    "actual billing follows the edge location that serves each request, which the origin region "
    "does not determine.";
const char kNoteNearestRegion[] =
    "Some network zone rows were selected by a nearest-region estimate (zone_basis "
    "nearest_region): a geographic estimate, not a Microsoft-published billing assignment.";
const char kNoteGlobalFromTruncated[] =
    "Global rows were chosen from a result the CLI cut at 5,000 rows; a regional or zone price "
    "may exist beyond that limit. Narrow the query.";
const char kNoteNotProofOfAbsence[] =
    "Because rows were left out as noted, an empty or short result does not establish that no "
    "price exists.";

namespace {

// Views into the received rows, which outlive every use of the keys (SelectRows decides every
// row before it moves any): 5,000 owned triples would cost more than the rest of selection.
using MeterKey = std::tuple<std::string_view, std::string_view, std::string_view>;

struct MeterKeyHash {
  size_t operator()(const MeterKey& k) const {
    const std::hash<std::string_view> h;
    return h(std::get<0>(k)) ^ (h(std::get<1>(k)) * 31) ^ (h(std::get<2>(k)) * 1009);
  }
};

bool CompleteIdentity(const PriceRow& r) {
  return !r.service_name.empty() && !r.product_name.empty() && !r.meter_name.empty();
}

}  // namespace

namespace {

enum class Kind { kDropped, kRegion, kZone, kGlobalCandidate };

// How each received row relates to the requested region, before Global fallback is decided.
struct Classification {
  std::vector<Kind> kinds;
  std::vector<const zones::ZoneAssignment*> assignments;
  std::vector<zones::ZoneFamily> families;
  std::unordered_set<MeterKey, MeterKeyHash> preferred;  // meters with a kept regional or zone row
  bool no_assignment = false, unknown_family = false, express = false, front_door_tiers = false;
};

// The kind of a billing-zone row for the requested region; sets the flags that become notes.
Kind ClassifyZoneRow(const PriceRow& r, const RegionPlan& plan, Classification& c, size_t i) {
  if (r.service_name == "ExpressRoute") {
    c.express = true;
    return Kind::kDropped;
  }
  if (zones::IsFrontDoorStandardPremium(r.service_name, r.product_name)) {
    c.front_door_tiers = true;
    return Kind::kDropped;
  }
  const std::optional<zones::ZoneFamily> family = zones::FamilyOf(r.service_name, r.product_name);
  if (!family) {
    c.unknown_family = true;
    return Kind::kDropped;
  }
  // An unknown region can select no zone at all, whether or not zone rows came back.
  if (plan.known == nullptr) return Kind::kDropped;
  const std::optional<zones::ZoneAssignment>& a = plan.known->For(*family);
  if (!a) {
    c.no_assignment = true;
    return Kind::kDropped;
  }
  if (a->zone != r.region) return Kind::kDropped;  // another zone: intentionally excluded
  c.assignments[i] = &*a;
  c.families[i] = *family;
  return Kind::kZone;
}

Classification Classify(const std::vector<PriceRow>& rows, const RegionPlan& plan) {
  Classification c{std::vector<Kind>(rows.size(), Kind::kDropped),
                   std::vector<const zones::ZoneAssignment*>(rows.size(), nullptr),
                   std::vector<zones::ZoneFamily>(rows.size(), zones::ZoneFamily::kNetwork),
                   {}};
  for (size_t i = 0; i < rows.size(); ++i) {
    const PriceRow& r = rows[i];
    if (r.region == "Global") {
      c.kinds[i] = Kind::kGlobalCandidate;
      continue;
    }
    if (zones::IsBillingZone(r.region)) {
      c.kinds[i] = ClassifyZoneRow(r, plan, c, i);
    } else if (zones::SameRegionName(r.region, plan.requested_region) &&
               !zones::IsLocationValue(r.region)) {
      // ARM names compare ignoring case; a location value is never the requested ARM region.
      c.kinds[i] = Kind::kRegion;
    }
    if (c.kinds[i] != Kind::kDropped && CompleteIdentity(r)) {
      c.preferred.insert({r.service_name, r.product_name, r.meter_name});
    }
  }
  return c;
}

RowMatch PlainMatch(const char* matched_by) {
  RowMatch m;
  m.matched_by = matched_by;
  return m;
}

RowMatch ZoneMatch(const zones::ZoneAssignment& a, zones::ZoneFamily family) {
  RowMatch s{"zone", a.zone, std::string(zones::ZoneFamilyName(family)), a.basis, std::nullopt};
  if (family == zones::ZoneFamily::kNetwork) s.zone_reference_region = a.reference_region;
  return s;
}

void AddNotes(const Classification& c, const RegionPlan& plan, bool edge, bool nearest,
              bool global_kept, bool received_truncated, Selection& selection) {
  const bool unknown_region = plan.known == nullptr;
  if (unknown_region) selection.notes.emplace_back(kNoteUnknownRegion);
  if (c.no_assignment) selection.notes.emplace_back(kNoteNoAssignment);
  if (c.unknown_family) selection.notes.emplace_back(kNoteUnknownFamily);
  if (c.express) selection.notes.emplace_back(kNoteExpressRoute);
  if (c.front_door_tiers) selection.notes.emplace_back(kNoteFrontDoorStandardPremium);
  if (edge) selection.notes.emplace_back(kNoteEdgeZone);
  if (nearest) selection.notes.emplace_back(kNoteNearestRegion);
  if (global_kept && received_truncated) selection.notes.emplace_back(kNoteGlobalFromTruncated);
  if (unknown_region || c.no_assignment || c.unknown_family || c.express || c.front_door_tiers) {
    selection.notes.emplace_back(kNoteNotProofOfAbsence);
  }
}

}  // namespace

Selection SelectRows(std::vector<PriceRow> rows, const RegionPlan& plan,
                     bool received_truncated) {
  Classification c = Classify(rows, plan);
  // Global fallback is decided for every row first: the keys view the rows about to be moved.
  size_t kept = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const PriceRow& r = rows[i];
    if (c.kinds[i] == Kind::kGlobalCandidate &&
        c.preferred.count({r.service_name, r.product_name, r.meter_name}) != 0) {
      c.kinds[i] = Kind::kDropped;
    }
    if (c.kinds[i] != Kind::kDropped) ++kept;
  }
  // The kept rows close up in the received rows' own storage: a second vector of rows would
  // double the memory a 5,000-row result touches.
  Selection selection;
  selection.matches.reserve(kept);
  bool edge = false, nearest = false, global_kept = false;
  size_t next = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    switch (c.kinds[i]) {
      case Kind::kDropped:
        continue;
      case Kind::kRegion:
        selection.matches.push_back(PlainMatch("region"));
        break;
      case Kind::kGlobalCandidate:
        selection.matches.push_back(PlainMatch("global"));
        global_kept = true;
        break;
      case Kind::kZone:
        selection.matches.push_back(ZoneMatch(*c.assignments[i], c.families[i]));
        edge = edge || c.families[i] == zones::ZoneFamily::kEdge;
        nearest = nearest || c.assignments[i]->basis == "nearest_region";
        break;
    }
    if (next != i) rows[next] = std::move(rows[i]);
    ++next;
  }
  rows.erase(rows.begin() + static_cast<std::ptrdiff_t>(next), rows.end());
  selection.rows = std::move(rows);
  AddNotes(c, plan, edge, nearest, global_kept, received_truncated, selection);
  return selection;
}

}  // namespace azure_pricing
