// The command line of `azmcp pricing get` as the real 3.0.0-beta.46 reads it: System.CommandLine
// 2.0.11's tokenizer and parser (response files, `--opt=value` and `--opt:value`, POSIX bundling
// of `-h`/`-?`, `--`, greedy options that take the next word whatever it looks like, booleans that
// take only a word bool.TryParse accepts) for this one command's options, the CLI's own `--learn`
// check before any parsing, and what its ParseErrorAction prints (typo suggestions, errors).
// Probed on the real binary: fixtures/azmcp-3.0.0-beta.46-differential (the "parse:" scenarios).
#ifndef FAKES_AZMCP_COMMAND_LINE_H_
#define FAKES_AZMCP_COMMAND_LINE_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace azure_pricing::fakes::azmcp {

struct PricingGetOptions {
  // Empty when absent: the CLI treats an empty value as no filter.
  std::string sku, service, region, service_family, price_type, filter;
  std::optional<std::string> currency;
  bool include_savings_plan = false;
  // This fake's own switch (the later CLI's refusal of a NextPageLink to another host).
  bool refuse_foreign_next_page = false;
};

enum class CommandLineAction {
  kRun,         // options parsed; the command runs
  kHelp,        // help on stdout, exit 0
  kLearn,       // the tool's description on stdout, exit 0
  kParseError,  // suggestions and help on stdout, errors on stderr, exit 1
  kException,   // an exception System.CommandLine does not catch (a response file that is a
                // directory): the CLI's compact error envelope, exit 1
};

struct ParsedCommandLine {
  CommandLineAction action = CommandLineAction::kRun;
  PricingGetOptions options;  // kRun
  std::string suggestions;    // kParseError: stdout before the help text
  std::string errors;         // kParseError: stderr
  std::string exception;      // kException: the exception's message
};

// `args` are the words after `azmcp pricing get`. Response files (`@path`) are read relative to
// the working directory.
ParsedCommandLine ParsePricingGet(const std::vector<std::string>& args);

// .NET's bool.TryParse: "true" or "false" in any case, surrounding whitespace and NULs ignored.
std::optional<bool> DotnetParseBool(std::string_view text);

// System.CommandLine's typo distance: Levenshtein over the words' bytes.
int EditDistance(std::string_view a, std::string_view b);

// A string as System.Text.Json's default encoder writes it (quotes included): HTML-sensitive
// characters and everything outside ASCII as \uXXXX.
std::string JsonStringDefaultEncoder(std::string_view text);

}  // namespace azure_pricing::fakes::azmcp

#endif  // FAKES_AZMCP_COMMAND_LINE_H_
