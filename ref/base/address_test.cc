#include "ref/base/address.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ref/status/status_matchers.h"

namespace azure_pricing::base {
namespace {

TEST(ParseHostPortTest, ReadsHostAndPort) {
  struct Case {
    const char* text;
    const char* host;
    int port;
  } cases[] = {
      {"127.0.0.1:8080", "127.0.0.1", 8080},
      {"localhost:0", "localhost", 0},
      {"prices.azure.com:443", "prices.azure.com", 443},
      {"[::1]:443", "::1", 443},
      {"[fe80::1%eth0]:65535", "fe80::1%eth0", 65535},
      {"::1:443", "::1", 443},  // unbracketed: split at the last colon
      {"h:00080", "h", 80},
  };
  for (const Case& c : cases) {
    StatusOr<HostPort> got = ParseHostPort(c.text);
    ASSERT_THAT(got, IsOk()) << c.text;
    EXPECT_EQ(got->host, c.host) << c.text;
    EXPECT_EQ(got->port, c.port) << c.text;
  }
}

TEST(ParseHostPortTest, RefusesMalformedAddressesWithNamedReasons) {
  struct Case {
    const char* text;
    Reason reason;
  } cases[] = {
      {"", kAddressMissingPort},
      {"localhost", kAddressMissingPort},
      {"localhost:", kAddressMissingPort},
      {"[::1]", kAddressMissingPort},
      {"[::1]443", kAddressMissingPort},
      {":443", kAddressMissingHost},
      {"h:65536", kAddressBadPort},
      {"h:123456", kAddressBadPort},
      {"h:-1", kAddressBadPort},
      {"h:+1", kAddressBadPort},
      {"h: 1", kAddressBadPort},
      {"h:80abc", kAddressBadPort},
      {"[::1:443", kAddressBadBrackets},
      {"[]:443", kAddressBadBrackets},
      {"a]:443", kAddressBadBrackets},
  };
  for (const Case& c : cases) {
    EXPECT_THAT(ParseHostPort(c.text), ProgramErrorIs(c.reason)) << c.text;
  }
}

TEST(ParseHostPortTest, MessagesNeverRepeatTheInput) {
  const StatusOr<HostPort> got = ParseHostPort("secret-host.example:99999");
  EXPECT_THAT(got, ProgramErrorIs(kAddressBadPort, ::testing::Not(::testing::HasSubstr("secret"))));
}

}  // namespace
}  // namespace azure_pricing::base
