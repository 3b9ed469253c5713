// The zone-drift report against a small mapping written here: every answer below follows from
// the rows and the table each test writes, not from running the report.
#include "conformance/live/zone_drift.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "conformance/citations/cites.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::live {
namespace {

CITES("ZONE-003", "ZONE-007", "ZONE-009");

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Json = nlohmann::ordered_json;

// Zone 1: alpha1, alpha2 published, neara nearest. Zone 2: beta1, beta2 published, nearb nearest.
// Zone 3: gamma1 published, nearc nearest. govva: US Government.
constexpr char kTable[] =
    "region,display_name,geography_group,cloud,network_zone,network_basis,"
    "network_reference_region,edge_zone,edge_basis,dns_zone,dns_basis,notes\n"
    "alpha1,Alpha 1,G,public,Zone 1,published_region,alpha1,Zone 1,geography,Zone 1,"
    "uniform_commercial,\n"
    "alpha2,Alpha 2,G,public,Zone 1,published_region,alpha2,Zone 1,geography,Zone 1,"
    "uniform_commercial,\n"
    "beta1,Beta 1,G,public,Zone 2,published_region,beta1,Zone 2,geography,Zone 1,"
    "uniform_commercial,\n"
    "beta2,Beta 2,G,public,Zone 2,published_region,beta2,Zone 2,geography,Zone 1,"
    "uniform_commercial,\n"
    "gamma1,Gamma 1,G,public,Zone 3,published_region,gamma1,Zone 3,geography,Zone 1,"
    "uniform_commercial,\n"
    "neara,Near A,G,public,Zone 1,nearest_region,alpha1,Zone 1,geography,Zone 1,"
    "uniform_commercial,\n"
    "nearb,Near B,G,public,Zone 2,nearest_region,beta1,Zone 2,geography,Zone 1,"
    "uniform_commercial,\n"
    "nearc,Near C,G,public,Zone 3,nearest_region,gamma1,Zone 3,geography,Zone 1,"
    "uniform_commercial,\n"
    "govva,Gov VA,USG,usgov,US Gov Zone 1,published_region,govva,US Gov Zone 1,geography,"
    "US Gov Zone 1,published_region,\n";

const zones::ZoneTable& Table() {
  static const zones::ZoneTable* table = [] {
    StatusOr<zones::ZoneTable> parsed = zones::ZoneTable::Parse(kTable);
    EXPECT_THAT(parsed, IsOk());
    return new zones::ZoneTable(std::move(parsed).value());
  }();
  return *table;
}

Json Row(const std::string& service, const std::string& product, const std::string& meter,
         const std::string& region, double price) {
  return Json{{"armSkuName", ""},      {"skuName", "Standard"},  {"productName", product},
              {"serviceName", service}, {"serviceFamily", "Networking"},
              {"region", region},       {"location", region},     {"retailPrice", price},
              {"unitPrice", price},     {"currencyCode", "USD"},  {"unitOfMeasure", "1 GB"},
              {"priceType", "Consumption"}, {"meterName", meter}, {"isPrimaryMeterRegion", true}};
}

Json Egress(const std::string& region, double price) {
  return Row("Virtual Network", "Global Virtual Network Peering", "Inter-Region Egress", region,
             price);
}

CliOutput Envelope(const std::string& name, const std::vector<Json>& rows) {
  const Json doc{{"status", 200},
                 {"message", "Success"},
                 {"results", {{"prices", rows}}},
                 {"duration", 12}};
  return CliOutput{name, doc.dump(2)};
}

// Zone 1 at 0.035, Zone 2 at 0.09, Zone 3 at 0.16: every published region agrees with its zone.
std::vector<Json> PublishedRows() {
  return {Egress("alpha1", 0.035), Egress("alpha2", 0.035), Egress("beta1", 0.09),
          Egress("beta2", 0.09), Egress("gamma1", 0.16)};
}

DriftReport Report(const std::vector<CliOutput>& outputs, size_t min_regions = 3) {
  return BuildDriftReport(outputs, Table(), DriftOptions{min_regions});
}

const RegionEvidence& Nearest(const DriftReport& r, const std::string& region) {
  for (const RegionEvidence& e : r.nearest_region) {
    if (e.region == region) return e;
  }
  ADD_FAILURE() << "no evidence for " << region;
  static const RegionEvidence none;
  return none;
}

TEST(ZoneDriftTest, AllRegionsAgreeSoTheMappingIsUpToDate) {
  std::vector<Json> rows = PublishedRows();
  rows.push_back(Egress("neara", 0.035));
  rows.push_back(Egress("nearb", 0.09));
  rows.push_back(Egress("nearc", 0.16));
  const DriftReport r = Report({Envelope("listing.json", rows)});
  EXPECT_TRUE(r.absent_judged);
  EXPECT_THAT(r.absent_upstream, IsEmpty());
  EXPECT_THAT(r.missing_from_mapping, IsEmpty());
  EXPECT_EQ(Nearest(r, "neara").evidence, Evidence::kAgrees);
  EXPECT_EQ(Nearest(r, "nearb").evidence, Evidence::kAgrees);
  EXPECT_EQ(Nearest(r, "nearc").evidence, Evidence::kAgrees);
  EXPECT_THAT(r.published_drift, IsEmpty());
  EXPECT_FALSE(r.needs_update());
  EXPECT_EQ(DriftExitStatus(r), kExitUpToDate);
}

TEST(ZoneDriftTest, ARegionMissingFromTheMappingNeedsAnUpdate) {
  // attatlanta1 is a VM edge zone: a Virtual Machines row there is not a billing region.
  const DriftReport r = Report({Envelope(
      "x.json", {Egress("zetanorth", 0.035), Egress("ALPHA1", 0.035),
                 Row("Virtual Machines", "Virtual Machines Dsv5 Series", "D2s v5", "attatlanta1",
                     0.1)})});
  EXPECT_THAT(r.regions_seen, ElementsAre("alpha1", "zetanorth"));
  EXPECT_THAT(r.missing_from_mapping, ElementsAre("zetanorth"));
  EXPECT_THAT(r.update_causes, ElementsAre(UpdateCause::kMissingFromMapping));
  EXPECT_EQ(DriftExitStatus(r), kExitNeedsUpdate);
}

TEST(ZoneDriftTest, RowsOfOtherServicesAreNotUsable) {
  const DriftReport r = Report({Envelope(
      "vm.json", {Row("Virtual Machines", "Virtual Machines Dsv5 Series", "D2s v5", "attatlanta1",
                      0.1)})});
  EXPECT_EQ(r.rows_read, 1u);
  EXPECT_EQ(r.zone_family_rows, 0u);
  EXPECT_THAT(r.regions_seen, IsEmpty());
  EXPECT_FALSE(r.judged());
  EXPECT_EQ(DriftExitStatus(r), kExitNothingJudged);
}

TEST(ZoneDriftTest, AListingJudgesMappedPublicRegionsAbsentUpstream) {
  std::vector<Json> rows = PublishedRows();
  rows.push_back(Egress("neara", 0.035));
  rows.push_back(Egress("nearb", 0.09));
  // nearc has no row; govva neither, but sovereign regions are not judged.
  const DriftReport r = Report({Envelope("listing.json", rows)});
  EXPECT_TRUE(r.absent_judged);
  EXPECT_EQ(r.network_regions_seen, 7u);
  EXPECT_THAT(r.absent_upstream, ElementsAre("nearc"));
  EXPECT_EQ(Nearest(r, "nearc").evidence, Evidence::kNoPublishedRow);
  EXPECT_THAT(r.update_causes, ElementsAre(UpdateCause::kAbsentUpstream));
  EXPECT_EQ(DriftExitStatus(r), kExitNeedsUpdate);
}

TEST(ZoneDriftTest, WithoutAListingAbsenceIsNotJudged) {
  const DriftReport r = Report({Envelope("eu.json", {Egress("alpha1", 0.035),
                                                     Egress("alpha2", 0.035)})});
  EXPECT_FALSE(r.absent_judged);
  EXPECT_EQ(r.network_regions_seen, 2u);
  EXPECT_THAT(r.absent_upstream, IsEmpty());
  EXPECT_EQ(DriftExitStatus(r), kExitUpToDate);
}

TEST(ZoneDriftTest, TheDefaultListingBarIsTwentyRegions) {
  std::vector<Json> rows;
  for (int i = 0; i < 19; ++i) rows.push_back(Egress("alpha1x" + std::to_string(i), 0.035));
  const DriftReport below = BuildDriftReport({Envelope("a.json", rows)}, Table());
  EXPECT_FALSE(below.absent_judged);
  rows.push_back(Egress("alpha1x19", 0.035));
  const DriftReport at = BuildDriftReport({Envelope("a.json", rows)}, Table());
  EXPECT_TRUE(at.absent_judged);
  EXPECT_EQ(at.listing_min_regions, 20u);
  EXPECT_EQ(at.absent_upstream.size(), 8u);  // every public region of the table
}

TEST(ZoneDriftTest, ZoneNamesNeverSeenAreJudgedPerFamilyWithZoneRows) {
  const DriftReport r = Report({Envelope(
      "afd.json", {Row("Azure Front Door Service", "Azure Front Door Service", "Data Transfer",
                       "Zone 1", 0.08),
                   // Standard/Premium's zones are not the edge zones: its Zone 7 is no edge zone.
                   Row("Azure Front Door Service", "Azure Front Door", "Data Transfer", "Zone 7",
                       0.11),
                   Row("Content Delivery Network", "CDN", "Data Transfer", "Zone 2", 0.1),
                   Row("Azure DNS", "Azure DNS", "Zone", "alpha1", 0.5)})});
  ASSERT_EQ(r.zone_names.size(), 3u);
  EXPECT_FALSE(r.zone_names[0].judged);  // network: no zone rows
  EXPECT_THAT(r.zone_names[0].never_seen, IsEmpty());
  EXPECT_TRUE(r.zone_names[1].judged);  // edge
  EXPECT_THAT(r.zone_names[1].seen, ElementsAre("Zone 1", "Zone 2"));
  EXPECT_THAT(r.zone_names[1].never_seen, ElementsAre("US Gov Zone 1", "Zone 3"));
  EXPECT_FALSE(r.zone_names[2].judged);  // dns: a regional row is not a zone row
  // Zone names alone do not decide an update.
  EXPECT_EQ(DriftExitStatus(r), kExitUpToDate);
}

TEST(ZoneDriftTest, NearestRegionEvidenceAgreesSaysAnotherZoneOrMatchesNone) {
  std::vector<Json> rows = PublishedRows();
  rows.push_back(Egress("neara", 0.035));
  // Intra-region peering is another product and meter: it must not count as evidence.
  rows.push_back(Row("Virtual Network", "Virtual Network Peering", "Intra-Region Egress", "neara",
                     0.01));
  rows.push_back(Egress("nearb", 0.035));
  rows.push_back(Egress("nearc", 0.5));
  const DriftReport r = Report({Envelope("listing.json", rows)});
  EXPECT_EQ(Nearest(r, "neara").evidence, Evidence::kAgrees);
  EXPECT_EQ(Nearest(r, "nearb").evidence, Evidence::kSaysZone);
  EXPECT_EQ(Nearest(r, "nearb").says_zone, "Zone 1");
  EXPECT_EQ(Nearest(r, "nearb").reference_region, "beta1");
  EXPECT_EQ(Nearest(r, "nearc").evidence, Evidence::kAmbiguous);
  EXPECT_THAT(Nearest(r, "nearc").matching_zones, IsEmpty());
  EXPECT_THAT(r.update_causes, ElementsAre(UpdateCause::kNearestRegionSaysZone));
  EXPECT_EQ(DriftExitStatus(r), kExitNeedsUpdate);
}

TEST(ZoneDriftTest, APriceSeveralZonesShareIsAmbiguous) {
  // gamma1 costs what Zone 1 costs, so nearb's price matches Zone 1 and Zone 3.
  const DriftReport r = Report({Envelope(
      "l.json", {Egress("alpha1", 0.035), Egress("beta1", 0.09), Egress("gamma1", 0.035),
                 Egress("nearb", 0.035)})},
      30);
  EXPECT_EQ(Nearest(r, "nearb").evidence, Evidence::kAmbiguous);
  EXPECT_THAT(Nearest(r, "nearb").matching_zones, ElementsAre("Zone 1", "Zone 3"));
  EXPECT_FALSE(r.needs_update());
}

TEST(ZoneDriftTest, AnUnlearnableMappedZoneLeavesTheEvidenceAmbiguous) {
  // Zone 1's published regions disagree; neara's price is Zone 2's, but Zone 1 might cost it too.
  const DriftReport r = Report({Envelope(
      "l.json", {Egress("alpha1", 0.035), Egress("alpha2", 0.04), Egress("beta1", 0.09),
                 Egress("neara", 0.09)})});
  ASSERT_FALSE(r.zone_prices.empty());
  EXPECT_EQ(r.zone_prices[0].zone, "Zone 1");
  EXPECT_FALSE(r.zone_prices[0].learnable());
  EXPECT_THAT(r.zone_prices[0].prices, ElementsAre(0.035, 0.04));
  EXPECT_EQ(Nearest(r, "neara").evidence, Evidence::kAmbiguous);
  EXPECT_THAT(Nearest(r, "neara").matching_zones, ElementsAre("Zone 2"));
  EXPECT_THAT(r.published_drift, IsEmpty());
}

TEST(ZoneDriftTest, SeveralPricesUnderOneRegionAreAmbiguous) {
  std::vector<Json> rows = PublishedRows();
  rows.push_back(Egress("neara", 0.035));
  rows.push_back(Egress("neara", 0.09));
  const DriftReport r = Report({Envelope("l.json", rows)});
  EXPECT_EQ(Nearest(r, "neara").evidence, Evidence::kAmbiguous);
  EXPECT_THAT(Nearest(r, "neara").prices, ElementsAre(0.035, 0.09));
}

TEST(ZoneDriftTest, APublishedRegionBilledInAnotherZoneIsDrift) {
  // alpha2 is billed at Zone 3's price; Zone 1 is still learnt from alpha1.
  const DriftReport r = Report({Envelope(
      "l.json", {Egress("alpha1", 0.035), Egress("alpha2", 0.16), Egress("beta1", 0.09),
                 Egress("gamma1", 0.16), Egress("neara", 0.035)})},
      30);
  ASSERT_EQ(r.published_drift.size(), 1u);
  EXPECT_EQ(r.published_drift[0].region, "alpha2");
  EXPECT_EQ(r.published_drift[0].basis, "published_region");
  EXPECT_EQ(r.published_drift[0].says_zone, "Zone 3");
  EXPECT_EQ(Nearest(r, "neara").evidence, Evidence::kAgrees);
  EXPECT_THAT(r.zone_prices[0].regions, ElementsAre("alpha1"));
  EXPECT_THAT(r.update_causes, ElementsAre(UpdateCause::kPublishedRegionSaysZone));
  EXPECT_EQ(DriftExitStatus(r), kExitNeedsUpdate);
}

TEST(ZoneDriftTest, EnvelopesThatAreNotSuccessesAreSkippedAndNamed) {
  const DriftReport r = Report({
      CliOutput{"failed.json", R"({"status":500,"message":"Service request failed.","results":{}})"},
      CliOutput{"garbage.json", "not json"},
      CliOutput{"no-prices.json", R"({"status":200,"message":"Success","results":{}})"},
      CliOutput{"odd.json", R"({"status":200,"message":"Failure","results":{"prices":[]}})"},
      Envelope("good.json", {Egress("alpha1", 0.035)}),
  });
  EXPECT_EQ(r.outputs_read, 1u);
  EXPECT_EQ(r.rows_read, 1u);
  ASSERT_EQ(r.skipped.size(), 4u);
  EXPECT_EQ(r.skipped[0].name, "failed.json");
  EXPECT_EQ(r.skipped[0].reason, SkipReason::kNotSuccess);
  EXPECT_EQ(r.skipped[0].status, 500);
  EXPECT_EQ(r.skipped[1].name, "garbage.json");
  EXPECT_EQ(r.skipped[1].reason, SkipReason::kNotJson);
  EXPECT_EQ(r.skipped[2].reason, SkipReason::kNoPriceList);
  EXPECT_EQ(r.skipped[3].reason, SkipReason::kNotSuccess);
  EXPECT_THAT(FormatDriftTable(r), HasSubstr("skipped failed.json: not_success (status 500)"));
}

TEST(ZoneDriftTest, NoUsableRowsJudgesNothing) {
  const DriftReport r = Report({Envelope("empty.json", {}),
                                CliOutput{"failed.json", R"({"status":500,"message":"x"})"}});
  EXPECT_FALSE(r.judged());
  EXPECT_EQ(DriftExitStatus(r), kExitNothingJudged);
  EXPECT_THAT(FormatDriftTable(r), HasSubstr("nothing could be judged"));
}

TEST(ZoneDriftTest, TheJsonHasItsDocumentedShape) {
  std::vector<Json> rows = PublishedRows();
  rows.push_back(Egress("nearb", 0.035));
  const Json doc = Json::parse(FormatDriftJson(Report(
      {Envelope("listing.json", rows), CliOutput{"bad.json", R"({"status":400})"}}, 30)));
  std::vector<std::string> keys;
  for (const auto& item : doc.items()) keys.push_back(item.key());
  EXPECT_THAT(keys, ElementsAre("needs_update", "judged", "update_causes", "inputs",
                                "regions_seen", "missing_from_mapping", "absent_upstream",
                                "zone_names", "zone_prices", "nearest_region",
                                "published_drift"));
  EXPECT_EQ(doc["needs_update"], true);
  EXPECT_EQ(doc["update_causes"], Json::array({"nearest_region_says_zone"}));
  EXPECT_EQ(doc["inputs"]["skipped"][0],
            (Json{{"file", "bad.json"}, {"reason", "not_success"}, {"status", 400}}));
  EXPECT_EQ(doc["absent_upstream"],
            (Json{{"judged", false}, {"network_regions_seen", 6}, {"min_regions", 30},
                  {"regions", Json::array()}}));
  EXPECT_EQ(doc["zone_names"][1]["family"], "edge");
  EXPECT_EQ(doc["zone_prices"][0],
            (Json{{"zone", "Zone 1"}, {"learnable", true}, {"price", 0.035},
                  {"prices", {0.035}}, {"regions", {"alpha1", "alpha2"}}}));
  EXPECT_EQ(doc["nearest_region"][1],
            (Json{{"region", "nearb"}, {"basis", "nearest_region"}, {"mapped_zone", "Zone 2"},
                  {"reference_region", "beta1"}, {"evidence", "says_zone"}, {"price", 0.035},
                  {"prices", {0.035}}, {"matching_zones", {"Zone 1"}}, {"says_zone", "Zone 1"}}));
  EXPECT_EQ(doc["nearest_region"][0]["evidence"], "no_published_row");
  EXPECT_EQ(doc["nearest_region"][0]["price"], nullptr);
}

TEST(ZoneDriftTest, TheTableNamesEachFinding) {
  std::vector<Json> rows = PublishedRows();
  rows.push_back(Egress("nearb", 0.035));
  rows.push_back(Egress("zetanorth", 0.035));
  const std::string table = FormatDriftTable(Report({Envelope("l.json", rows)}, 30));
  EXPECT_THAT(table, HasSubstr("regions missing from the mapping: zetanorth"));
  EXPECT_THAT(table, HasSubstr("absent upstream: not judged (network rows under 7 ARM regions; "
                               "a region-wide listing has at least 30)"));
  EXPECT_THAT(table, HasSubstr("nearb                Zone 2         beta1                "
                               "says Zone 1 (drift)"));
  EXPECT_THAT(table, HasSubstr("the mapping needs an update: missing_from_mapping, "
                               "nearest_region_says_zone"));
}

TEST(ZoneDriftTest, TheBundledMappingWithoutRowsJudgesNothing) {
  const DriftReport r = BuildDriftReport({}, zones::ZoneTable::Bundled());
  EXPECT_EQ(DriftExitStatus(r), kExitNothingJudged);
  EXPECT_FALSE(r.nearest_region.empty());
  for (const RegionEvidence& e : r.nearest_region) {
    EXPECT_EQ(e.evidence, Evidence::kNoPublishedRow) << e.region;
  }
}

std::string TempDir(const std::string& name) {
  const char* base = std::getenv("TEST_TMPDIR");
  const std::filesystem::path dir =
      std::filesystem::path(base != nullptr ? base : "/tmp") / ("zone_drift_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

TEST(RecordingCliFilesTest, ListsTheJsonFilesOfCliSorted) {
  const std::string dir = TempDir("recording");
  std::filesystem::create_directories(dir + "/cli");
  for (const char* f : {"b.json", "a.json", "notes.txt"}) std::ofstream(dir + "/cli/" + f) << "{}";
  const StatusOr<std::vector<std::string>> files = RecordingCliFiles(dir);
  ASSERT_THAT(files, IsOk());
  EXPECT_THAT(*files, ElementsAre(dir + "/cli/a.json", dir + "/cli/b.json"));
}

TEST(RecordingCliFilesTest, NamesAMissingDirectoryAndOneWithoutCliOutputs) {
  const std::string dir = TempDir("empty");
  EXPECT_THAT(RecordingCliFiles(dir + "/absent"),
              ProgramErrorIs(kRecordingNotADirectory));
  EXPECT_THAT(RecordingCliFiles(dir), ProgramErrorIs(kRecordingWithoutCliOutputs));
  std::filesystem::create_directories(dir + "/cli");
  std::ofstream(dir + "/cli/readme.txt") << "x";
  EXPECT_THAT(RecordingCliFiles(dir), ProgramErrorIs(kRecordingWithoutCliOutputs));
}

}  // namespace
}  // namespace azure_pricing::conformance::live
