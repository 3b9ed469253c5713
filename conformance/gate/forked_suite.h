// A gate suite run in a child process of the gate, beside the suites the gate runs itself.
//
// The suites that start their own stack (the backend probes, the stack cases, the live check's
// dry run) spend most of their time waiting on sandboxes, servers and the CLI, so the gate runs
// them concurrently. Each runs in a forked child: its own process tree (the backend suite kills
// whatever its probes leave behind among its descendants, so no suite may share its tree), its
// own stdout and stderr captured, its records and protocol tally sent back when it ends. The
// gate prints each child's output in the registry's order, after the suites before it, so the
// page reads exactly as a run one suite after another.
#ifndef CONFORMANCE_GATE_FORKED_SUITE_H_
#define CONFORMANCE_GATE_FORKED_SUITE_H_

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "conformance/gate/record.h"
#include "conformance/gate/suite_registry.h"
#include "conformance/protocol_schema/validator.h"

namespace azure_pricing::conformance {

struct GateRun;

// What a child sends back: its records, its time, the backend it judged (the backend suite's)
// and, under --validate-protocol, the protocol lines it checked. Written as length-prefixed fields, so any bytes survive.
struct SuiteOutcome {
  std::vector<GateRecord> records;
  double seconds = 0;
  std::string backend;
  protocol_schema::LineRecorder::Tally tally;
};

std::string EncodeSuiteOutcome(const SuiteOutcome& outcome);
// False when `wire` is not a whole outcome (a child that died while writing it).
bool DecodeSuiteOutcome(const std::string& wire, SuiteOutcome& outcome);

class ForkedSuite {
 public:
  // Forks a child that runs `suite` against a copy of `run` (its options, catalog and
  // implementation; no executor, since these suites never call the implementation). Nothing,
  // with the reason in `problem`, when the child cannot be started.
  static std::unique_ptr<ForkedSuite> Start(const Suite& suite, const GateRun& run,
                                            std::string& problem);
  ~ForkedSuite();  // a child not finished is killed and reaped
  ForkedSuite(const ForkedSuite&) = delete;
  ForkedSuite& operator=(const ForkedSuite&) = delete;

  // Waits for the child until `deadline` (then kills it), prints what it printed, and adds its
  // records, time and protocol tally to `run`. A child that died, or sent back no whole outcome,
  // is a gate failure named `suite-process`, after whatever output it left.
  void Finish(GateRun& run, std::chrono::steady_clock::time_point deadline);

  const std::string& name() const { return name_; }
  pid_t pid() const { return pid_; }  // -1 once reaped

 private:
  ForkedSuite(std::string name, pid_t pid, int out_fd, int err_fd, int outcome_fd);
  int Wait(std::chrono::steady_clock::time_point deadline, bool& timed_out);

  std::string name_;
  pid_t pid_;
  int out_fd_, err_fd_, outcome_fd_;  // unlinked files the child wrote, read from the start
};

// The gate's default deadline for one forked suite: far past any suite's own timeouts, so only a
// child that hangs reaches it.
inline constexpr std::chrono::minutes kForkedSuiteDeadline{30};

}  // namespace azure_pricing::conformance

#endif  // CONFORMANCE_GATE_FORKED_SUITE_H_
