// The stack suite: end-to-end cases through the whole local stack (conformance/stack/README.md):
// the reference tool and its middleware, the router, the bubblewrap backend, the egress proxy,
// the CLI inside the sandbox (the real azmcp when AZURE_PRICING_AZMCP names it, else the fake)
// and the fake price API, serving the bundled catalog plus a generated one. Each case names the
// requirements it checks and, when it fails, what was expected and what happened.
//
//   StackSuiteResult r = RunStackSuite({});
//   for (const StackCaseResult& c : r.cases) std::cout << FormatStackCase(c) << "\n";
//   // r.failed == 0 when every case passed; r.cli says which CLI ran.
#ifndef CONFORMANCE_STACK_STACK_SUITE_H_
#define CONFORMANCE_STACK_STACK_SUITE_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "conformance/stack/local_stack.h"

namespace azure_pricing::conformance::stack {

struct StackCaseResult {
  std::string id;                         // "stack.completed_lookup"
  std::vector<std::string> requirements;  // ids in conformance/requirements.json
  bool passed = false;
  std::string expected;  // what the case requires, in one line
  std::string actual;    // what the stack did, in one line
  std::string detail;    // the first difference, or what passing showed
};

struct StackSuiteOptions {
  // The CLI in the image; unset: DefaultCli() (the real azmcp when AZURE_PRICING_AZMCP is set).
  std::optional<CliChoice> cli;
  std::string bwrap;  // empty: `bwrap` on PATH
  // Replaces what the fake API serves while the cases still expect the usual catalog: proves
  // the suite notices an upstream serving wrong data. Tests only.
  std::optional<std::string> served_catalog_for_testing;
  std::function<void(const StackCaseResult&)> progress;  // called as each case ends
  // Runs only the cases whose id it selects (the gate's --filter and --shard); unset: all.
  std::function<bool(const std::string& id)> selected;
};

// Every case's id, in the order the suite runs them.
std::vector<std::string> StackCaseIds();

struct StackSuiteResult {
  std::string cli;       // CliChoice::description of the CLI that ran
  bool real_cli = false;
  std::string problem;   // set when the stack did not start; then `cases` is empty
  int passed = 0;
  int failed = 0;        // counts a stack that did not start as one failure
  std::vector<StackCaseResult> cases;
};

StackSuiteResult RunStackSuite(const StackSuiteOptions& options);

// "  ok   ID: DETAIL" or "  FAIL ID [REQ, ...]: expected E; got A (DETAIL)".
std::string FormatStackCase(const StackCaseResult& result);

}  // namespace azure_pricing::conformance::stack

#endif  // CONFORMANCE_STACK_STACK_SUITE_H_
