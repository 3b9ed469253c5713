#include "ref/pricing/selection.h"

#include <set>
#include <tuple>

#include "ref/zones/zones.h"

namespace azure_pricing {

const char kNoteUnknownRegion[] =
    "The requested region is not in the bundled billing-zone mapping (checked 2026-11-03), so "
    "billing-zone rows were left out; regional and Global rows are kept. A newly named region "
    "needs a mapping update or an explicit location filter.";
const char kNoteNoAssignment[] =
    "The bundled mapping has no billing-zone assignment for the requested region in some zone "
    "families (sovereign clouds are never mapped into commercial zones), so those zone rows were "
    "left out.";
const char kNoteUnknownFamily[] =
    "Billing-zone rows of services whose zone families the mapping does not cover were left out.";
const char kNoteExpressRoute[] =
    "ExpressRoute billing-zone rows were left out: their zones follow the peering location, not "
    "the Azure region.";
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

using MeterKey = std::tuple<std::string, std::string, std::string>;

bool CompleteIdentity(const PriceRow& r) {
  return !r.service_name.empty() && !r.product_name.empty() && !r.meter_name.empty();
}

}  // namespace

Selection SelectRows(const std::vector<PriceRow>& rows, const RegionPlan& plan,
                     bool received_truncated) {
  enum class Kind { kDropped, kRegion, kZone, kGlobalCandidate };
  std::vector<Kind> kinds(rows.size(), Kind::kDropped);
  std::vector<const zones::ZoneAssignment*> assignments(rows.size(), nullptr);
  std::vector<zones::ZoneFamily> families(rows.size(), zones::ZoneFamily::kNetwork);
  // An unknown region can select no zone at all, whether or not zone rows came back.
  const bool unknown_region = plan.known == nullptr;
  bool no_assignment = false, unknown_family = false, express = false;
  std::set<MeterKey> preferred;  // meters with a kept regional or zone row

  for (size_t i = 0; i < rows.size(); ++i) {
    const PriceRow& r = rows[i];
    if (zones::SameRegionName(r.region, plan.requested_region)) {
      kinds[i] = Kind::kRegion;
    } else if (r.region == "Global") {
      kinds[i] = Kind::kGlobalCandidate;
      continue;
    } else if (zones::IsBillingZone(r.region)) {
      if (r.service_name == "ExpressRoute") {
        express = true;
        continue;
      }
      const std::optional<zones::ZoneFamily> family = zones::FamilyOfService(r.service_name);
      if (!family) {
        unknown_family = true;
        continue;
      }
      if (unknown_region) continue;
      const std::optional<zones::ZoneAssignment>& a = plan.known->For(*family);
      if (!a) {
        no_assignment = true;
        continue;
      }
      if (a->zone != r.region) continue;  // another zone: intentionally excluded
      kinds[i] = Kind::kZone;
      assignments[i] = &*a;
      families[i] = *family;
    } else {
      continue;  // another location: intentionally excluded
    }
    if (CompleteIdentity(r)) preferred.insert({r.service_name, r.product_name, r.meter_name});
  }

  Selection selection;
  bool edge = false, nearest = false, global_kept = false;
  for (size_t i = 0; i < rows.size(); ++i) {
    const PriceRow& r = rows[i];
    SelectedRow s{r, "", std::nullopt, std::nullopt, std::nullopt, std::nullopt};
    switch (kinds[i]) {
      case Kind::kDropped:
        continue;
      case Kind::kRegion:
        s.matched_by = "region";
        break;
      case Kind::kGlobalCandidate:
        if (preferred.count({r.service_name, r.product_name, r.meter_name}) != 0) continue;
        s.matched_by = "global";
        global_kept = true;
        break;
      case Kind::kZone:
        s.matched_by = "zone";
        s.zone = assignments[i]->zone;
        s.zone_family = std::string(zones::ZoneFamilyName(families[i]));
        s.zone_basis = assignments[i]->basis;
        if (families[i] == zones::ZoneFamily::kNetwork) {
          s.zone_reference_region = assignments[i]->reference_region;
        }
        edge = edge || families[i] == zones::ZoneFamily::kEdge;
        nearest = nearest || assignments[i]->basis == "nearest_region";
        break;
    }
    selection.rows.push_back(std::move(s));
  }
  if (unknown_region) selection.notes.emplace_back(kNoteUnknownRegion);
  if (no_assignment) selection.notes.emplace_back(kNoteNoAssignment);
  if (unknown_family) selection.notes.emplace_back(kNoteUnknownFamily);
  if (express) selection.notes.emplace_back(kNoteExpressRoute);
  if (edge) selection.notes.emplace_back(kNoteEdgeZone);
  if (nearest) selection.notes.emplace_back(kNoteNearestRegion);
  if (global_kept && received_truncated) selection.notes.emplace_back(kNoteGlobalFromTruncated);
  if (unknown_region || no_assignment || unknown_family || express) {
    selection.notes.emplace_back(kNoteNotProofOfAbsence);
  }
  return selection;
}

}  // namespace azure_pricing
