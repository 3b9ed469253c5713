// The backend suite: the probes of a sandbox backend, the reference bubblewrap adapter or the
// --backend-adapter process (conformance/backend).
#include <cstdio>

#include "conformance/backend/backend_gate.h"
#include "conformance/backend/suite.h"
#include "conformance/gate/run.h"
#include "conformance/gate/suites/suites.h"

namespace azure_pricing::conformance::suites {
namespace {

void RunBackend(GateRun& run) {
  // --filter and --shard choose probes to run, not only records to keep: a shard pays for its
  // own probes alone.
  backend::BackendGateOptions options = run.options.backend_options;
  for (const backend::ProbeInfo& probe : backend::BackendProbes()) {
    if (run.options.Selected("backend", probe.id)) options.only.insert(probe.id);
  }
  if (options.only.empty()) return;
  std::printf("\n");  // the backend gate prints its own heading
  const backend::BackendGateResult result = backend::RunBackendGate(options);
  run.backend = result.description;
  if (!result.problem.empty()) {
    for (const backend::ProbeInfo& probe : backend::BackendProbes()) {
      if (!run.options.Selected("backend", probe.id)) continue;
      run.Add({.suite = "backend",
               .id = probe.id,
               .requirements = probe.requirements,
               .verdict = Verdict::kSkipped,
               .detail = "not run: " + result.problem});
    }
  }
  for (const backend::ProbeResult& r : result.probes) {  // the selected probes alone ran
    run.Add({.suite = "backend",
             .id = r.id,
             .requirements = r.requirements,
             .verdict = !r.applicable ? Verdict::kNotApplicable
                        : r.passed    ? Verdict::kPassed
                                      : Verdict::kFailed,
             // A passed probe keeps what it asserts and what it saw too: the report page's
             // probe table shows both for every probe.
             .expected = r.applicable ? r.expected : "",
             .actual = r.applicable ? r.detail : "",
             .detail = r.applicable ? "" : "not applicable: " + r.detail});
  }
}

}  // namespace

const Suite kBackend = {.name = "backend",
                        .description = "the probes of a sandbox backend (or --backend-adapter)",
                        .in_all = true,
                        .judges = SuiteJudges::kBackend,
                        .run = RunBackend};

}  // namespace azure_pricing::conformance::suites
