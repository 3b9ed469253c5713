// The backend conformance suite: probes that prove a sandbox backend enforces what
// azure_pricing_get relies on (exec fidelity, bounded exec, isolation, disposal, GET-only egress,
// and one real lookup). Every probe runs through the Backend interface only, as the tool does:
// acquire, ExecBounded of the probe program in the image, dispose. What it observes from outside
// (processes left on this machine, the fake price API's log) it observes on the machine the suite
// runs on, so a backend under test runs here, in process or as an adapter child process.
//
//   SuiteOptions options{.price_api = api, .cli_kind = "real azmcp 3.0.0-beta.46"};
//   std::vector<ProbeResult> results = RunBackendSuite(backend, options);
//
// Every probe runs; a run reports every failure, never only the first.
#ifndef CONFORMANCE_BACKEND_SUITE_H_
#define CONFORMANCE_BACKEND_SUITE_H_

#include <sys/types.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "conformance/backend/price_api_process.h"
#include "ref/sandbox/backend.h"

namespace azure_pricing::conformance::backend {

// How to start another instance of the adapter under test: the protocol probes speak to a fresh
// one line by line (an in-process backend has no protocol, and they do not apply).
struct AdapterCommand {
  std::vector<std::string> argv;  // argv[0] is a path
  std::vector<std::string> env;
  std::string working_directory;  // empty: this process's
};

struct SuiteOptions {
  PriceApi price_api;
  AdapterCommand adapter;  // empty argv: the backend is in process
  std::string cli_kind;        // what /usr/local/bin/azmcp in the image is, for the report
  std::set<pid_t> own_processes;  // the suite's helpers (e.g. an adapter) that are not leaks
  std::function<void(const std::string&)> progress;  // one line per probe as it finishes
  // Runs only these probes (the mutant tests aim one probe at one mutant); empty runs all.
  std::set<std::string> only;
};

struct ProbeResult {
  std::string id;
  std::vector<std::string> requirements;
  bool passed = false;
  // False when the probe does not apply to this backend (it declares no closed egress, or runs
  // in process so has no protocol); such a probe neither passes nor fails and is not counted.
  bool applicable = true;
  std::string detail;    // what was observed: on failure, the "got" of "expected X; got Y"
  std::string expected;  // what a conforming backend does, one line
};

struct ProbeInfo {
  std::string id;
  std::vector<std::string> requirements;
  std::string expected;
};

// Every probe, in the order they run.
std::vector<ProbeInfo> BackendProbes();

// Makes this process the reaper of orphaned descendants, so processes a backend leaves behind
// stay observable; call once, before starting the backend or its adapter.
void BecomeSubreaper();

// Sets well-known cloud credential variables (where unset) in this process's environment, so a
// backend that passes the host's environment into sandboxes is caught; call before starting the
// backend or its adapter.
void PlantCredentialCanaries();

std::vector<ProbeResult> RunBackendSuite(sandbox::Backend& backend, const SuiteOptions& options);

}  // namespace azure_pricing::conformance::backend

#endif  // CONFORMANCE_BACKEND_SUITE_H_
