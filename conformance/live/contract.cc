#include "conformance/live/contract.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <utility>

#include "ref/zones/zones.h"

namespace azure_pricing::conformance::live {
namespace {

using Json = nlohmann::ordered_json;

constexpr int kCeiling = 5000;
constexpr int kPageSize = 1000;

Finding Pass(std::string name, std::string detail) {
  return {.name = std::move(name), .passed = true, .detail = std::move(detail)};
}
Finding Fail(std::string name, std::string detail) {
  return {.name = std::move(name), .passed = false, .detail = std::move(detail)};
}

// The row keys of a success envelope, in the order the CLI writes them; the optional ones may
// be absent (reservationTerm, savingsPlan).
struct RowKey {
  const char* name;
  Json::value_t type;
  bool optional;
};
constexpr RowKey kRowKeys[] = {
    {"armSkuName", Json::value_t::string, false},
    {"skuName", Json::value_t::string, false},
    {"productName", Json::value_t::string, false},
    {"serviceName", Json::value_t::string, false},
    {"serviceFamily", Json::value_t::string, false},
    {"region", Json::value_t::string, false},
    {"location", Json::value_t::string, false},
    {"retailPrice", Json::value_t::number_float, false},
    {"unitPrice", Json::value_t::number_float, false},
    {"currencyCode", Json::value_t::string, false},
    {"unitOfMeasure", Json::value_t::string, false},
    {"priceType", Json::value_t::string, false},
    {"reservationTerm", Json::value_t::string, true},
    {"effectiveStartDate", Json::value_t::string, false},
    {"meterName", Json::value_t::string, false},
    {"meterId", Json::value_t::string, false},
    {"isPrimaryMeterRegion", Json::value_t::boolean, false},
    {"savingsPlan", Json::value_t::array, true},
};

bool TypeMatches(const Json& v, Json::value_t want) {
  if (want == Json::value_t::number_float) return v.is_number();
  return v.type() == want;
}

// "" when the row follows the contract, else what is wrong (key names only).
std::string RowProblem(const Json& row) {
  if (!row.is_object()) return "is not an object";
  size_t k = 0;
  for (const auto& [key, value] : row.items()) {
    while (k < std::size(kRowKeys) && key != kRowKeys[k].name) {
      if (!kRowKeys[k].optional) return std::string("lacks ") + kRowKeys[k].name;
      ++k;
    }
    if (k == std::size(kRowKeys)) return "has key \"" + key + "\" out of order or unknown";
    if (!TypeMatches(value, kRowKeys[k].type)) return "has " + key + " of the wrong type";
    ++k;
  }
  for (; k < std::size(kRowKeys); ++k) {
    if (!kRowKeys[k].optional) return std::string("lacks ") + kRowKeys[k].name;
  }
  return "";
}

const Json* CliRows(const Json& envelope) {
  if (!envelope.is_object() || !envelope.contains("results")) return nullptr;
  const Json& results = envelope.at("results");
  if (!results.is_object() || !results.contains("prices") || !results.at("prices").is_array()) {
    return nullptr;
  }
  return &results.at("prices");
}

Finding JudgeEnvelope(const stack::StackExec& cli, const Json& envelope) {
  if (!cli.result.ok()) return Fail("envelope", "the CLI did not run to an exit status");
  if (!envelope.is_object()) return Fail("envelope", "the CLI's stdout is not one JSON object");
  for (const auto& [key, value] : envelope.items()) {
    if (key != "status" && key != "message" && key != "results" && key != "duration") {
      return Fail("envelope", "unknown top-level key \"" + key + "\"");
    }
  }
  if (!envelope.contains("status") || !envelope.at("status").is_number_integer() ||
      !envelope.contains("message") || !envelope.at("message").is_string() ||
      !envelope.contains("duration") || !envelope.at("duration").is_number()) {
    return Fail("envelope", "status, message or duration missing or of the wrong type");
  }
  const int status = envelope.at("status").get<int>();
  const int exit_code = cli.result->exit_code;
  if ((status == 200) != (exit_code == 0)) {
    return Fail("envelope", "status " + std::to_string(status) + " with exit code " +
                                std::to_string(exit_code));
  }
  if (status == 200 && (CliRows(envelope) == nullptr || !cli.result->stderr_bytes.empty())) {
    return Fail("envelope", "status 200 without results.prices, or with stderr output");
  }
  return Pass("envelope", "status " + std::to_string(status) + ", exit code " +
                              std::to_string(exit_code));
}

Finding JudgeRows(const Json& rows) {
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string problem = RowProblem(rows[i]);
    if (!problem.empty()) return Fail("row_keys", "row " + std::to_string(i) + " " + problem);
    if (rows[i].contains("savingsPlan")) {
      for (const Json& sp : rows[i].at("savingsPlan")) {
        if (!sp.is_object() || !sp.contains("term") || !sp.contains("unitPrice") ||
            !sp.contains("retailPrice")) {
          return Fail("row_keys", "row " + std::to_string(i) + " has a malformed savingsPlan item");
        }
      }
    }
  }
  return Pass("row_keys", std::to_string(rows.size()) + " rows with the contract's keys in order");
}

std::string PercentDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

// The query's parameters in order, names and values decoded.
std::vector<std::pair<std::string, std::string>> QueryParameters(const std::string& target) {
  std::vector<std::pair<std::string, std::string>> out;
  const size_t q = target.find('?');
  if (q == std::string::npos) return out;
  std::string_view rest = std::string_view(target).substr(q + 1);
  while (!rest.empty()) {
    const size_t amp = rest.find('&');
    const std::string_view part = rest.substr(0, amp);
    const size_t eq = part.find('=');
    out.emplace_back(PercentDecode(part.substr(0, eq)),
                     eq == std::string_view::npos ? "" : PercentDecode(part.substr(eq + 1)));
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
  }
  return out;
}

Finding JudgeFilterComposition(const std::vector<std::string>& argv,
                               const UpstreamExchange& first) {
  const ExpectedRequest want = ExpectedRequestFor(argv);
  std::vector<std::pair<std::string, std::string>> expected;
  if (want.api_version) expected.emplace_back("api-version", "2023-01-01-preview");
  expected.emplace_back("currencyCode", want.currency);
  expected.emplace_back("$filter", want.filter);
  const auto got = QueryParameters(first.target);
  if (first.target.rfind("/api/retail/prices?", 0) != 0) {
    return Fail("filter_composition", "the first request is not GET /api/retail/prices?...");
  }
  if (got != expected) {
    std::string names;
    for (const auto& [name, value] : got) names += (names.empty() ? "" : ",") + name;
    return Fail("filter_composition",
                "the first request's parameters (" + names +
                    ") are not api-version (with savings plans), currencyCode and the $filter "
                    "the argv composes, in that order");
  }
  return Pass("filter_composition", "the $filter is the argv's clauses joined by \" and \"");
}

}  // namespace

