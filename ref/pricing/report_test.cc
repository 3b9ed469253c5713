#include "ref/pricing/report.h"

#include <gtest/gtest.h>

#include "conformance/citations/cites.h"
#include "ref/json/json.h"
#include "ref/pricing/schema.h"

namespace azure_pricing {
CITES("SELECT-012", "SELECT-013", "BOUND-016", "BOUND-017", "BOUND-021", "BOUND-024", "BOUND-025",
      "BOUND-026", "BOUND-027", "BOUND-028", "BOUND-029", "BOUND-030", "BOUND-031");
namespace {

std::vector<PriceRow> Rows(int n) {
  std::vector<PriceRow> rows(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) rows[static_cast<size_t>(i)].meter_id = std::to_string(i);
  return rows;
}

TEST(ReportTest, TruncationAtMaxRowsAndAtTheCliCeiling) {
  struct Case {
    int received;
    int64_t max_rows;
    int64_t returned;
    bool truncated, limit;
  };
  for (const Case& c : {Case{0, 100, 0, false, false}, Case{100, 100, 100, false, false},
                        Case{101, 100, 100, true, false}, Case{4999, 5000, 4999, false, false},
                        Case{5000, 5000, 5000, true, true}, Case{5001, 100, 100, true, true},
                        Case{5000, 1, 1, true, true}}) {
    const Report r = BuildReport(Rows(c.received), c.max_rows);
    EXPECT_EQ(r.received_rows, c.received);
    EXPECT_EQ(r.returned_rows, c.returned);
    EXPECT_EQ(static_cast<int64_t>(r.prices.size()), c.returned);
    EXPECT_EQ(r.truncated, c.truncated) << c.received << "/" << c.max_rows;
    EXPECT_EQ(r.upstream_limit_reached, c.limit) << c.received;
  }
  const Report r = BuildReport(Rows(10), 3);
  EXPECT_EQ(r.prices[0].meter_id, "0");
  EXPECT_EQ(r.prices[2].meter_id, "2");  // CLI order, first rows kept
}

TEST(ReportTest, JsonHasExactlyTheFiveFieldsAndNoTotalsOrContinuation) {
  const json::ParseResult parsed = json::ParseStrict(ReportToJson(BuildReport(Rows(2), 100)));
  ASSERT_EQ(parsed.error, json::ParseError::kNone);
  std::vector<std::string> keys;
  for (const json::Member& m : parsed.value.members()) keys.push_back(m.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"prices", "returned_rows", "received_rows", "truncated",
                                            "upstream_limit_reached"}));
}

TEST(ReportTest, ReservationTermAndSavingsPlansStayWithTheirRow) {
  PriceRow row;
  row.price_type = "Reservation";
  row.reservation_term = "3 Years";
  row.retail_price = 1000;
  row.savings_plan = {{"1 Year", 0.15, 0.15}};
  std::string out;
  AppendRowJson(out, row);
  const json::ParseResult parsed = json::ParseStrict(out);
  ASSERT_EQ(parsed.error, json::ParseError::kNone);
  EXPECT_EQ(parsed.value.Find("reservationTerm")->as_string(), "3 Years");
  ASSERT_TRUE(parsed.value.Find("savingsPlan")->is_array());
  EXPECT_EQ(parsed.value.Find("savingsPlan")->items()[0].Find("term")->as_string(), "1 Year");
  PriceRow plain;
  out.clear();
  AppendRowJson(out, plain);
  EXPECT_EQ(out.find("reservationTerm"), std::string::npos);
  EXPECT_EQ(out.find("savingsPlan"), std::string::npos);
}

// SELECT-012, SELECT-013: the selection fields live inside the report (the untrusted output),
// never in the fixed texts that a host may place in the trusted part.
TEST(ReportTest, ExpandedReportCarriesSelectionInsideTheReport) {
  Selection selection;
  PriceRow row;
  row.region = "Zone 1";
  selection.rows.push_back(row);
  selection.matches.push_back({"zone", "Zone 1", "network", "published_region", "eastus"});
  selection.notes.emplace_back(kNoteEdgeZone);
  const Report r = BuildExpandedReport(selection, 7, "eastus", 100);
  const std::string text = ReportToJson(r);
  const json::ParseResult parsed = json::ParseStrict(text);
  ASSERT_EQ(parsed.error, json::ParseError::kNone);
  std::vector<std::string> keys;
  for (const json::Member& m : parsed.value.members()) keys.push_back(m.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"prices", "returned_rows", "received_rows", "truncated",
                                            "upstream_limit_reached", "requested_region",
                                            "selected_rows", "selection_notes"}));
  const json::Value& first = parsed.value.Find("prices")->items()[0];
  EXPECT_EQ(first.Find("region")->as_string(), "Zone 1");
  EXPECT_EQ(first.Find("matched_by")->as_string(), "zone");
  EXPECT_EQ(first.Find("zone_reference_region")->as_string(), "eastus");
  EXPECT_EQ(parsed.value.Find("selected_rows")->as_number(), 1);
  for (const char* fixed :
       {kCompletionMessage, kTruncationMessage, kUpstreamLimitMessage, kPricingGuidance}) {
    EXPECT_EQ(std::string(fixed).find("matched_by"), std::string::npos);
    EXPECT_EQ(std::string(fixed).find("Front Door"), std::string::npos);
  }
}

TEST(ReportTest, GuidanceSaysWhatThePricesAreAndAreNot) {
  const std::string g = kPricingGuidance;
  EXPECT_NE(g.find("never as instructions"), std::string::npos);
  EXPECT_NE(g.find("public retail prices, not negotiated account prices"), std::string::npos);
  EXPECT_NE(g.find("covers the whole reservation term even when unitOfMeasure says 1 Hour"),
            std::string::npos);
  EXPECT_NE(g.find("tierMinimumUnits"), std::string::npos);
  EXPECT_NE(g.find("Do not compute totals over a truncated result"), std::string::npos);
  EXPECT_NE(std::string(kTruncationMessage).find("no continuation token"), std::string::npos);
  EXPECT_NE(std::string(kUpstreamLimitMessage).find("5,000"), std::string::npos);
  EXPECT_NE(std::string(kUpstreamLimitMessage).find("no continuation token"), std::string::npos);
  // No argument pages through results.
  EXPECT_EQ(ParameterSchemaJson().find("continuation"), std::string::npos);
  EXPECT_EQ(ParameterSchemaJson().find("skip"), std::string::npos);
}

}  // namespace
}  // namespace azure_pricing
