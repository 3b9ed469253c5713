// The zone-drift report (docs/live-check.md, "Zone drift"): what the price list of a live or
// recorded run says against the bundled billing-zone mapping (ref/zones). It reads the rows of
// CLI outputs and answers four questions: which ARM regions the price list bills that the
// mapping lacks, which mapped regions the price list no longer has, which zone names the mapping
// assigns that the price list never uses, and whether the published Global VNet peering rows
// still support each nearest_region estimate. The mapping is never changed here: a person reads
// the report and updates the reference data (ref/zones/PROVENANCE.md).
#ifndef CONFORMANCE_LIVE_ZONE_DRIFT_H_
#define CONFORMANCE_LIVE_ZONE_DRIFT_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ref/status/status.h"
#include "ref/zones/zones.h"

namespace azure_pricing::conformance::live {

// Program errors (ProgramError()): a recording directory that cannot be read.
inline constexpr Reason kRecordingNotADirectory = "recording_not_a_directory";
inline constexpr Reason kRecordingWithoutCliOutputs = "recording_without_cli_outputs";

// A region-wide network listing names network-family rows under at least this many distinct ARM
// regions. It is the live check's own bar for `network-listing` (min_regions in checks.json), so
// a listing that passes the live check is judged; a region-scoped query names one ARM region, and
// all of the canonical list's region-scoped queries together name three, far below it.
inline constexpr size_t kListingMinRegions = 20;

// The exit statuses of //tools:zone_drift, decided by DriftExitStatus.
inline constexpr int kExitUpToDate = 0;
inline constexpr int kExitNeedsUpdate = 1;
inline constexpr int kExitNothingJudged = 2;

// One CLI stdout: `name` is how the report names it (a file name), `text` its bytes.
struct CliOutput {
  std::string name;
  std::string text;
};

struct DriftOptions {
  size_t listing_min_regions = kListingMinRegions;
};

enum class SkipReason {
  kNotJson,         // the bytes are not JSON
  kNotSuccess,      // an envelope whose status is not 200 or whose message is not "Success"
  kNoPriceList,     // a success envelope without results.prices as an array
};
std::string_view SkipReasonName(SkipReason reason);  // "not_json", "not_success", ...

struct SkippedOutput {
  std::string name;
  SkipReason reason;
  std::optional<long long> status;  // the envelope's status, when it had a numeric one
};

// Per zone family: the zone names the mapping assigns and which of them the input used.
struct FamilyZoneNames {
  zones::ZoneFamily family;
  bool judged = false;                 // the input held zone rows of this family
  std::vector<std::string> seen;       // zone names of this family's zone rows (any location)
  std::vector<std::string> never_seen;  // assigned by the mapping, not seen; empty unless judged
};

// A network zone's Global VNet peering Inter-Region Egress price, learnt from its
// published_region regions.
struct ZonePrice {
  std::string zone;
  std::vector<double> prices;        // the distinct prices its contributing regions showed
  std::vector<std::string> regions;  // the published_region regions that contributed
  bool learnable() const { return prices.size() == 1; }
};

enum class Evidence { kAgrees, kSaysZone, kAmbiguous, kNoPublishedRow };
std::string_view EvidenceName(Evidence evidence);  // "agrees", "says_zone", ...

// What the published peering rows under one ARM region say about its mapped network zone.
struct RegionEvidence {
  std::string region;
  std::string basis;  // nearest_region | published_region
  std::string mapped_zone;
  std::string reference_region;
  Evidence evidence = Evidence::kNoPublishedRow;
  std::vector<double> prices;               // the distinct prices of the region's rows
  std::vector<std::string> matching_zones;  // learnt zones whose price is the region's
  std::string says_zone;                    // kSaysZone only
};

// Why the mapping needs an update, in the order DriftReport checks them.
enum class UpdateCause {
  kMissingFromMapping,
  kAbsentUpstream,
  kNearestRegionSaysZone,
  kPublishedRegionSaysZone,
};
std::string_view UpdateCauseName(UpdateCause cause);

struct DriftReport {
  size_t outputs_read = 0;  // success envelopes
  std::vector<SkippedOutput> skipped;
  size_t rows_read = 0;
  size_t zone_family_rows = 0;  // rows of the services the mapping covers: the usable rows
  std::vector<std::string> regions_seen;  // ARM regions of zone-family rows, lower case, sorted
  std::vector<std::string> missing_from_mapping;
  size_t listing_min_regions = kListingMinRegions;
  size_t network_regions_seen = 0;  // distinct ARM regions with a network-family row
  bool absent_judged = false;
  std::vector<std::string> absent_upstream;  // public mapped regions without a network row
  std::vector<FamilyZoneNames> zone_names;   // network, edge, dns
  std::vector<ZonePrice> zone_prices;        // every network zone the mapping assigns
  std::vector<RegionEvidence> nearest_region;   // every nearest_region region of the mapping
  std::vector<RegionEvidence> published_drift;  // published_region regions that say another zone
  std::vector<UpdateCause> update_causes;

  bool needs_update() const { return !update_causes.empty(); }
  bool judged() const { return zone_family_rows > 0; }
};

DriftReport BuildDriftReport(const std::vector<CliOutput>& outputs,
                             const zones::ZoneTable& table, const DriftOptions& options = {});

// kExitNeedsUpdate when the report needs an update, else kExitNothingJudged without usable rows,
// else kExitUpToDate.
int DriftExitStatus(const DriftReport& report);

// The report for a person: fixed-width sections, one line per finding.
std::string FormatDriftTable(const DriftReport& report);
// The report as one JSON object; its shape is documented in zone_drift.cc beside the writer.
std::string FormatDriftJson(const DriftReport& report);

// The recorder's layout: every DIR/cli/*.json, sorted by name.
StatusOr<std::vector<std::string>> RecordingCliFiles(const std::string& dir);

}  // namespace azure_pricing::conformance::live

#endif  // CONFORMANCE_LIVE_ZONE_DRIFT_H_