ExpectedRequest ExpectedRequestFor(const std::vector<std::string>& argv) {
  static const std::map<std::string, std::string> kFields = {
      {"--sku", "armSkuName"},          {"--service", "serviceName"},
      {"--region", "armRegionName"},    {"--service-family", "serviceFamily"},
      {"--price-type", "priceType"}};
  static const char* const kOrder[] = {"--sku", "--service", "--region", "--service-family",
                                       "--price-type"};
  std::map<std::string, std::string> given;
  ExpectedRequest out;
  for (size_t i = 0; i < argv.size(); ++i) {
    if (argv[i] == "--include-savings-plan") out.api_version = true;
    if (i + 1 < argv.size() && argv[i].rfind("--", 0) == 0) given[argv[i]] = argv[i + 1];
  }
  if (given.count("--currency") != 0) out.currency = given["--currency"];
  std::vector<std::string> clauses;
  for (const char* option : kOrder) {
    auto it = given.find(option);
    if (it == given.end()) continue;
    std::string quoted;
    for (char c : it->second) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    clauses.push_back(kFields.at(option) + " eq '" + quoted + "'");
  }
  if (given.count("--filter") != 0) clauses.push_back(given["--filter"]);
  for (size_t i = 0; i < clauses.size(); ++i) out.filter += (i ? " and " : "") + clauses[i];
  return out;
}

