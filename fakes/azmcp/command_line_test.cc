// The fake's reading of `azmcp pricing get`'s words against what the real 3.0.0-beta.46 was seen
// to do (its System.CommandLine 2.0.11): each expectation here was probed on the real binary; the
// differential scenarios check the same forms end to end.
#include "fakes/azmcp/command_line.h"

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace azure_pricing::fakes::azmcp {
namespace {

ParsedCommandLine Parse(std::vector<std::string> args) { return ParsePricingGet(args); }

TEST(CommandLine, HelpInEveryFormWinsOverParseErrors) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--help"},
                                             {"-h"},
                                             {"-?"},
                                             {"/?"},
                                             {"/h"},
                                             {"-help"},
                                             {"-hx"},
                                             {"-h=x"},
                                             {"--help:1"},
                                             {"--bogus", "--help"},
                                             {"--sku", "A", "--sku", "B", "-h"},
                                             {"--help", "extra"}}) {
    EXPECT_EQ(Parse(args).action, CommandLineAction::kHelp) << args[0];
  }
  // A value option takes the next word, help or not.
  const ParsedCommandLine taken = Parse({"--sku", "--help"});
  EXPECT_EQ(taken.action, CommandLineAction::kRun);
  EXPECT_EQ(taken.options.sku, "--help");
  EXPECT_EQ(Parse({"--HELP"}).action, CommandLineAction::kParseError);
  EXPECT_EQ(Parse({"-xh"}).action, CommandLineAction::kParseError);
}

TEST(CommandLine, LearnAnywhereInAnyCaseWinsOverEverything) {
  EXPECT_EQ(Parse({"--sku", "--LEARN"}).action, CommandLineAction::kLearn);
  EXPECT_EQ(Parse({"--help", "--learn"}).action, CommandLineAction::kLearn);
  EXPECT_EQ(Parse({"--", "--learn"}).action, CommandLineAction::kLearn);
  // Split from its value it is only a boolean option the command ignores.
  EXPECT_EQ(Parse({"--learn=true"}).action, CommandLineAction::kRun);
}

TEST(CommandLine, MissingValue) {
  const ParsedCommandLine p = Parse({"--sku"});
  EXPECT_EQ(p.action, CommandLineAction::kParseError);
  EXPECT_EQ(p.suggestions, "");
  EXPECT_EQ(p.errors, "Required argument missing for option: '--sku'.\n\n");
  EXPECT_EQ(Parse({"--service="}).errors, "Required argument missing for option: '--service'.\n\n");
  EXPECT_EQ(
      Parse({"--sku", "--", "A"}).errors,
      "Unrecognized command or argument 'A'.\nRequired argument missing for option: '--sku'.\n\n");
}

TEST(CommandLine, AnOptionWhereAValueShouldBeIsTheValue) {
  const ParsedCommandLine p = Parse({"--sku", "--region", "eastus"});
  EXPECT_EQ(p.errors, "Unrecognized command or argument 'eastus'.\n\n");
  EXPECT_EQ(p.suggestions, "\n");
  // Unless it carries its own value: then it is that option.
  EXPECT_EQ(Parse({"--filter", "--sku:x"}).errors,
            "Required argument missing for option: '--filter'.\n\n");
}

TEST(CommandLine, RepeatedOptions) {
  EXPECT_EQ(Parse({"--sku", "A", "--sku", "B"}).errors,
            "Option '--sku' expects a single argument but 2 were provided.\n\n");
  EXPECT_EQ(
      Parse({"--service", "X", "--include-savings-plan", "true", "--include-savings-plan", "false"})
          .errors,
      "Option '--include-savings-plan' expects a single argument but 2 were provided.\n\n");
  EXPECT_EQ(Parse({"--include-savings-plan", "--include-savings-plan", "--sku", "A"}).action,
            CommandLineAction::kRun);
}

TEST(CommandLine, ValueForms) {
  const ParsedCommandLine p = Parse({"--sku=A", "--service:X", "--region==r", "--currency", ""});
  ASSERT_EQ(p.action, CommandLineAction::kRun) << p.errors;
  EXPECT_EQ(p.options.sku, "A");
  EXPECT_EQ(p.options.service, "X");
  EXPECT_EQ(p.options.region, "=r");
  EXPECT_EQ(p.options.currency, "");
  EXPECT_EQ(Parse({"--sku", "A", "--"}).action, CommandLineAction::kRun);
}

