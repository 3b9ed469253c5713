#include "conformance/judge/cli_request.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "conformance/citations/cites.h"

namespace azure_pricing {
CITES("PROFILE-004", "PROFILE-005", "INTRO-002", "INTRO-005");
namespace conformance::judge {
namespace {

using ::testing::HasSubstr;
using Argv = std::vector<std::string>;

const Argv kWant = {"/usr/local/bin/azmcp", "pricing", "get", "--sku", "Standard_D4s_v5",
                    "--currency", "USD", "--include-savings-plan", "--filter",
                    "(armRegionName eq 'eastus' or armRegionName eq 'Global') and (m eq 'a')"};

TEST(CliRequest, OptionOrderSpellingAndOperandOrderCarryNoMeaning) {
  const Argv got = {"/usr/local/bin/azmcp", "pricing", "get", "--filter=(m eq 'a') and "
                    "(armRegionName eq 'Global' or armRegionName eq 'eastus')",
                    "--include-savings-plan", "true", "--currency:USD", "--sku", "Standard_D4s_v5"};
  EXPECT_EQ(DescribeArgvDifference(got, kWant), "");
}

TEST(CliRequest, AnAbsentCurrencyIsTheCliDefault) {
  Argv got = kWant;
  got.erase(got.begin() + 5, got.begin() + 7);
  EXPECT_EQ(DescribeArgvDifference(got, kWant), "");
}

TEST(CliRequest, EachOptionIsComparedByNameAndValue) {
  Argv got = kWant;
  got[4] = "Standard_D2s_v5";
  got.erase(got.begin() + 7);
  EXPECT_EQ(DescribeArgvDifference(got, kWant),
            "--sku is 'Standard_D2s_v5', want 'Standard_D4s_v5'; --include-savings-plan binds "
            "false, want true; the CLI's $filter lacks armSkuName eq 'Standard_D4s_v5'; has "
            "armSkuName eq 'Standard_D2s_v5'");
}

TEST(CliRequest, AnUnparenthesisedRawFilterChangesTheQuery) {
  const Argv want = {"/usr/local/bin/azmcp", "pricing", "get", "--sku", "S", "--filter",
                     "(m eq 'a' or m eq 'b')"};
  const Argv got = {"/usr/local/bin/azmcp", "pricing", "get", "--sku", "S", "--filter",
                    "m eq 'a' or m eq 'b'"};
  EXPECT_THAT(DescribeArgvDifference(got, want), HasSubstr("the CLI's $filter is"));
}

TEST(CliRequest, TheCommandIsFixed) {
  Argv got = kWant;
  got[0] = "azmcp";
  EXPECT_EQ(DescribeArgvDifference(got, kWant), "argv[0] is not '/usr/local/bin/azmcp'");
  EXPECT_EQ(DescribeArgvDifference({"/usr/local/bin/azmcp", "pricing"}, kWant),
            "argv ends before 'get'");
}

TEST(CliRequest, WhatTheCliWouldNotRunDiffersFromEverything) {
  Argv help = kWant;
  help.push_back("--help");
  EXPECT_THAT(DescribeArgvDifference(help, kWant), HasSubstr("would not run"));
  Argv unknown = kWant;
  unknown.push_back("--read-only");
  EXPECT_THAT(DescribeArgvDifference(unknown, kWant), HasSubstr("would not run"));
  Argv response = kWant;
  response.push_back("@/tmp/args");
  EXPECT_THAT(DescribeArgvDifference(response, kWant), HasSubstr("response file"));
}

}  // namespace
}  // namespace conformance::judge
}  // namespace azure_pricing