std::string CliVersionFromUserAgent(const std::string& user_agent) {
  constexpr std::string_view kProduct = "Azure.Mcp.Tools.Pricing/";
  const size_t at = user_agent.find(kProduct);
  if (at == std::string::npos) return "";
  const size_t begin = at + kProduct.size();
  const size_t end = user_agent.find_first_of(" ;(", begin);
  return user_agent.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}


namespace {

std::string LowerCase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The head's headers, names lower-cased; nullopt when there is no blank line.
std::optional<std::map<std::string, std::string>> Headers(std::string_view head) {
  std::map<std::string, std::string> out;
  size_t at = head.find("\r\n");
  while (at != std::string_view::npos && at + 2 < head.size()) {
    const size_t end = head.find("\r\n", at + 2);
    if (end == std::string_view::npos) return std::nullopt;
    const std::string_view line = head.substr(at + 2, end - at - 2);
    const size_t colon = line.find(':');
    if (colon != std::string_view::npos) {
      std::string value(line.substr(colon + 1));
      value.erase(0, value.find_first_not_of(" \t"));
      out[LowerCase(std::string(line.substr(0, colon)))] = value;
    }
    at = end;
  }
  return out;
}

StatusOr<std::string> Dechunk(std::string_view body) {
  const Status cut(Outcome::kFailed, kUnreadableResponse, "a chunked body is cut or malformed");
  std::string out;
  for (;;) {
    const size_t eol = body.find("\r\n");
    if (eol == std::string_view::npos) return cut;
    size_t size = 0;
    try {
      size = std::stoul(std::string(body.substr(0, eol)), nullptr, 16);
    } catch (...) {
      return cut;
    }
    if (size == 0) return out;
    if (body.size() < eol + 2 + size + 2) return cut;
    out.append(body.substr(eol + 2, size));
    body.remove_prefix(eol + 2 + size + 2);
  }
}

}  // namespace

StatusOr<std::string> HttpResponseBody(const std::string& raw) {
  const Status bad(Outcome::kFailed, kUnreadableResponse, "the response head is malformed");
  const size_t end = raw.find("\r\n\r\n");
  if (raw.rfind("HTTP/1.", 0) != 0 || end == std::string::npos) return bad;
  const auto headers = Headers(std::string_view(raw).substr(0, end + 2));
  if (!headers.has_value()) return bad;
  const std::string_view body = std::string_view(raw).substr(end + 4);
  if (auto it = headers->find("content-encoding"); it != headers->end() && it->second != "identity") {
    return Status(Outcome::kFailed, kUnreadableResponse, "the body is compressed; not decoded");
  }
  if (auto it = headers->find("transfer-encoding");
      it != headers->end() && LowerCase(it->second).find("chunked") != std::string::npos) {
    return Dechunk(body);
  }
  if (auto it = headers->find("content-length"); it != headers->end()) {
    size_t length = 0;
    try {
      length = std::stoul(it->second);
    } catch (...) {
      return bad;
    }
    if (body.size() < length) {
      return Status(Outcome::kFailed, kUnreadableResponse, "the body is shorter than announced");
    }
    return std::string(body.substr(0, length));
  }
  return std::string(body);
}

