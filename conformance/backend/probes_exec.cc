// Exec fidelity and bounded exec: what the tool's one ExecBounded call relies on.
#include <chrono>
#include <set>

#include "conformance/backend/suite_internal.h"

namespace azure_pricing::conformance::backend::internal {
namespace {

using std::chrono::milliseconds;
using Json = nlohmann::json;

// Long past the 2 s timeouts below, short enough that a backend which never kills costs the run
// seconds, not minutes.
constexpr char kSleeperSeconds[] = "12";

Observation Argv(Context& ctx) {
  const std::vector<std::string> args = {"with space", "\"double\" 'single'", "new\nline",
                                         "ünïcødé ✓", "", "--flag=value"};
  std::vector<std::string> call = {"argv"};
  call.insert(call.end(), args.begin(), args.end());
  std::string why;
  const std::optional<Json> out = ProbeJson(ctx, call, &why);
  if (!out) return Fail(why);
  if (out->value("argv", Json::array()) != Json(args)) return Fail("argv arrived as " + out->dump());
  return Pass("6 awkward arguments arrived byte for byte");
}

Observation ExitCodes(Context& ctx) {
  for (int code : {0, 1, 7, 255}) {
    const StatusOr<sandbox::ExecResult> r = RunInSandbox(ctx, {"exit", std::to_string(code)});
    if (!r.ok()) return Fail("exit " + std::to_string(code) + ": " + Describe(r.status()));
    if (r->exit_code != code) {
      return Fail("exit " + std::to_string(code) + " came back as " + std::to_string(r->exit_code));
    }
  }
  return Pass("exit codes 0, 1, 7, 255 came back unchanged");
}

Observation Environment(Context& ctx) {
  ExecOptions options;
  options.env = {"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp/probe-home", "LANG=C.UTF-8",
                 "SPACED=a b  c", "EMPTY=", "UNICODE=é✓"};
  std::string why;
  const std::optional<Json> out = ProbeJson(ctx, {"env"}, &why, options);
  if (!out) return Fail(why);
  std::multiset<std::string> seen, expected(options.env.begin(), options.env.end());
  bool proxy = false, cert = false;
  for (const Json& e : out->value("env", Json::array())) {
    const std::string entry = e.is_string() ? e.get<std::string>() : e.dump();
    if (entry.rfind("HTTPS_PROXY=", 0) == 0 && !proxy) {
      proxy = true;
    } else if (entry.rfind("SSL_CERT_FILE=", 0) == 0 && !cert) {
      cert = true;
    } else {
      seen.insert(entry);
    }
  }
  if (!proxy || !cert) return Fail("HTTPS_PROXY or SSL_CERT_FILE was not added for egress");
  if (seen != expected) {
    // Names only: a leaking backend may be leaking secrets, which do not belong in a log.
    std::string names;
    for (const std::string& e : seen) {
      if (expected.count(e) == 0) names += " +" + e.substr(0, e.find('='));
    }
    for (const std::string& e : expected) {
      if (seen.count(e) == 0) names += " -" + e.substr(0, e.find('='));
    }
    return Fail("the environment differs from the request (+added, -missing or changed):" + names);
  }
  return Pass("exactly the 6 requested variables plus HTTPS_PROXY and SSL_CERT_FILE");
}

Observation WorkingDirectory(Context& ctx) {
  std::string why;
  const std::optional<Json> out = ProbeJson(ctx, {"cwd"}, &why);
  if (!out) return Fail(why);
  if (out->value("cwd", "") != "/tmp/probe-home") {
    return Fail("started in " + out->value("cwd", "?") + ", not HOME");
  }
  return Pass("started in HOME (/tmp/probe-home)");
}

Observation TimeoutReturns(Context& ctx) {
  const std::string marker = ctx.Marker();
  const StatusOr<sandbox::ExecResult> r =
      RunInSandbox(ctx, {"tree", marker, kSleeperSeconds}, {.timeout_seconds = 2});
  const double seconds = ctx.last_exec_seconds;
  if (r.ok()) return Fail("a 12 s sleeper with a 2 s timeout returned without a timeout");
  if (r.status().reason() != sandbox::kExecTimeoutReason) {
    return Fail("failed as " + Describe(r.status()) + ", not timeout");
  }
  // Sooner than the timeout means nothing ran until it; much later means nothing was killed.
  if (seconds < 1.5 || seconds > 7) {
    return Fail("the exec ended after " + std::to_string(seconds).substr(0, 4) +
                " s, not at its 2 s timeout");
  }
  return Pass("timed out after " + std::to_string(seconds).substr(0, 4) + " s (limit 2 s)");
}

Observation TimeoutKillsTree(Context& ctx) {
  const std::string marker = ctx.Marker();
  MarkerWatch watch(marker);
  const StatusOr<sandbox::ExecResult> r =
      RunInSandbox(ctx, {"tree", marker, kSleeperSeconds}, {.timeout_seconds = 2});
  const int seen = watch.most_seen();
  if (r.ok()) return Fail("the sleeper was not stopped at the timeout");
  if (seen < 3) return Fail("the sleeper's three processes were never seen running");
  const int left = MarkedProcessesAfter(marker, milliseconds(2000));
  if (left != 0) return Fail(std::to_string(left) + " of the sleeper's processes outlived the call");
  return Pass("the sleeper, its child and grandchild ran and are gone");
}

Observation FloodRefused(Context& ctx) {
  const StatusOr<sandbox::ExecResult> r = RunInSandbox(
      ctx, {"flood", std::to_string(4 << 20), "stdout"}, {.max_output_bytes = 64 << 10});
  if (r.ok()) {
    return Fail("4 MiB against a 64 KiB budget returned " + std::to_string(r->stdout_bytes.size()) +
                " bytes as success");
  }
  if (r.status().reason() != sandbox::kExecOutputLimitReason) {
    return Fail("failed as " + Describe(r.status()) + ", not output_limit");
  }
  return Pass("4 MiB against a 64 KiB budget failed as output_limit");
}

Observation NoPartialOutput(Context& ctx) {
  const StatusOr<sandbox::ExecResult> r = RunInSandbox(
      ctx, {"flood", std::to_string(256 << 10), "stdout"}, {.max_output_bytes = 64 << 10});
  if (r.ok()) return Fail("an overflow returned " + std::to_string(r->stdout_bytes.size()) +
                          " bytes of partial output as a result");
  if (r.status().reason() != sandbox::kExecOutputLimitReason) {
    return Fail("failed as " + Describe(r.status()) + ", not output_limit");
  }
  return Pass("the overflow carried no output, only " + Describe(r.status()));
}

Observation StderrCounts(Context& ctx) {
  const StatusOr<sandbox::ExecResult> only = RunInSandbox(
      ctx, {"flood", std::to_string(1 << 20), "stderr"}, {.max_output_bytes = 64 << 10});
  if (only.ok()) return Fail("1 MiB on stderr against a 64 KiB budget was accepted");
  if (only.status().reason() != sandbox::kExecOutputLimitReason) {
    return Fail("stderr alone failed as " + Describe(only.status()) + ", not output_limit");
  }
  const StatusOr<sandbox::ExecResult> split = RunInSandbox(
      ctx, {"flood", std::to_string(40 << 10), "both"}, {.max_output_bytes = 64 << 10});
  if (split.ok()) return Fail("40 KiB on each stream passed a 64 KiB budget: not one budget");
  if (split.status().reason() != sandbox::kExecOutputLimitReason) {
    return Fail("both streams failed as " + Describe(split.status()) + ", not output_limit");
  }
  return Pass("stderr alone, and both streams together, are held to the one budget");
}

Observation ExactBudget(Context& ctx) {
  const StatusOr<sandbox::ExecResult> r = RunInSandbox(
      ctx, {"flood", std::to_string(64 << 10), "stdout"}, {.max_output_bytes = 64 << 10});
  if (!r.ok()) return Fail("output of exactly the budget failed: " + Describe(r.status()));
  if (r->stdout_bytes.size() != (64u << 10)) return Fail("output was cut or padded");
  return Pass("exactly 64 KiB against a 64 KiB budget came back whole");
}

// A budget of 0 is a budget, not "unset": no output is fine, one byte is too much.
Observation ZeroBudget(Context& ctx) {
  const StatusOr<sandbox::ExecResult> silent =
      RunInSandbox(ctx, {"flood", "0", "stdout"}, {.max_output_bytes = 0});
  if (!silent.ok()) {
    return Fail("a program that wrote nothing against a budget of 0 failed as " +
                Describe(silent.status()));
  }
  if (silent->exit_code != 0) {
    return Fail("a program that wrote nothing came back with exit " +
                std::to_string(silent->exit_code));
  }
  const StatusOr<sandbox::ExecResult> one =
      RunInSandbox(ctx, {"flood", "1", "stdout"}, {.max_output_bytes = 0});
  if (one.ok()) return Fail("one byte against a budget of 0 came back as success");
  if (one.status().reason() != sandbox::kExecOutputLimitReason) {
    return Fail("one byte against a budget of 0 failed as " + Describe(one.status()) +
                ", not output_limit");
  }
  return Pass("against a budget of 0, no output came back ok and one byte failed as output_limit");
}

// An argv[0] that names no program: exit 127 as a shell reports it, or the backend's failure;
// never a success that looks like the program ran.
Observation MissingProgram(Context& ctx) {
  StatusOr<std::unique_ptr<sandbox::Sandbox>> box = AcquireSandbox(ctx, SuiteSpec());
  if (!box.ok()) return Fail("the suite's spec was " + Describe(box.status()));
  sandbox::BoundedExec* bounded = (*box)->bounded_exec();
  StatusOr<sandbox::ExecResult> r =
      bounded == nullptr
          ? Status(Outcome::kRefused, kNoBoundedExec, "the backend offers no BoundedExec")
          : bounded->ExecBounded({.argv = {"/usr/local/bin/no-such-program-" + ctx.Marker()},
                                  .env = ExecOptions().env,
                                  .timeout_seconds = 30,
                                  .max_output_bytes = 1 << 20});
  (void)ctx.backend.Dispose(std::move(*box));
  if (r.ok() && r->exit_code == 127) return Pass("a missing program came back as exit 127");
  if (r.ok()) {
    return Fail("a missing program came back ok with exit " + std::to_string(r->exit_code) +
                ", not 127");
  }
  if (r.status().outcome() != Outcome::kFailed) {
    return Fail("a missing program was " + Describe(r.status()) + ", not failed");
  }
  return Pass("a missing program failed: " + Describe(r.status()));
}

Observation ClosedStdout(Context& ctx) {
  const std::string marker = ctx.Marker();
  MarkerWatch watch(marker);
  const StatusOr<sandbox::ExecResult> r =
      RunInSandbox(ctx, {"close-stdout", marker, kSleeperSeconds}, {.timeout_seconds = 2});
  if (watch.most_seen() < 1) return Fail("the program was never seen running");
  const int left = MarkedProcessesAfter(marker, milliseconds(2000));
  if (left != 0) return Fail("a program that closed stdout outlived the call");
  if (r.ok()) return Fail("a program still running at the timeout was reported as finished");
  if (r.status().reason() != sandbox::kExecTimeoutReason) {
    return Fail("failed as " + Describe(r.status()) + ", not timeout");
  }
  return Pass("closing stdout ended nothing early; the timeout stopped it");
}

Observation DaemonLeftBehind(Context& ctx) {
  const std::string marker = ctx.Marker();
  const StatusOr<sandbox::ExecResult> r = RunInSandbox(ctx, {"daemon", marker, "60"});
  const double seconds = ctx.last_exec_seconds;
  std::string why;
  const std::optional<Json> out = ProbeJson(r, &why);
  if (!out) return Fail(why);
  if (!out->value("daemon", false)) return Fail("the probe did not start its detached process");
  if (seconds > 10) return Fail("a detached process kept the call alive for the timeout");
  const int left = MarkedProcessesAfter(marker, milliseconds(2000));
  if (left != 0) return Fail("the detached process outlived the call");
  return Pass("returned at once and the detached process is gone");
}

}  // namespace

std::vector<ProbeDef> ExecProbes() {
  return {
      {{"exec.argv", {"INTRO-005", "HOST-006"}, "argv arrives in the sandbox byte for byte"}, Argv},
      {{"exec.exit_code", {"HOST-006"}, "exit codes come back unchanged"}, ExitCodes},
      {{"exec.environment", {"HOST-012", "HOST-013", "INTRO-010"},
        "the environment is exactly the request's plus HTTPS_PROXY and SSL_CERT_FILE"},
       Environment},
      {{"exec.working_directory", {"HOST-006"}, "the program starts in HOME"},
       WorkingDirectory},
      {{"bounded.timeout", {"BOUND-004"}, "a program still running at its timeout is stopped and the exec fails as timeout"},
       TimeoutReturns},
      {{"bounded.timeout_kills_tree", {"BOUND-004", "INTRO-007"},
        "a timed-out program and every process it started are gone"},
       TimeoutKillsTree},
      {{"bounded.output_limit", {"BOUND-002"}, "output past the budget fails the exec as output_limit"},
       FloodRefused},
      {{"bounded.no_partial_output", {"BOUND-002"},
        "an overflowing exec fails with no partial output"},
       NoPartialOutput},
      {{"bounded.stderr_counts", {"BOUND-002"}, "stdout and stderr count together toward one budget"},
       StderrCounts},
      {{"bounded.exact_budget", {"BOUND-002"}, "output of exactly the budget comes back whole"},
       ExactBudget},
      {{"bounded.zero_budget", {"BOUND-002"},
        "with max_output_bytes 0, no output is ok and any output fails the exec as output_limit"},
       ZeroBudget},
      {{"exec.missing_program", {"HOST-006"},
        "an argv[0] that names no program comes back as exit 127 or fails, never as success"},
       MissingProgram},
      {{"bounded.closed_stdout", {"BOUND-004", "INTRO-007"},
        "a program that closes stdout and keeps running is stopped at the timeout"},
       ClosedStdout},
      {{"bounded.detached_process", {"BOUND-004", "INTRO-007"},
        "an exec returns when its program exits, and what it left behind is gone"},
       DaemonLeftBehind},
  };
}

}  // namespace azure_pricing::conformance::backend::internal
