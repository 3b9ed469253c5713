#include "conformance/properties/generators.h"

#include <cctype>

#include <algorithm>

#include "conformance/judge/cli_request.h"

namespace azure_pricing::conformance::properties {
namespace {

const char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

rc::Gen<std::string> GenWord(int min_len, int max_len) {
  return rc::gen::mapcat(rc::gen::inRange(min_len, max_len + 1), [](int n) {
    return rc::gen::container<std::string>(
        static_cast<size_t>(n),
        rc::gen::elementOf(std::string("abcdefghijklmnopqrstuvwxyz0123456789_ ")));
  });
}

}  // namespace

rc::Gen<std::string> GenSafeValue() {
  return rc::gen::apply(
      [](char first, std::string core, std::string accent) {
        return std::string(1, first) + core + accent;
      },
      rc::gen::elementOf(std::string(kLetters)), GenWord(7, 40),
      rc::gen::element(std::string(""), std::string("\xc3\xa9"), std::string("'q'"),
                       std::string(" \xe2\x82\xac"), std::string("\\\"")));
}

const std::vector<std::string>& LocationValuesForTests() {
  static const std::vector<std::string> values = {
      "Global", "Zone 1", "Zone 2",        "Zone 3",        "Zone 4",    "Zone 5",
      "Zone 6", "Zone 7", "Zone 8",        "Zone 9",        "US Gov Zone 1", "US Gov Zone 2",
      "DE Zone 1", "DE Gov Zone 2", "CN Zone 1", "Zone 1 (China)", "US Gov"};
  return values;
}

rc::Gen<std::string> GenBlankValue() {
  const std::vector<std::string> spaces = {" ",          "\xc2\xa0",     "\xe2\x80\x82",
                                           "\xe2\x80\x83", "\xe2\x80\x89", "\xe2\x80\xaf",
                                           "\xe3\x80\x80", "\xe1\x9a\x80"};
  return rc::gen::map(rc::gen::container<std::vector<std::string>>(
                          *rc::gen::inRange(1, 7), rc::gen::elementOf(spaces)),
                      [](const std::vector<std::string>& parts) {
                        std::string out;
                        for (const std::string& p : parts) out += p;
                        return out;
                      });
}

rc::Gen<std::string> GenCaseVariant(const std::string& exact) {
  return rc::gen::exec([exact] {
    std::string variant = exact;
    while (variant == exact) {
      for (char& c : variant) {
        if (std::isalpha(static_cast<unsigned char>(c)) && *rc::gen::arbitrary<bool>()) {
          c = std::isupper(static_cast<unsigned char>(c))
                  ? static_cast<char>(std::tolower(static_cast<unsigned char>(c)))
                  : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
      }
    }
    return variant;
  });
}

rc::Gen<Json> GenValidArguments() {
  return rc::gen::exec([] {
    Json args = Json::object();
    const bool sku = *rc::gen::arbitrary<bool>();
    if (sku) args["sku"] = *GenSafeValue();
    if (sku && *rc::gen::arbitrary<bool>()) args["service"] = *GenSafeValue();
    if (*rc::gen::arbitrary<bool>()) {
      // A region never ends with a space (region_whitespace); safe values may.
      std::string region = *rc::gen::oneOf(
          GenSafeValue(), rc::gen::element<std::string>("eastus", "WestEurope", "Global", "Zone 3",
                                                        "US Gov Zone 1"));
      while (!region.empty() && region.back() == ' ') region.pop_back();
      args["region"] = region;
    }
    if (*rc::gen::arbitrary<bool>()) {
      args["service_family"] =
          *rc::gen::element<std::string>("Compute", "Networking", "Storage",
                                         "Management and Governance", "Internet Of Things", "Web");
    }
    if (*rc::gen::arbitrary<bool>()) {
      args["price_type"] =
          *rc::gen::element<std::string>("Consumption", "Reservation", "DevTestConsumption");
    }
    if (*rc::gen::arbitrary<bool>())
      args["currency"] = *rc::gen::element<std::string>("USD", "EUR", "JPY");
    if (*rc::gen::arbitrary<bool>()) args["include_savings_plan"] = *rc::gen::arbitrary<bool>();
    const bool has_filter = args.contains("sku") || args.contains("region") ||
                            args.contains("service_family") || args.contains("price_type");
    if (!has_filter || *rc::gen::arbitrary<bool>()) {
      args["filter"] = "meterName eq '" + *GenSafeValue() + "' or contains(meterName, 'Spot')";
    }
    return args;
  });
}

rc::Gen<std::string> GenForbiddenCharacter() {
  return rc::gen::oneOf(
      rc::gen::map(rc::gen::inRange(0, 0x20),
                   [](int c) { return std::string(1, static_cast<char>(c)); }),
      rc::gen::just(std::string("\x7f")),
      rc::gen::map(rc::gen::inRange(0x80, 0xA0),
                   [](int c) {  // C1 controls, U+0080..U+009F, as two UTF-8 bytes
                     return std::string{static_cast<char>(0xC2), static_cast<char>(c)};
                   }),
      rc::gen::element(std::string("\xd8\x9c"),                                   // U+061C
                       std::string("\xe2\x80\x8e"), std::string("\xe2\x80\x8f"),  // U+200E/F
                       std::string("\xe2\x80\xaa"), std::string("\xe2\x80\xae"),  // U+202A, U+202E
                       std::string("\xe2\x81\xa6"),
                       std::string("\xe2\x81\xa9")));  // U+2066, U+2069
}

rc::Gen<std::string> GenLineOrParagraphSeparator() {
  return rc::gen::element(std::string("\xe2\x80\xa8"), std::string("\xe2\x80\xa9"));
}

rc::Gen<std::string> GenInvalidUtf8() {
  return rc::gen::element(std::string("\xff"), std::string("\xc0\xaf"), std::string("\xed\xa0\x80"),
                          std::string("\xf4\x90\x80\x80"), std::string("\xe2\x82"),
                          std::string("\x80"), std::string("\xfe\xfe"));
}

rc::Gen<Json> GenRow() {
  return rc::gen::exec([] {
    Json row = Json::object();
    row["armSkuName"] = *rc::gen::element<std::string>("", "Standard_D4s_v5", "Standard_LRS");
    row["skuName"] = *GenSafeValue();
    row["productName"] = *GenSafeValue();
    row["serviceName"] = *GenSafeValue();
    row["serviceFamily"] =
        *rc::gen::element<std::string>("Compute", "Networking", "ManagementAndGovernance");
    row["region"] = *rc::gen::element<std::string>("eastus", "", "Global", "Zone 1");
    row["location"] = *GenSafeValue();
    const double price = *rc::gen::element(0.0, 0.192, 1.2e-05, 1000.0, 123456.789, 5e-324);
    row["retailPrice"] = price;
    row["unitPrice"] = price;
    row["currencyCode"] = "USD";
    row["unitOfMeasure"] = *rc::gen::element<std::string>("1 Hour", "1 GB", "1/Month");
    const std::string type =
        *rc::gen::element<std::string>("Consumption", "Reservation", "DevTestConsumption");
    row["priceType"] = type;
    if (type == "Reservation")
      row["reservationTerm"] = *rc::gen::element<std::string>("1 Year", "3 Years");
    row["effectiveStartDate"] = "2023-07-01T00:00:00+00:00";
    row["meterName"] = *GenSafeValue();
    row["meterId"] = *GenSafeValue();
    row["isPrimaryMeterRegion"] = *rc::gen::arbitrary<bool>();
    if (*rc::gen::inRange(0, 4) == 0) {
      Json plans = Json::array();
      const int n = *rc::gen::inRange(1, 3);
      for (int i = 0; i < n; ++i) {
        plans.push_back(Json{
            {"term", i == 0 ? "1 Year" : "3 Years"}, {"unitPrice", 0.15}, {"retailPrice", 0.15}});
      }
      row["savingsPlan"] = plans;
    }
    if (*rc::gen::inRange(0, 5) == 0) row["tierMinimumUnits"] = 100.0;
    return row;
  });
}

Json ForwardedRow(const Json& row) {
  Json out = row;
  out.erase("tierMinimumUnits");
  return out;
}

std::vector<Json> RepeatRows(const std::vector<Json>& templates, int n) {
  std::vector<Json> rows;
  rows.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    Json row = templates[static_cast<size_t>(i) % templates.size()];
    row["meterId"] = "meter-" + std::to_string(i);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string PrintEnvelope(const std::vector<Json>& rows, int duration) {
  Json envelope = Json::object();
  envelope["status"] = 200;
  envelope["message"] = "Success";
  envelope["results"] = Json{{"prices", rows}};
  envelope["duration"] = duration;
  return envelope.dump(2) + "\n";
}

std::string ArgumentsText(const Json& arguments, const std::string& raw_key,
                          const std::string& raw_value) {
  std::string text = "{";
  bool first = true;
  for (const auto& item : arguments.items()) {
    if (item.key() == raw_key) continue;
    if (!first) text += ", ";
    first = false;
    text += Json(item.key()).dump() + ": " + item.value().dump();
  }
  if (!first) text += ", ";
  text += Json(raw_key).dump() + ": \"";
  for (const char c : raw_value) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      text += '\\';
      text += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", u);
      text += buf;
    } else {
      text += c;  // verbatim, including bytes that are not UTF-8
    }
  }
  text += "\"}";
  return text;
}

}  // namespace azure_pricing::conformance::properties