namespace {

// What the judgements share: the parsed CLI output and tool report.
struct Parsed {
  const LiveCheck& check;
  const Seen& seen;
  Json envelope;            // discarded when the CLI printed no JSON
  const Json* rows = nullptr;  // the CLI's rows, when a success envelope
  Json report;              // the tool's price report; discarded when none
  std::string region;       // the requested region argument, "" when none
};

const Json kNoRows = Json::array();

const Json& ReportRows(const Parsed& p) {
  if (p.report.is_object() && p.report.contains("prices")) return p.report.at("prices");
  return kNoRows;
}

Finding JudgeOutcome(const Parsed& p) {
  const Expectation& x = p.check.expect;
  const std::string got = OutcomeText(p.seen.report);
  const std::string want = x.outcome + (x.reason.empty() ? "" : " (" + x.reason + ")");
  const bool same = x.reason.empty() ? got.rfind(x.outcome, 0) == 0 : got == want;
  return same ? Pass("outcome", got) : Fail("outcome", "expected " + want + ", got " + got);
}

// Whether a row belongs to the check's zone family: a mapped one (network, edge, dns) or one whose
// zone rows are omitted with a note (expressroute, front_door_standard_premium).
bool OfFamily(const Json& row, const std::string& family) {
  const std::string service = row.value("serviceName", "");
  const std::string product = row.value("productName", "");
  if (family == "expressroute") return service == "ExpressRoute";
  if (family == "front_door_standard_premium") {
    return zones::IsFrontDoorStandardPremium(service, product);
  }
  const auto f = zones::FamilyOf(service, product);
  return f.has_value() && zones::ZoneFamilyName(*f) == family;
}

// Rows in the CLI output whose region is a billing zone of the family.
std::vector<const Json*> ZoneRowsOfFamily(const Parsed& p, const std::string& family) {
  std::vector<const Json*> out;
  if (p.rows == nullptr) return out;
  for (const Json& row : *p.rows) {
    if (zones::IsBillingZone(row.value("region", "")) && OfFamily(row, family)) {
      out.push_back(&row);
    }
  }
  return out;
}

std::optional<std::string> MappedZone(const Parsed& p) {
  const zones::RegionZones* r = zones::ZoneTable::Bundled().Find(p.region);
  if (r == nullptr) return std::nullopt;
  for (zones::ZoneFamily f : {zones::ZoneFamily::kNetwork, zones::ZoneFamily::kEdge,
                              zones::ZoneFamily::kDns}) {
    if (zones::ZoneFamilyName(f) == p.check.expect.zone_family && r->For(f).has_value()) {
      return r->For(f)->zone;
    }
  }
  return std::nullopt;
}

bool HasNote(const Parsed& p, const std::string& words) {
  if (!p.report.is_object() || !p.report.contains("selection_notes")) return false;
  for (const Json& n : p.report.at("selection_notes")) {
    if (n.is_string() && n.get<std::string>().find(words) != std::string::npos) return true;
  }
  return false;
}

// A family whose zone rows are never selected: they came back, none was kept, and a note says so.
Finding JudgeOmitted(const Parsed& p) {
  const std::string& family = p.check.expect.zone_family;
  const bool express = family == "expressroute";
  const std::string what = express ? "ExpressRoute" : "Front Door Standard/Premium";
  const size_t received = ZoneRowsOfFamily(p, family).size();
  int kept = 0;
  for (const Json& row : ReportRows(p)) {
    kept += OfFamily(row, family) && row.value("matched_by", "") == "zone";
  }
  const bool noted = HasNote(p, express ? "ExpressRoute" : "Standard/Premium");
  if (received == 0) return Fail("zone_rows", "the CLI returned no " + what + " zone rows");
  if (kept != 0 || !noted) {
    return Fail("zone_rows", std::to_string(kept) + " " + what + " zone rows kept; note " +
                                 (noted ? "present" : "missing"));
  }
  return Pass("zone_rows", std::to_string(received) + " " + what + " zone rows omitted, noted");
}

Finding JudgeZoneRows(const Parsed& p) {
  const Expectation& x = p.check.expect;
  if (x.zone_rows == "omitted_with_note") return JudgeOmitted(p);
  const std::optional<std::string> zone = MappedZone(p);
  if (!zone.has_value()) return Fail("zone_rows", "the mapping has no " + x.zone_family +
                                                      " zone for the requested region");
  int in_zone = 0;
  for (const Json* row : ZoneRowsOfFamily(p, x.zone_family)) in_zone += row->value("region", "") == *zone;
  int selected = 0;
  for (const Json& row : ReportRows(p)) {
    if (row.value("matched_by", "") != "zone") continue;
    if (row.value("zone", "") != *zone || row.value("zone_family", "") != x.zone_family) {
      return Fail("zone_rows", "a selected zone row is not the mapping's " + *zone + " " +
                                   x.zone_family + " row");
    }
    ++selected;
  }
  const std::string seen = std::to_string(in_zone) + " " + *zone + " rows from the CLI, " +
                           std::to_string(selected) + " selected";
  if (x.zone_rows == "required" && (in_zone == 0 || selected == 0)) return Fail("zone_rows", seen);
  if (in_zone != selected) return Fail("zone_rows", seen + " (all must be)");
  if (x.zone_family == "edge" && selected > 0 && !HasNote(p, "serving edge")) {
    return Fail("zone_rows", seen + ", without the note that billing follows the serving edge");
  }
  return Pass("zone_rows", seen);
}

Finding JudgeCeiling(const Parsed& p) {
  const int cli_rows = p.rows != nullptr ? static_cast<int>(p.rows->size()) : 0;
  const Json& r = p.report;
  const bool flags = r.is_object() && r.value("received_rows", 0) == kCeiling &&
                     r.value("truncated", false) && r.value("upstream_limit_reached", false);
  std::vector<std::string> skips;
  for (size_t i = 1; i < p.seen.upstream.size(); ++i) {
    for (const auto& [name, value] : QueryParameters(p.seen.upstream[i].target)) {
      if (name == "$skip") skips.push_back(value);
    }
  }
  std::vector<std::string> want;
  for (int s = kPageSize; s < kCeiling; s += kPageSize) want.push_back(std::to_string(s));
  const std::string seen = std::to_string(cli_rows) + " CLI rows in " +
                           std::to_string(p.seen.upstream.size()) + " requests";
  if (cli_rows != kCeiling || !flags || skips != want) {
    return Fail("ceiling", seen + "; expected 5000 rows in 5 pages ($skip 1000..4000), "
                                  "received_rows 5000, truncated, upstream_limit_reached");
  }
  return Pass("ceiling", seen + ": truncated, upstream_limit_reached");
}


// Judgements of the rows against the check's expectations; one finding each.
void JudgeRowExpectations(const Parsed& p, std::vector<Finding>& out) {
  const Expectation& x = p.check.expect;
  const Json& rows = p.rows != nullptr ? *p.rows : kNoRows;
  auto count = [&rows](auto pred) {
    return static_cast<int>(std::count_if(rows.begin(), rows.end(), pred));
  };
  const int n = static_cast<int>(rows.size());
  if (x.min_rows) {
    const int returned = static_cast<int>(ReportRows(p).size());
    out.push_back(returned >= *x.min_rows
                      ? Pass("rows", std::to_string(returned) + " rows returned")
                      : Fail("rows", std::to_string(returned) + " rows returned, expected at least " +
                                         std::to_string(*x.min_rows)));
  }
  if (x.min_regions) {
    std::set<std::string> regions;
    for (const Json& r : rows) {
      const std::string region = r.value("region", "");
      if (!region.empty() && region != "Global" && !zones::IsBillingZone(region)) regions.insert(region);
    }
    const int got = static_cast<int>(regions.size());
    out.push_back(got >= *x.min_regions
                      ? Pass("regions", std::to_string(got) + " ARM regions among the CLI's rows")
                      : Fail("regions", std::to_string(got) + " ARM regions, expected at least " +
                                            std::to_string(*x.min_regions)));
  }
  if (!x.savings_plan.empty()) {
    const int with = count([](const Json& r) { return r.contains("savingsPlan"); });
    const bool ok = x.savings_plan == "some" ? with > 0 : with == 0;
    out.push_back({"savings_plan", ok, std::to_string(with) + " of " + std::to_string(n) +
                                           " rows carry savingsPlan (expected " + x.savings_plan + ")"});
  }
  if (!x.price_type.empty()) {
    const int other = count([&x](const Json& r) { return r.value("priceType", "") != x.price_type; });
    out.push_back({"price_type", n > 0 && other == 0,
                   std::to_string(other) + " of " + std::to_string(n) + " rows not " + x.price_type});
  }
  if (x.reservation_term_all) {
    const int without = count([](const Json& r) { return r.value("reservationTerm", "").empty(); });
    out.push_back({"reservation_term", n > 0 && without == 0,
                   std::to_string(without) + " of " + std::to_string(n) + " rows lack reservationTerm"});
  }
  if (x.empty_arm_sku_all || x.arm_sku_some_named) {
    const int named = count([](const Json& r) { return !r.value("armSkuName", "").empty(); });
    const bool ok = x.empty_arm_sku_all ? n > 0 && named == 0 : named > 0;
    out.push_back({"empty_arm_sku", ok,
                   std::to_string(named) + " of " + std::to_string(n) + " rows have an armSkuName"});
  }
}

void JudgeReportExpectations(const Parsed& p, std::vector<Finding>& out) {
  const Expectation& x = p.check.expect;
  if (!x.matched_by.empty()) {
    std::map<std::string, int> kinds;
    for (const Json& row : ReportRows(p)) ++kinds[row.value("matched_by", "(none)")];
    std::string seen;
    bool ok = !kinds.empty();
    for (const auto& [kind, k] : kinds) {
      seen += (seen.empty() ? "" : ", ") + kind + " " + std::to_string(k);
      ok = ok && std::find(x.matched_by.begin(), x.matched_by.end(), kind) != x.matched_by.end();
    }
    out.push_back({"matched_by", ok, seen.empty() ? "no rows" : seen});
  }
  if (!x.zone_family.empty()) out.push_back(JudgeZoneRows(p));
  if (x.ceiling) out.push_back(JudgeCeiling(p));
}

// A failed lookup's trusted messages carry no argument value (BOUND-015).
Finding JudgeNoEcho(const Parsed& p) {
  const Json args = Json::parse(p.check.arguments, nullptr, false);
  for (const auto& [name, value] : args.items()) {
    if (!value.is_string() || value.get<std::string>().size() < 3) continue;
    for (const std::string& m : p.seen.report.trusted_messages) {
      if (m.find(value.get<std::string>()) != std::string::npos) {
        return Fail("no_echo", "a trusted message repeats the " + name + " argument");
      }
    }
  }
  return Pass("no_echo", "no argument repeated in the trusted messages");
}

void JudgeUpstream(const Parsed& p, std::vector<Finding>& out) {
  const Expectation& x = p.check.expect;
  const std::vector<UpstreamExchange>& up = p.seen.upstream;
  const std::vector<std::string>& argv = p.seen.execs.front().argv;
  if (up.empty()) {
    out.push_back(Fail("filter_composition", "no request reached the upstream"));
  } else {
    out.push_back(JudgeFilterComposition(argv, up.front()));
  }
  if (x.upstream_status) {
    const int got = up.empty() ? 0 : up.front().status;
    out.push_back({"upstream_status", got == *x.upstream_status,
                   "the API answered " + std::to_string(got)});
  }
}

}  // namespace

