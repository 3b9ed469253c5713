#include "conformance/line_protocol/wire_json.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

#include "conformance/line_protocol/core.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::conformance::line_protocol {
namespace {

using Json = nlohmann::ordered_json;

TEST(ParseStrict, RefusesARepeatedMemberAtAnyDepth) {
  EXPECT_TRUE(ParseStrict(R"({"a":{"b":1,"c":2}})").has_value());
  EXPECT_FALSE(ParseStrict(R"({"a":1,"a":1})").has_value());
  EXPECT_FALSE(ParseStrict(R"({"a":{"b":1,"b":2}})").has_value());
  EXPECT_TRUE(ParseStrict(R"([{"b":1},{"b":2}])").has_value());  // siblings, not repeats
  EXPECT_FALSE(ParseStrict("{").has_value());
}

TEST(AsInt64, TakesIntegersWithinSigned64BitsOnly) {
  EXPECT_EQ(AsInt64(Json::parse("9223372036854775807")), INT64_MAX);
  EXPECT_EQ(AsInt64(Json::parse("-9223372036854775808")), INT64_MIN);
  EXPECT_EQ(AsInt64(Json::parse("9223372036854775808")), std::nullopt);
  EXPECT_EQ(AsInt64(Json::parse("1.0")), std::nullopt);
  EXPECT_EQ(AsInt64(Json::parse("\"1\"")), std::nullopt);
}

TEST(Line, IsOneLineAndReplacesBytesThatAreNotUtf8) {
  const std::string line = Line(Json{{"seq", 1}, {"name", std::string("a\xff" "b")}});
  EXPECT_EQ(line, "{\"seq\":1,\"name\":\"a\xEF\xBF\xBD" "b\"}\n");
}

TEST(ReadRequestHead, ReadsSeqAndOpAndKeepsTheDocument) {
  std::optional<int64_t> seq;
  StatusOr<RequestHead> head = ReadRequestHead(R"({"seq":4,"op":"dance","x":[1]})", &seq);
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(head->seq, 4);
  EXPECT_EQ(head->op, "dance");
  EXPECT_EQ(head->doc["x"], Json::array({1}));
  EXPECT_EQ(seq, 4);
}

TEST(ReadRequestHead, NamesTheSeqOfAMessageItRefuses) {
  std::optional<int64_t> seq = 99;
  EXPECT_THAT(ReadRequestHead("not json", &seq), StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_EQ(seq, std::nullopt);
  EXPECT_THAT(ReadRequestHead(R"({"seq":"1","op":"stop"})", &seq),
              StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_EQ(seq, std::nullopt);
  EXPECT_THAT(ReadRequestHead(R"({"seq":5,"op":7})", &seq),
              StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_EQ(seq, 5);
  EXPECT_THAT(ReadRequestHead(R"({"seq":6})", &seq), StatusIs(Outcome::kRefused, kMalformedMessage));
  EXPECT_EQ(seq, 6);
  EXPECT_THAT(ReadRequestHead(R"([1])", nullptr), StatusIs(Outcome::kRefused, kMalformedMessage));
}

TEST(ErrorAnswer, WritesTheErrorWithTheProtocolsOutcomeName) {
  EXPECT_EQ(Line(ErrorAnswer(std::nullopt, "refused", Refusal(kUnknownOp))),
            R"({"seq":null,"ok":false,"error":{"outcome":"refused","reason":"unknown_op",)"
            R"("message":"The message names an op this protocol version does not have."}})"
            "\n");
  EXPECT_EQ(ErrorAnswer(3, "failed", Refusal(kUnknownSandbox))["seq"], 3);
}

}  // namespace
}  // namespace azure_pricing::conformance::line_protocol