namespace azure_pricing::conformance::properties {
namespace {

// The region set an expanded query asks for, written out independently of the planner.
std::string ExpectedRegionSet(const std::string& region) {
  std::string canonical = region;
  if (region == "eastus" || region == "WestEurope") {
    std::transform(canonical.begin(), canonical.end(), canonical.begin(),
                   [](char c) { return static_cast<char>(std::tolower(c)); });
  }
  std::string literal;
  for (const char c : canonical) literal += c == '\'' ? std::string("''") : std::string(1, c);
  std::string set = "(armRegionName eq '" + literal + "' or armRegionName eq 'Global'";
  for (int i = 1; i <= 9; ++i) set += " or armRegionName eq 'Zone " + std::to_string(i) + "'";
  return set + " or armRegionName eq 'US Gov Zone 1' or armRegionName eq 'US Gov Zone 2')";
}

// The value an option must carry, given the arguments.
std::string ExpectedValue(const Json& args, const std::string& name, bool expands) {
  if (name == "currency") return args.value("currency", std::string("USD"));
  if (name != "filter") return args[name].get<std::string>();
  const std::string raw = args.value("filter", std::string());
  if (!expands) return "(" + raw + ")";
  return ExpectedRegionSet(args.value("region", std::string())) +
         (raw.empty() ? "" : " and (" + raw + ")");
}

}  // namespace

bool RegionExpands(const Json& arguments) {
  const std::string region = arguments.value("region", std::string());
  return !region.empty() && region != "Global" && region.rfind("Zone ", 0) != 0 &&
         region.rfind("US Gov Zone ", 0) != 0;
}

std::string ArgvProblem(const Json& args, const std::vector<std::string>& argv) {
  // The argv the arguments ask for, in one layout; any argv the CLI binds the same way conforms
  // (docs/profile.md, PROFILE-004 and PROFILE-005).
  const bool expands = RegionExpands(args);
  std::vector<std::string> want = {"/usr/local/bin/azmcp", "pricing", "get"};
  const std::vector<std::pair<std::string, std::string>> options = {
      {"sku", "--sku"},          {"service", "--service"},   {"region", "--region"},
      {"service_family", "--service-family"}, {"price_type", "--price-type"},
      {"currency", "--currency"}, {"filter", "--filter"}};
  for (const auto& [name, option] : options) {
    bool present = args.contains(name) || name == "currency";
    if (name == "region" && expands) present = false;
    if (name == "filter" && expands) present = true;
    if (!present) continue;
    want.push_back(option);
    want.push_back(ExpectedValue(args, name, expands));
  }
  if (args.value("include_savings_plan", false)) want.push_back("--include-savings-plan");
  return conformance::judge::DescribeArgvDifference(argv, want);
}

}  // namespace azure_pricing::conformance::properties
