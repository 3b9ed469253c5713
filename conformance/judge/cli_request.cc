#include "conformance/judge/cli_request.h"

#include <optional>

#include "conformance/judge/filter_tree.h"
#include "fakes/azmcp/command_line.h"

namespace azure_pricing::conformance::judge {
namespace {

constexpr const char* kCommand[] = {"/usr/local/bin/azmcp", "pricing", "get"};
// The CLI's own default when --currency is absent (azmcp 3.0.0-beta.46, recorded).
constexpr char kCliDefaultCurrency[] = "USD";

struct Bound {
  fakes::azmcp::PricingGetOptions options;
  std::string problem;  // why the CLI would not run this lookup; empty when it would
};

std::string CommandProblem(const std::vector<std::string>& argv) {
  for (size_t i = 0; i < std::size(kCommand); ++i) {
    if (i >= argv.size()) return "argv ends before '" + std::string(kCommand[i]) + "'";
    if (argv[i] != kCommand[i]) {
      return "argv[" + std::to_string(i) + "] is not '" + std::string(kCommand[i]) + "'";
    }
  }
  return "";
}

Bound Bind(const std::vector<std::string>& argv) {
  Bound b;
  b.problem = CommandProblem(argv);
  if (!b.problem.empty()) return b;
  const std::vector<std::string> args(argv.begin() + std::size(kCommand), argv.end());
  for (const std::string& word : args) {
    // The CLI would read a response file, and the tool lands no files in the sandbox.
    if (word.starts_with('@')) {
      b.problem = "a word starts with '@', which the CLI reads as a response file";
      return b;
    }
  }
  const fakes::azmcp::ParsedCommandLine parsed = fakes::azmcp::ParsePricingGet(args);
  if (parsed.action != fakes::azmcp::CommandLineAction::kRun) {
    b.problem = "the CLI would not run this lookup (help, --learn or a parse error)";
  } else if (parsed.options.refuse_foreign_next_page) {
    b.problem = "--refuse-foreign-next-page is the fake CLI's own switch";
  }
  b.options = parsed.options;
  return b;
}

std::string Quoted(const std::string& value) { return "'" + value + "'"; }

std::string OptionDifferences(const fakes::azmcp::PricingGetOptions& got,
                              const fakes::azmcp::PricingGetOptions& want) {
  std::string out;
  auto compare = [&out](const char* name, const std::string& g, const std::string& w) {
    if (g == w) return;
    const std::string is = g.empty() ? "absent" : "is " + Quoted(g);
    out += std::string(out.empty() ? "" : "; ") + name + " " + is + ", want " +
           (w.empty() ? "absent" : Quoted(w));
  };
  compare("--sku", got.sku, want.sku);
  compare("--service", got.service, want.service);
  compare("--region", got.region, want.region);
  compare("--service-family", got.service_family, want.service_family);
  compare("--price-type", got.price_type, want.price_type);
  compare("--currency", got.currency.value_or(kCliDefaultCurrency),
          want.currency.value_or(kCliDefaultCurrency));
  if (got.include_savings_plan != want.include_savings_plan) {
    out += std::string(out.empty() ? "" : "; ") + "--include-savings-plan binds " +
           (got.include_savings_plan ? "true" : "false") + ", want " +
           (want.include_savings_plan ? "true" : "false");
  }
  return out;
}

std::string CliFilterOf(const fakes::azmcp::PricingGetOptions& o) {
  return CliFilter({.sku = o.sku, .service = o.service, .region = o.region,
                    .service_family = o.service_family, .price_type = o.price_type,
                    .filter = o.filter});
}

}  // namespace

std::string DescribeArgvDifference(const std::vector<std::string>& got,
                                   const std::vector<std::string>& want) {
  const Bound g = Bind(got), w = Bind(want);
  if (!w.problem.empty()) return "the case's argv does not bind: " + w.problem;
  if (!g.problem.empty()) return g.problem;
  std::string out = OptionDifferences(g.options, w.options);
  // The typed options are compared above; the filter the CLI would send says whether the raw
  // filter keeps its meaning once the CLI has ANDed it with them.
  const std::string filter = DescribeFilterDifference(ParseFilter(CliFilterOf(g.options)),
                                                      ParseFilter(CliFilterOf(w.options)));
  if (!filter.empty()) out += std::string(out.empty() ? "" : "; ") + "the CLI's $filter " + filter;
  return out;
}

}  // namespace azure_pricing::conformance::judge
