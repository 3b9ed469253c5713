// The backend suite as the gate runs it: the fake price API, the image assembled for the run, the
// backend under test as an adapter process (the reference bubblewrap adapter, or any other), the
// probes, one line per probe, and the backend's own verdict.
#ifndef CONFORMANCE_BACKEND_BACKEND_GATE_H_
#define CONFORMANCE_BACKEND_BACKEND_GATE_H_

#include <set>
#include <string>
#include <vector>

#include "conformance/backend/suite.h"
#include "conformance/line_protocol/line_io.h"

namespace azure_pricing::conformance::backend {

struct BackendGateOptions {
  // The adapter command line, already split; empty runs the reference, the bubblewrap backend
  // through //conformance/backend:bwrap_adapter.
  std::vector<std::string> adapter;
  // The real azmcp to put in the suite's image (the npm cache's, by default).
  std::string azmcp;
  std::string bwrap;  // the bwrap program for the reference; empty: the one on PATH
  bool verbose = false;
  // Runs only these probes (the gate's --filter and --shard); empty runs all.
  std::set<std::string> only;
  // Shown every line to and from the adapter under test, the reference's too (the gate's
  // --validate-protocol); empty: none.
  conformance::line_protocol::LineObserver protocol_observer;
};

struct BackendGateResult {
  int passed = 0;
  int failed = 0;
  int not_applicable = 0;  // probes whose subject the backend does not declare
  std::vector<ProbeResult> probes;  // every probe that ran, in order
  // Why no probe ran (the fake API or the backend did not start); empty when they ran. The
  // gate reports every probe as skipped then, which fails it: zero skips.
  std::string problem;
  // The backend judged, as its adapter names itself ("bubblewrap 0.0.0.dev0 (the reference:
  // ...)"); empty when it did not start.
  std::string description;
};

BackendGateResult RunBackendGate(const BackendGateOptions& options);

// Splits an adapter command line on spaces, honouring '...' and "..." quoting; nullopt-like
// empty result with `problem` set when a quote is left open.
std::vector<std::string> SplitCommandLine(const std::string& line, std::string* problem);

}  // namespace azure_pricing::conformance::backend

#endif  // CONFORMANCE_BACKEND_BACKEND_GATE_H_
