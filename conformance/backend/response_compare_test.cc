// What egress.response_unchanged takes for the upstream's response unchanged (PROTOCOL.md,
// "Decisions"): field names in any case, hop-by-hop fields rewritten, a Date added where the
// upstream sent none and a chunked re-framing pass; any end-to-end change fails.
#include "conformance/backend/response_compare.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azure_pricing::conformance::backend {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kBody[] = R"({"Items":[],"Nonce":"ab12"})";

// A response like the suite's exact upstream's: lower-case names, a Connection naming another
// hop-by-hop field, no Date; `extra` lines after the status line.
std::string Upstream(const std::string& extra = "") {
  return "HTTP/1.1 200 OK\r\n" + extra +
         "content-type: application/json\r\n"
         "cache-control: no-store, max-age=0\r\n"
         "ETag: \"ab12\"\r\n"
         "Content-Length: " + std::to_string(std::string(kBody).size()) + "\r\n"
         "Connection: close, x-upstream-hop\r\n"
         "x-upstream-hop: 1\r\n"
         "\r\n" + kBody;
}

TEST(CompareResponsesTest, TheSameBytesAreTheSame) {
  const ResponseComparison c = CompareResponses(Upstream(), Upstream());
  EXPECT_TRUE(c.same);
  EXPECT_EQ(c.detail, "byte for byte");
}

// What squid does: its own case for names it knows, Connection rebuilt (and the field it named
// dropped), a Date added, the lines in its own order.
TEST(CompareResponsesTest, SquidsRewritesOfTheHeadAreNoChange) {
  const std::string squid = "HTTP/1.1 200 OK\r\n"
                            "Content-Type: application/json\r\n"
                            "ETag:  \"ab12\"\r\n"
                            "Cache-Control: no-store, max-age=0\r\n"
                            "Content-Length: 27\r\n"
                            "Date: Sat, 05 Dec 2026 10:00:00 GMT\r\n"
                            "Connection: keep-alive\r\n"
                            "Keep-Alive: timeout=5\r\n"
                            "\r\n" + std::string(kBody);
  const ResponseComparison c = CompareResponses(Upstream(), squid);
  EXPECT_TRUE(c.same) << c.detail;
  EXPECT_THAT(c.detail, HasSubstr("another letter case: Cache-Control, Content-Type"));
  EXPECT_THAT(c.detail, HasSubstr("hop-by-hop fields rewritten: Connection, Keep-Alive, x-upstream-hop"));
  EXPECT_THAT(c.detail, HasSubstr("a Date added"));
}

TEST(CompareResponsesTest, AChunkedReFramingOfTheSameBodyIsNoChange) {
  std::string chunked = Upstream();
  chunked.replace(chunked.find("Content-Length: 27"), 18, "Transfer-Encoding: chunked");
  chunked.replace(chunked.find(kBody), std::string(kBody).size(),
                  "5\r\n" + std::string(kBody).substr(0, 5) + "\r\n16;ext=1\r\n" +
                      std::string(kBody).substr(5) + "\r\n0\r\n\r\n");
  const ResponseComparison c = CompareResponses(Upstream(), chunked);
  EXPECT_TRUE(c.same) << c.detail;
  EXPECT_THAT(c.detail, HasSubstr("re-framed as chunked"));
  chunked.replace(chunked.find("16;ext"), 2, "15");
  EXPECT_THAT(CompareResponses(Upstream(), chunked).detail, HasSubstr("the body changed"));
}

TEST(CompareResponsesTest, AnEndToEndFieldAddedRemovedOrChangedIsAChange) {
  const ResponseComparison via =
      CompareResponses(Upstream(), Upstream("Via: 1.1 squid\r\nX-Cache: MISS from squid\r\n"));
  EXPECT_FALSE(via.same);
  EXPECT_THAT(via.detail, HasSubstr("header lines added or changed: Via, X-Cache"));
  EXPECT_THAT(via.detail, Not(HasSubstr("removed")));

  std::string changed = Upstream();
  changed.replace(changed.find("cache-control: no-store, max-age=0"), 34,
                  "Cache-Control: max-age=3600");
  const ResponseComparison c = CompareResponses(Upstream(), changed);
  EXPECT_FALSE(c.same);
  EXPECT_THAT(c.detail, HasSubstr("added or changed: Cache-Control; header lines removed or "
                                  "changed: cache-control"));

  std::string removed = Upstream();
  removed.erase(removed.find("ETag"), std::string("ETag: \"ab12\"\r\n").size());
  EXPECT_THAT(CompareResponses(Upstream(), removed).detail,
              HasSubstr("header lines removed or changed: ETag"));
}

TEST(CompareResponsesTest, ADateChangedWhereTheUpstreamSentOneIsAChange) {
  const std::string sent = Upstream("Date: Sat, 05 Dec 2026 10:00:00 GMT\r\n");
  EXPECT_TRUE(CompareResponses(sent, sent).same);
  const ResponseComparison c =
      CompareResponses(sent, Upstream("Date: Sat, 05 Dec 2026 10:00:09 GMT\r\n"));
  EXPECT_FALSE(c.same);
  EXPECT_THAT(c.detail, HasSubstr("added or changed: Date"));
  // Two Dates where the upstream sent none: not the one a recipient adds.
  EXPECT_FALSE(CompareResponses(Upstream(), Upstream("Date: a\r\nDate: b\r\n")).same);
}

TEST(CompareResponsesTest, TheStatusLineAndTheBodyAreComparedByteForByte) {
  std::string status = Upstream();
  status.replace(0, 15, "HTTP/1.1 200 Ok");
  EXPECT_THAT(CompareResponses(Upstream(), status).detail, HasSubstr("the status line changed"));
  std::string body = Upstream();
  body.back() = ' ';
  EXPECT_THAT(CompareResponses(Upstream(), body).detail, HasSubstr("the body changed"));
  EXPECT_THAT(CompareResponses(Upstream(), Upstream().substr(0, 40)).detail,
              HasSubstr("the body changed"));
}

TEST(CompareResponsesTest, AFieldTheProxysOwnConnectionNamesIsStillAnAddition) {
  std::string sent = Upstream();
  std::string got = sent;
  got.replace(got.find("Connection: close, x-upstream-hop"), 33, "Connection: close, X-Cache");
  got.replace(got.find("\r\n\r\n"), 2, "\r\nX-Cache: HIT");
  const ResponseComparison c = CompareResponses(sent, got);
  EXPECT_FALSE(c.same);
  EXPECT_THAT(c.detail, HasSubstr("added or changed: X-Cache"));
}

}  // namespace
}  // namespace azure_pricing::conformance::backend
