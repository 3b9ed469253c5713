// The properties suite: generated calls through the implementation, each property a record.
#include <cstdio>
#include <string>

#include "conformance/gate/run.h"
#include "conformance/gate/suites/suites.h"
#include "conformance/properties/gate_properties.h"

namespace azure_pricing::conformance::suites {
namespace {

void RunProperties(GateRun& run) {
  std::printf("\nproperties (seed %llu, %d calls each)\n",
              static_cast<unsigned long long>(run.options.seed), run.options.property_cases);
  size_t done = 0;
  for (const properties::GatePropertyInfo& info : properties::GateProperties()) {
    if (!run.options.Selected("properties", info.id)) continue;
    run.progress.Show("properties", done++, properties::GateProperties().size(), info.id);
    const auto results = properties::RunGateProperties(
        run.execute, {.seed = run.options.seed, .cases = run.options.property_cases},
        [&info](const std::string& id) { return id == info.id; });
    run.progress.Clear();
    for (const properties::GatePropertyResult& r : results) {
      std::printf("  %s %-48s %d calls\n", r.passed ? "ok  " : "FAIL", r.info.id.c_str(),
                  r.cases_passed + (r.passed ? 0 : 1));
      run.Add({.suite = "properties",
               .id = r.info.id,
               .requirements = r.info.requirements,
               .verdict = r.passed ? Verdict::kPassed : Verdict::kFailed,
               .expected = r.info.rule,
               .detail = r.passed ? ""
                                  : r.detail + " (rerun with --seed " +
                                        std::to_string(run.options.seed) + ")",
               .seconds = r.seconds});
    }
  }
}

}  // namespace

const Suite kProperties = {.name = "properties",
                           .description = "generated calls through the implementation (--seed)",
                           .in_all = true,
                           .judges = SuiteJudges::kImplementation,
                           .run = RunProperties};

}  // namespace azure_pricing::conformance::suites
