// The page model against what the real azmcp 3.0.0-beta.46 printed for the same bodies (probed
// 2026-11-30; the bodies are also differential scenarios, checked against the real binary).
#include "fakes/azmcp/retail_page.h"

#include <string>

#include "fakes/azmcp/dotnet_json.h"
#include "gtest/gtest.h"

namespace azure_pricing::fakes::azmcp {
namespace {

struct Read {
  std::optional<stj::DotnetError> error;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
};

// Deserialise, then map every row, as the CLI does for a page under the cap.
Read ReadPage(const std::string& body) {
  Read r;
  const stj::ParseResult parsed = stj::Parse(body);
  EXPECT_TRUE(parsed.root.has_value()) << parsed.error;
  if (!parsed.root) {
    r.error = stj::DotnetError{"TestSetup", "the body did not parse: " + parsed.error};
    return r;
  }
  PageModel page;
  if ((r.error = DeserializePage(*parsed.root, page))) return r;
  if (page.null_root || !page.items) {
    r.error = NullReference();
    return r;
  }
  for (const auto& item : *page.items) {
    nlohmann::ordered_json row;
    if ((r.error = MapRow(item, row))) return r;
    r.rows.push_back(row);
  }
  return r;
}

std::string Item(const std::string& extra) {
  return R"({"Items":[{"serviceFamily":"Compute","type":"Consumption")" + extra + "}]}";
}

TEST(RetailPageTest, DefaultsAndOmissions) {
  const Read r = ReadPage(R"({"Items":[{}]})");
  ASSERT_FALSE(r.error);
  EXPECT_EQ(WriteIndented(r.rows[0]),
            "{\n  \"serviceFamily\": \"Analytics\",\n  \"retailPrice\": 0,\n  \"unitPrice\": 0,\n"
            "  \"priceType\": \"Reservation\",\n  \"effectiveStartDate\": "
            "\"0001-01-01T00:00:00+00:00\",\n  \"isPrimaryMeterRegion\": false\n}");
  const Read nulls = ReadPage(Item(R"(,"meterId":null,"skuName":null,"savingsPlan":null)"));
  ASSERT_FALSE(nulls.error);
  EXPECT_FALSE(nulls.rows[0].contains("meterId"));
  EXPECT_FALSE(nulls.rows[0].contains("savingsPlan"));
}

TEST(RetailPageTest, EnumsIgnoreCaseAndNameTheBadValue) {
  Read r = ReadPage(R"({"Items":[{"serviceFamily":"compute","type":"consumption"}]})");
  ASSERT_FALSE(r.error);
  EXPECT_EQ(r.rows[0]["serviceFamily"], "Compute");
  EXPECT_EQ(r.rows[0]["priceType"], "Consumption");
  r = ReadPage(R"({"Items":[{"serviceFamily":"Nope"}]})");
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->message, "Unknown ServiceFamily value. (Parameter 'value')\nActual value was Nope.");
  EXPECT_EQ(StatusForException(r.error->type), 400);
  r = ReadPage(R"({"Items":[{"serviceFamily":null}]})");
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->message, "Unknown ServiceFamily value. (Parameter 'value')");
  r = ReadPage(R"({"Items":[{"serviceFamily":"Compute","type":""}]})");
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->message, "Unknown PriceType value. (Parameter 'value')\nActual value was .");
}

TEST(RetailPageTest, FieldsAreReadInOrderAndTheLastDuplicateWins) {
  Read r = ReadPage(
      R"({"Items":[{"serviceFamily":"Compute","type":"Consumption","retailPrice":1}],"Items":[{"serviceFamily":"Compute","type":"Reservation","retailPrice":3}]})");
  ASSERT_FALSE(r.error);
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0]["priceType"], "Reservation");
  // A later page-level error beats an earlier row's null: mapping comes after deserialising.
  r = ReadPage(R"({"Items":[null],"Count":"x"})");
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->message,
            "The requested operation requires an element of type 'Number', but the target element "
            "has type 'String'.");
}

TEST(RetailPageTest, ExceptionsAndTheirStatuses) {
  struct Case {
    std::string body, type, message;
    int status;
  };
  const Case cases[] = {
      {"[]", "InvalidOperationException",
       "The requested operation requires an element of type 'Object', but the target element has "
       "type 'Array'.",
       422},
      {"null", "NullReferenceException", "Object reference not set to an instance of an object.", 500},
      {R"({"items":[]})", "NullReferenceException",
       "Object reference not set to an instance of an object.", 500},
      {R"({"Items":[null]})", "NullReferenceException",
       "Object reference not set to an instance of an object.", 500},
      {R"({"Items":[5]})", "InvalidOperationException",
       "The requested operation requires an element of type 'Object', but the target element has "
       "type 'Number'.",
       422},
      {Item(R"(,"effectiveStartDate":null)"), "ArgumentNullException",
       "Value cannot be null. (Parameter 'input')", 400},
      {Item(R"(,"effectiveStartDate":"garbage")"), "FormatException",
       "The string 'garbage' was not recognized as a valid DateTime. There is an unknown word "
       "starting at index '0'.",
       500},
      {Item(R"(,"savingsPlan":[null])"), "NullReferenceException",
       "Object reference not set to an instance of an object.", 500},
      {Item(R"(,"productId":5)"), "InvalidOperationException",
       "The requested operation requires an element of type 'String', but the target element has "
       "type 'Number'.",
       422},
      {R"({"Items":[],"Count":1.5})", "FormatException",
       "One of the identified items was in an invalid format.", 500},
  };
  for (const Case& c : cases) {
    const Read r = ReadPage(c.body);
    ASSERT_TRUE(r.error) << c.body;
    EXPECT_EQ(r.error->type, c.type) << c.body;
    EXPECT_EQ(r.error->message, c.message) << c.body;
    EXPECT_EQ(StatusForException(r.error->type), c.status) << c.body;
  }
}

TEST(RetailPageTest, UnmodelledFieldsAreNeverRead) {
  const Read r = ReadPage(Item(R"(,"effectiveEndDate":5,"q":1e400,"x":{"y":[null]})"));
  EXPECT_FALSE(r.error);
  EXPECT_EQ(r.rows.size(), 1u);
}

TEST(RetailPageTest, SavingsPlanTermIsOptional) {
  const Read r = ReadPage(Item(R"(,"savingsPlan":[{"term":null,"unitPrice":1}])"));
  ASSERT_FALSE(r.error);
  EXPECT_EQ(r.rows[0]["savingsPlan"].dump(), R"([{"unitPrice":1.0,"retailPrice":0.0}])");
}

}  // namespace
}  // namespace azure_pricing::fakes::azmcp