TEST(CommandLine, BooleanTakesOnlyWhatBoolTryParseAccepts) {
  EXPECT_TRUE(
      Parse({"--sku", "A", "--include-savings-plan", " TRUE "}).options.include_savings_plan);
  EXPECT_FALSE(Parse({"--sku", "A", "--include-savings-plan=false"}).options.include_savings_plan);
  EXPECT_TRUE(Parse({"--include-savings-plan", "--sku", "A"}).options.include_savings_plan);
  for (const std::string word : {"yes", "1", ""}) {
    EXPECT_EQ(Parse({"--sku", "A", "--include-savings-plan", word}).errors,
              "Unrecognized command or argument '" + word + "'.\n\n");
  }
}

TEST(CommandLine, TypoSuggestionsAreTheClosestOptions) {
  const ParsedCommandLine p = Parse({"--serv"});
  EXPECT_EQ(p.suggestions,
            "'--serv' was not matched. Did you mean one of the "
            "following?\n--service\n--sku\n--learn\n\n");
  EXPECT_EQ(Parse({"--SKU", "A"}).suggestions,
            "'--SKU' was not matched. Did you mean one of the following?\n--sku\n\n");
  EXPECT_EQ(Parse({"--SKU", "A"}).errors,
            "Unrecognized command or argument '--SKU'.\nUnrecognized command or argument 'A'.\n\n");
  EXPECT_EQ(Parse({"--version"}).suggestions,
            "'--version' was not matched. Did you mean one of the following?\n--region\n\n");
  EXPECT_EQ(Parse({"--", "--sku", "A"}).suggestions,
            "'--sku' was not matched. Did you mean one of the following?\n--sku\n\n");
  EXPECT_EQ(Parse({"foo"}).suggestions, "\n");
}

std::string TempFile(const std::string& name, const std::string& content) {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(dir == nullptr ? "/tmp" : dir) + "/" + name;
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

TEST(CommandLine, ResponseFiles) {
  const std::string file = TempFile("args.rsp",
                                    "\xEF\xBB\xBF--sku \"Standard_D8s_v5\"\r\n  # "
                                    "comment\n\n--reg\"ion\" west\"europe\" @/dev/null\n");
  const ParsedCommandLine p = Parse({"@" + file});
  ASSERT_EQ(p.action, CommandLineAction::kRun) << p.errors;
  EXPECT_EQ(p.options.sku, "Standard_D8s_v5");
  EXPECT_EQ(p.options.region, "westeurope");
  // Its words go where it stood, so the first is a preceding option's value.
  EXPECT_EQ(Parse({"--sku", "@" + file}).errors,
            "Unrecognized command or argument 'Standard_D8s_v5'.\n\n");
  // Under /proc, where nothing can create them: /nonexistent has been seen to exist.
  EXPECT_EQ(Parse({"@/proc/no-such-response-file"}).errors,
            "Response file not found '/proc/no-such-response-file'.\n\n");
  EXPECT_EQ(Parse({"@/proc/no-such-directory/x"}).errors,
            "Error reading response file '/proc/no-such-directory/x': Could not find a part of the "
            "path '/proc/no-such-directory/x'.\n\n");
  const std::string nested = TempFile("nested.rsp", "--service X\n@/proc/no-such-response-file\n");
  EXPECT_EQ(Parse({"@" + nested}).errors, "Response file not found '" + nested + "'.\n\n");
  const ParsedCommandLine dir = Parse({"@/"});
  EXPECT_EQ(dir.action, CommandLineAction::kException);
  EXPECT_EQ(dir.exception, "Access to the path '/' is denied.");
  EXPECT_EQ(Parse({"@"}).errors, "Unrecognized command or argument '@'.\n\n");
}

TEST(CommandLine, QuotedWordsInAResponseFile) {
  const std::string file = TempFile("quotes.rsp", "--sku \"a b\"c\n--filter x\"y z\"w\n");
  const ParsedCommandLine p = Parse({"@" + file});
  EXPECT_EQ(p.options.sku, "a b");
  EXPECT_EQ(p.options.filter, "xy zw");
  EXPECT_EQ(p.errors, "Unrecognized command or argument 'c'.\n\n");
}

TEST(CommandLine, DotnetBool) {
  EXPECT_EQ(DotnetParseBool("True"), true);
  EXPECT_EQ(DotnetParseBool(std::string("false\0", 6)), false);
  EXPECT_EQ(DotnetParseBool("yes"), std::nullopt);
}

TEST(CommandLine, DefaultEncoderEscapesHtmlSensitiveAndNonAscii) {
  EXPECT_EQ(JsonStringDefaultEncoder("d'<\xC3\xA9>+&\\\"\n"),
            "\"d\\u0027\\u003C\\u00E9\\u003E\\u002B\\u0026\\\\\\u0022\\n\"");
  EXPECT_EQ(JsonStringDefaultEncoder("\xF0\x9F\x98\x80"), "\"\\uD83D\\uDE00\"");
}

}  // namespace
}  // namespace azure_pricing::fakes::azmcp
