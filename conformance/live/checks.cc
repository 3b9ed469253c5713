#include "conformance/live/checks.h"

#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "conformance/json_schema/json_schema.h"
#include "ref/base/files.h"
#include "ref/base/runfiles.h"
#include "ref/status/status_macros.h"

namespace azure_pricing::conformance::live {
namespace {

using Json = nlohmann::ordered_json;

Status Malformed(const std::string& where) {
  // Where, never the text: a path into the document the operator wrote.
  return ProgramError(kMalformedChecks, "the live check list does not follow checks.schema.json at " + where);
}

Expectation ReadExpectation(const Json& e) {
  Expectation x;
  x.outcome = e.at("outcome").get<std::string>();
  x.reason = e.value("reason", "");
  if (e.contains("min_rows")) x.min_rows = e.at("min_rows").get<int>();
  if (e.contains("min_regions")) x.min_regions = e.at("min_regions").get<int>();
  x.savings_plan = e.value("savings_plan", "");
  x.price_type = e.value("price_type", "");
  x.reservation_term_all = e.value("reservation_term", "") == "all";
  x.empty_arm_sku_all = e.value("empty_arm_sku", "") == "all";
  x.arm_sku_some_named = e.value("empty_arm_sku", "") == "not_all";
  if (e.contains("matched_by")) x.matched_by = e.at("matched_by").get<std::vector<std::string>>();
  x.zone_family = e.value("zone_family", "");
  x.zone_rows = e.value("zone_rows", "");
  if (e.contains("upstream_status")) x.upstream_status = e.at("upstream_status").get<int>();
  x.ceiling = e.value("ceiling", false);
  return x;
}

}  // namespace

StatusOr<std::string> BundledChecksJson() {
  StatusOr<std::string> text = base::ReadFile(base::Runfile("conformance/live/checks.json"));
  if (!text.ok()) {
    return ProgramError(kChecksMissing, "checks.json is not in the runfiles");
  }
  return text;
}

StatusOr<std::vector<LiveCheck>> LoadChecks(const std::string& checks_json) {
  const StatusOr<std::string> schema_text =
      base::ReadFile(base::Runfile("conformance/live/checks.schema.json"));
  if (!schema_text.ok()) {
    return ProgramError(kChecksMissing, "checks.schema.json is not in the runfiles");
  }
  const Json doc = Json::parse(checks_json, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Malformed("/ (not JSON)");
  const Json schema = Json::parse(*schema_text, nullptr, false);
  const std::vector<SchemaProblem> problems = ValidateAgainstSchema(schema, doc);
  if (!problems.empty()) return Malformed(PathText(problems.front().path));
  std::vector<LiveCheck> checks;
  std::set<std::string> ids;
  for (const Json& c : doc.at("checks")) {
    LiveCheck check{.id = c.at("id").get<std::string>(),
                    .what = c.at("what").get<std::string>(),
                    .arguments = c.at("arguments").dump(),
                    .requirements = c.at("requirements").get<std::vector<std::string>>(),
                    .expect = ReadExpectation(c.at("expect")),
                    .unverified = c.value("unverified", "")};
    if (!ids.insert(check.id).second) return Malformed("/checks (a repeated id)");
    checks.push_back(std::move(check));
  }
  return checks;
}

StatusOr<std::vector<LiveCheck>> LoadBundledChecks() {
  ASSIGN_OR_RETURN(const std::string text, BundledChecksJson());
  return LoadChecks(text);
}

}  // namespace azure_pricing::conformance::live