std::string OutcomeText(const host::CallReport& report) {
  std::string out(OutcomeName(report.outcome));
  return report.reason.empty() ? out : out + " (" + report.reason + ")";
}

std::string FailedFindings(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings) {
    if (!f.passed) out += (out.empty() ? "" : "; ") + f.name + ": " + f.detail;
  }
  return out;
}

std::vector<Finding> JudgeCheck(const LiveCheck& check, const Seen& seen, RowCounts* counts) {
  Parsed p{.check = check, .seen = seen};
  const Json args = Json::parse(check.arguments, nullptr, false);
  p.region = args.is_object() ? args.value("region", "") : "";
  if (seen.report.output.has_value()) p.report = Json::parse(*seen.report.output, nullptr, false);
  if (counts != nullptr) counts->report = static_cast<int>(ReportRows(p).size());
  std::vector<Finding> out{JudgeOutcome(p)};
  if (seen.execs.size() != 1) {
    out.push_back(Fail("cli_ran_once", std::to_string(seen.execs.size()) + " CLI executions"));
    return out;
  }
  const stack::StackExec& cli = seen.execs.front();
  if (cli.result.ok()) p.envelope = Json::parse(cli.result->stdout_bytes, nullptr, false);
  out.push_back(JudgeEnvelope(cli, p.envelope));
  p.rows = CliRows(p.envelope);
  if (counts != nullptr && p.rows != nullptr) counts->cli = static_cast<int>(p.rows->size());
  if (p.rows != nullptr) out.push_back(JudgeRows(*p.rows));
  JudgeUpstream(p, out);
  JudgeRowExpectations(p, out);
  JudgeReportExpectations(p, out);
  if (check.expect.outcome == "failed") out.push_back(JudgeNoEcho(p));
  return out;
}

}  // namespace azure_pricing::conformance::live
