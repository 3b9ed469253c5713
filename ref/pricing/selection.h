// Selection for expanded queries: after every received row has been validated, keep exact
// regional rows, the billing-zone rows the requested region selects for each row's zone family,
// and Global rows only for meters with neither, keyed by (serviceName, productName, meterName).
// Each kept row says why it was kept; notes say what was left out and what is only estimated.
#ifndef REF_PRICING_SELECTION_H_
#define REF_PRICING_SELECTION_H_

#include <optional>
#include <string>
#include <vector>

#include "ref/pricing/envelope.h"
#include "ref/pricing/region_plan.h"

namespace azure_pricing {

// Why a kept row was kept.
struct RowMatch {
  std::string matched_by;  // "region", "zone" or "global"
  std::optional<std::string> zone, zone_family, zone_basis, zone_reference_region;
};

struct Selection {
  std::vector<PriceRow> rows;      // as the CLI gave them (region value included), in its order
  std::vector<RowMatch> matches;   // parallel to rows
  std::vector<std::string> notes;  // fixed texts, each at most once, in a fixed order
};

// `received_truncated`: the CLI stopped at its row ceiling, so a Global fallback cannot prove a
// preferred row is absent.
// Takes the rows: the kept ones stay in their storage, which becomes the selection's.
Selection SelectRows(std::vector<PriceRow> rows, const RegionPlan& plan,
                     bool received_truncated);

// The fixed notes, for tests and documentation.
extern const char kNoteUnknownRegion[];
extern const char kNoteNoAssignment[];
extern const char kNoteUnknownFamily[];
extern const char kNoteExpressRoute[];
extern const char kNoteFrontDoorStandardPremium[];
extern const char kNoteEdgeZone[];
extern const char kNoteNearestRegion[];
extern const char kNoteGlobalFromTruncated[];
extern const char kNoteNotProofOfAbsence[];

}  // namespace azure_pricing

#endif  // REF_PRICING_SELECTION_H_
