// Properties of argument refusal and of the fixed argv.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "conformance/citations/cites.h"
#include "conformance/properties/generators.h"
#include "ref/pricing/arguments.h"
#include "ref/pricing/lookup.h"
#include "ref/pricing/reasons.h"
#include "ref/pricing/region_plan.h"

namespace azure_pricing::conformance::properties {
CITES("INTRO-005", "ARG-007", "ARG-008", "UPSTREAM-003", "REGION-001", "REGION-002", "REGION-003",
      "REGION-004", "REGION-006", "BOUND-015");
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
    // The reference refuses the separators too (PROFILE-008, RECOMMENDED).
    bad = prefix +
          *rc::gen::oneOf(GenForbiddenCharacter(), GenLineOrParagraphSeparator()) + suffix;
    allowed_reasons = {reasons::kForbiddenCharacter};
  } else if (kind == 1) {
    bad = prefix + *GenInvalidUtf8() + suffix;
    allowed_reasons = {reasons::kInvalidUtf8};
  } else {
    const size_t bound = key == "filter" ? kMaxFilterLength : kMaxTypedValueLength;
    bad = prefix;
    auto code_points = [](const std::string& t) {
      return static_cast<size_t>(std::count_if(t.begin(), t.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
      }));
    };
    while (code_points(bad) <= bound) bad += suffix;
    allowed_reasons = {reasons::kValueTooLong};
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

// INTRO-005, ARG-007, UPSTREAM-003, REGION-001, REGION-002, REGION-006: every typed value is its
// own argv element right after its option, each option once, in the fixed order; the raw filter
// is wrapped in parentheses and otherwise untouched; an ARM region replaces --region with the
// region set ANDed before the raw filter, while Global and billing-zone names stay as they are.
RC_GTEST_PROP(ArgumentProperties, ValidArgumentsBuildTheFixedArgv, ()) {
  const Json args = *GenValidArguments();
  const StatusOr<LookupPlan> plan = PlanLookup(args.dump(), HostBounds{});
  RC_ASSERT(plan.ok());
  RC_ASSERT(ArgvProblem(args, plan->argv) == "");
  RC_ASSERT(plan->region.expanded == RegionExpands(args));
}

// REGION-003, REGION-004: the armRegionName detector finds the field outside string literals,
// in any letter case and as a whole word, and ignores it inside literals ('' escapes included).
RC_GTEST_PROP(ArgumentProperties, ArmRegionNameDetectorIgnoresLiterals, ()) {
  const int pieces = *rc::gen::inRange(1, 6);
  std::string filter;
  bool named_outside = false;
  for (int i = 0; i < pieces; ++i) {
    if (i > 0) filter += *rc::gen::element<std::string>(" and ", " or ");
    const int kind = *rc::gen::inRange(0, 5);
    const std::string field =
        *rc::gen::element<std::string>("armRegionName", "ARMREGIONNAME", "armregionname");
    switch (kind) {
      case 0:  // the field itself, outside any literal
        filter += field + " eq 'eastus'";
        named_outside = true;
        break;
      case 1:  // inside a literal, with escaped quotes around it
        filter += "meterName eq '" + *rc::gen::element<std::string>("", "x''", "''") + field +
                  *rc::gen::element<std::string>("", "''", " eq ''y''") + "'";
        break;
      case 2:  // a longer identifier that only contains the name
        filter += *rc::gen::element<std::string>("x", "_", "armRegionName2") +
                  (*rc::gen::arbitrary<bool>() ? field + "x" : "my" + field) + " eq 'a'";
        break;
      case 3:  // inside a function call's literal
        filter += "contains(meterName, '" + field + "')";
        break;
      default:  // an unrelated predicate
        filter += "(serviceName eq 'It''s (" + *GenSafeValue() + ")')";
        break;
    }
  }
  RC_ASSERT(FilterNamesArmRegionName(filter) == named_outside);
}

// PROJECT-002: a value made only of whitespace, in any string argument, is refused as
// empty_value before anything runs, like an empty one.
RC_GTEST_PROP(ArgumentProperties, BlankValuesAreRefusedAsEmpty, ()) {
  Json args = *GenValidArguments();
  if (!args.contains("sku")) args["sku"] = *GenSafeValue();
  const std::string key = *rc::gen::elementOf(
      std::vector<std::string>(std::begin(kStringArguments), std::end(kStringArguments)));
  const std::string blank = *GenBlankValue();
  const StatusOr<LookupPlan> plan = PlanLookup(ArgumentsText(args, key, blank), HostBounds{});
  RC_ASSERT(!plan.ok());
  RC_ASSERT(plan.status().outcome() == Outcome::kRefused);
  RC_ASSERT(plan.status().reason() == std::string_view(reasons::kEmptyValue));
  RC_ASSERT(plan.status().message().find("'" + key + "'") != std::string::npos);
}

// REGION-006, REGION-010: every location value, spelled exactly, reaches the CLI as --region
// unchanged and is never expanded. PROJECT-001: any other letter case of it is refused and the
// message names the exact spelling. PROJECT-004: so are its spacing variants.
RC_GTEST_PROP(ArgumentProperties, LocationValuesAreExactAndCaseVariantsRefused, ()) {
  const std::string exact = *rc::gen::elementOf(LocationValuesForTests());
  Json args = *GenValidArguments();
  args.erase("filter");
  args["region"] = exact;
  const StatusOr<LookupPlan> plan = PlanLookup(args.dump(), HostBounds{});
  RC_ASSERT(plan.ok());
  RC_ASSERT(!plan->region.expanded);
  const std::vector<std::string>& argv = plan->argv;
  const auto at = std::find(argv.begin(), argv.end(), "--region");
  RC_ASSERT(at != argv.end() && at + 1 != argv.end() && *(at + 1) == exact);
  RC_ASSERT(std::find(argv.begin(), argv.end(), "--filter") == argv.end());

  args["region"] = *GenCaseVariant(exact);
  const StatusOr<LookupPlan> refused = PlanLookup(args.dump(), HostBounds{});
  RC_ASSERT(!refused.ok());
  RC_ASSERT(refused.status().outcome() == Outcome::kRefused);
  RC_ASSERT(refused.status().reason() == std::string_view(reasons::kRegionCaseMismatch));
  // The one value it was meant to be is named, not merely listed among the others.
  RC_ASSERT(refused.status().message().find("location value '" + exact + "';") !=
            std::string::npos);

  // Spaces added at either end or doubled inside: refused as well, naming the value.
  std::string spaced = exact;
  const int where = *rc::gen::inRange(0, 3);
  if (where == 0) spaced = " " + spaced;
  if (where == 1) spaced += " ";
  if (where == 2) {
    const size_t space = spaced.find(' ');
    spaced = space == std::string::npos ? spaced + "  " : spaced.insert(space, " ");
  }
  args["region"] = spaced;
  const StatusOr<LookupPlan> spacing = PlanLookup(args.dump(), HostBounds{});
  RC_ASSERT(!spacing.ok());
  RC_ASSERT(spacing.status().reason() == std::string_view(reasons::kRegionWhitespace));
  RC_ASSERT(spacing.status().message().find("location value '" + exact + "'") !=
            std::string::npos);
}

}  // namespace
}  // namespace azure_pricing::conformance::properties
