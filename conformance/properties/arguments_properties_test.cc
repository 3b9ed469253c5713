// Properties of argument refusal and of the fixed argv.
// Requirements: ARG-007, ARG-008, BOUND-015, INTRO-005, UPSTREAM-003.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "conformance/properties/generators.h"
#include "ref/pricing/arguments.h"
#include "ref/pricing/lookup.h"

namespace azure_pricing::properties {
namespace {

const char* const kStringArguments[] = {"sku",        "service",  "region", "service_family",
                                        "price_type", "currency", "filter"};

// ARG-008: a control character, invalid UTF-8 or an oversize value in any string argument is
// refused before anything runs, and the refusal never contains the value.
RC_GTEST_PROP(ArgumentProperties, BadValuesAreRefusedWithoutEcho, ()) {
  Json args = *GenValidArguments();
  if (!args.contains("sku")) args["sku"] = *GenSafeValue();
  const std::string key = *rc::gen::elementOf(
      std::vector<std::string>(std::begin(kStringArguments), std::end(kStringArguments)));
  const std::string prefix = *GenSafeValue();
  const std::string suffix = *GenSafeValue();
  const int kind = *rc::gen::inRange(0, 3);
  std::string bad;
  std::vector<std::string> allowed_reasons;
  if (kind == 0) {
    bad = prefix + *GenForbiddenCharacter() + suffix;
    allowed_reasons = {"forbidden_character"};
  } else if (kind == 1) {
    bad = prefix + *GenInvalidUtf8() + suffix;
    allowed_reasons = {"invalid_utf8"};
  } else {
    const size_t bound = key == "filter" ? kMaxFilterLength : kMaxTypedValueLength;
    bad = prefix;
    auto code_points = [](const std::string& t) {
      return static_cast<size_t>(std::count_if(t.begin(), t.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
      }));
    };
    while (code_points(bad) <= bound) bad += suffix;
    allowed_reasons = {"value_too_long"};
  }
  const std::string text = ArgumentsText(args, key, bad);
  const StatusOr<LookupPlan> plan = PlanLookup(text, HostBounds{});
  RC_ASSERT(!plan.ok());
  RC_ASSERT(plan.status().outcome() == Outcome::kRefused);
  RC_ASSERT(std::find(allowed_reasons.begin(), allowed_reasons.end(),
                      std::string(plan.status().reason())) != allowed_reasons.end());
  const std::string& message = plan.status().message();
  RC_ASSERT(message.find(prefix) == std::string::npos);
  RC_ASSERT(message.find(suffix) == std::string::npos);
  RC_ASSERT(message.find(bad) == std::string::npos);
}

// INTRO-005, ARG-007, UPSTREAM-003: every typed value is its own argv element right after its
// option, each option once, in the fixed order; the raw filter is wrapped in parentheses and
// otherwise untouched.
RC_GTEST_PROP(ArgumentProperties, ValidArgumentsBuildTheFixedArgv, ()) {
  const Json args = *GenValidArguments();
  const StatusOr<LookupPlan> plan = PlanLookup(args.dump(), HostBounds{});
  RC_ASSERT(plan.ok());
  const std::vector<std::string>& argv = plan->argv;
  RC_ASSERT(argv.size() >= 5u);
  RC_ASSERT(argv[0] == "/usr/local/bin/azmcp");
  RC_ASSERT(argv[1] == "pricing");
  RC_ASSERT(argv[2] == "get");
  const std::vector<std::pair<std::string, std::string>> options = {
      {"sku", "--sku"},
      {"service", "--service"},
      {"region", "--region"},
      {"service_family", "--service-family"},
      {"price_type", "--price-type"},
      {"currency", "--currency"},
      {"filter", "--filter"}};
  size_t expected_size = 3;
  size_t last_position = 2;
  for (const auto& [name, option] : options) {
    const auto count = std::count(argv.begin(), argv.end(), option);
    const bool present = args.contains(name) || name == "currency";
    RC_ASSERT(count == (present ? 1 : 0));
    if (!present) continue;
    const size_t at =
        static_cast<size_t>(std::find(argv.begin(), argv.end(), option) - argv.begin());
    RC_ASSERT(at > last_position);
    last_position = at;
    RC_ASSERT(at + 1 < argv.size());
    std::string want = name == "currency" ? args.value("currency", std::string("USD"))
                                          : args[name].get<std::string>();
    if (name == "filter") want = "(" + want + ")";
    RC_ASSERT(argv[at + 1] == want);
    expected_size += 2;
  }
  const bool plan_flag = args.value("include_savings_plan", false);
  RC_ASSERT(std::count(argv.begin(), argv.end(), "--include-savings-plan") == (plan_flag ? 1 : 0));
  expected_size += plan_flag ? 1 : 0;
  RC_ASSERT(argv.size() == expected_size);
}

}  // namespace
}  // namespace azure_pricing::properties
