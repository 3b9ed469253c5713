// The replay file's reading and the order in which recorded answers are served.
#include "fakes/prices_server/replay.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/status/status_matchers.h"

namespace azure_pricing::fakes::prices {
namespace {

using ::testing::Optional;

constexpr char kFirst[] = "/api/retail/prices?currencyCode=USD&$filter=serviceName%20eq%20%27A%27";
constexpr char kSecond[] = "/api/retail/prices?currencyCode=USD&$skip=1000";

std::string Line(const std::string& target, int status, const std::string& body) {
  return R"({"target":")" + target + R"(","status":)" + std::to_string(status) + R"(,"body":")" +
         body + "\"}\n";
}

TEST(ReplayTest, AMatchedTargetGetsItsRecordedStatusBodyAndContentType) {
  const std::string text =
      Line(kFirst, 200, "{}") +
      R"({"target":"/api/retail/prices?x=1","status":400,"body":"bad","content_type":"text/plain"})" +
      "\n";
  ReplayLine where;
  StatusOr<Replay> replay = ParseReplay(text, &where);
  ASSERT_THAT(replay, IsOk());
  EXPECT_EQ(replay->exchanges(), 2u);
  std::optional<RecordedAnswer> a = replay->Next(kFirst);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->status, 200);
  EXPECT_EQ(a->body, "{}");
  EXPECT_EQ(a->content_type, "application/json; charset=utf-8");
  std::optional<RecordedAnswer> b = replay->Next("/api/retail/prices?x=1");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->status, 400);
  EXPECT_EQ(b->content_type, "text/plain");
}

TEST(ReplayTest, RepeatedTargetsAreServedInRecordedOrderThenTheLastRepeats) {
  StatusOr<Replay> replay =
      ParseReplay(Line(kSecond, 503, "busy") + Line(kFirst, 200, "other") +
                      Line(kSecond, 200, "page"),
                  nullptr);
  ASSERT_THAT(replay, IsOk());
  EXPECT_EQ(replay->targets(), 2u);
  EXPECT_EQ(replay->Next(kSecond)->status, 503);
  EXPECT_EQ(replay->Next(kSecond)->body, "page");
  EXPECT_EQ(replay->Next(kSecond)->body, "page");
  EXPECT_EQ(replay->Next(kFirst)->body, "other");
}

// Byte for byte: another encoding, order or case of the same query is not the recorded target.
TEST(ReplayTest, OnlyTheExactTargetMatches) {
  StatusOr<Replay> replay = ParseReplay(Line(kFirst, 200, "{}"), nullptr);
  ASSERT_THAT(replay, IsOk());
  EXPECT_EQ(replay->Next("/api/retail/prices?currencyCode=USD&$filter=serviceName eq 'A'"),
            std::nullopt);
  EXPECT_EQ(replay->Next("/api/retail/prices?$filter=serviceName%20eq%20%27A%27&currencyCode=USD"),
            std::nullopt);
  EXPECT_EQ(replay->Next("/api/retail/prices?currencycode=USD&$filter=serviceName%20eq%20%27A%27"),
            std::nullopt);
  EXPECT_THAT(replay->Next(kFirst), Optional(::testing::Field(&RecordedAnswer::status, 200)));
}

TEST(ReplayTest, BlankLinesAreSkippedAndCountInLineNumbers) {
  ReplayLine where;
  StatusOr<Replay> replay = ParseReplay("\n" + Line(kFirst, 200, "{}") + "\r\n \n{}\n", &where);
  EXPECT_THAT(replay, ProgramErrorIs(kReplayBadTarget));
  EXPECT_EQ(where.line, 5u);
}

TEST(ReplayTest, ABadFileIsRefusedWithTheLineAndAReason) {
  const struct {
    std::string text;
    Reason reason;
  } cases[] = {
      {"[1]\n", kReplayNotAnObject},
      {"{\"target\": \n", kReplayNotAnObject},
      {R"({"target":"/api/retail/prices","status":200,"body":"","headers":{}})", kReplayUnknownKey},
      {R"({"status":200,"body":""})", kReplayBadTarget},
      {R"({"target":"/other?x","status":200,"body":""})", kReplayBadTarget},
      {R"({"target":"https://prices.azure.com/api/retail/prices","status":200,"body":""})",
       kReplayBadTarget},
      {R"({"target":"/api/retail/prices","status":"200","body":""})", kReplayBadStatus},
      {R"({"target":"/api/retail/prices","status":600,"body":""})", kReplayBadStatus},
      {R"({"target":"/api/retail/prices","status":200,"body":{"Items":[]}})", kReplayBadBody},
      {R"({"target":"/api/retail/prices","status":200})", kReplayBadBody},
      {R"({"target":"/api/retail/prices","status":200,"body":"","content_type":""})",
       kReplayBadContentType},
  };
  for (const auto& c : cases) {
    ReplayLine where;
    EXPECT_THAT(ParseReplay(Line(kFirst, 200, "{}") + c.text, &where),
                ProgramErrorIs(c.reason))
        << c.text;
    EXPECT_EQ(where.line, 2u) << c.text;
  }
}

TEST(ReplayTest, AFileWithNoExchangeIsRefused) {
  EXPECT_THAT(ParseReplay("", nullptr), ProgramErrorIs(kReplayEmpty));
  EXPECT_THAT(ParseReplay("\n \n", nullptr), ProgramErrorIs(kReplayEmpty));
}

}  // namespace
}  // namespace azure_pricing::fakes::prices
