#include "conformance/gate/implementation.h"

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "conformance/host/scripted_host.h"
#include "conformance/line_protocol/line_io.h"
#include "conformance/protocol_schema/validator.h"
#include "ref/base/paths.h"
#include "ref/pricing/package.h"

namespace azure_pricing::conformance {
namespace {

// The smallest call a testee must answer: a lookup whose CLI returns no rows. Any well-formed
// answer passes; what the answer says is for the cases to judge.
host::ScriptedCall SmokeCall() {
  host::ScriptedCall call;
  call.arguments = R"({"sku":"Standard_D2s_v5","region":"westeurope"})";
  call.scripts.push_back(
      {.exec = {.stdout_bytes = R"({"status":200,"message":"Success","results":{"prices":[]}})"}});
  return call;
}

// Hello and the smoke call; the problem, or nothing. A testee that fails here is a broken
// adapter, not a non-conformant implementation, so no case is run against it.
std::string StartTestee(const GateOptions& options, std::unique_ptr<testee::TesteeProcess>& out) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  std::vector<std::string> argv = options.testee;
  argv[0] = base::ResolveProgram(argv[0]);
  // `bazel run` starts the gate in its runfiles; the testee's relative paths mean the user's.
  conformance::line_protocol::LineObserver observer;
  if (options.protocol_recorder) {
    observer = options.protocol_recorder->ObserverFor(protocol_schema::Protocol::kTestee);
  }
  StatusOr<std::unique_ptr<testee::TesteeProcess>> started =
      testee::TesteeProcess::Start(argv, env, base::CallerDirectory(), {}, std::move(observer));
  if (!started.ok()) {
    return "no hello answer (" + std::string(started.status().reason()) +
           "): " + started.status().message();
  }
  const StatusOr<host::CallReport> smoke = (*started)->RunCall(SmokeCall());
  if (!smoke.ok()) {
    return "the trivial case failed (" + std::string(smoke.status().reason()) +
           "): " + smoke.status().message();
  }
  out = std::move(*started);
  return "";
}

}  // namespace

std::unique_ptr<testee::TesteeProcess> StartImplementation(GateRun& run) {
  const GateOptions& o = run.options;
  if (!o.RunsAny(SuiteJudges::kImplementation) && !o.RunsAny(SuiteJudges::kStack)) {
    // Nothing of an implementation is judged, and no suite that uses the reference tool runs.
    std::vector<std::string_view> selected;
    for (const Suite* suite : o.registry) {
      if (o.Runs(std::string(suite->name))) selected.push_back(suite->name);
    }
    std::printf("implementation: none judged (%s only)\n", SuitesPhrase(selected).c_str());
    return nullptr;
  }
  if (o.testee.empty() || !o.RunsAny(SuiteJudges::kImplementation)) {
    run.implementation = std::string(kPackageName) + " " + kPackageVersion;
    std::printf("implementation: reference (in process), %s\n", run.implementation.c_str());
    return nullptr;
  }
  std::unique_ptr<testee::TesteeProcess> testee;
  const std::string broken = StartTestee(o, testee);
  run.implementation =
      testee ? testee->implementation().name + " " + testee->implementation().version : "unknown";
  std::printf("implementation: %s (testee: %s)\n", run.implementation.c_str(),
              o.testee_command.c_str());
  if (!broken.empty()) run.GateFailure("testee-adapter", "testee adapter broken: " + broken);
  if (testee && testee->version() != testee::Version::kV4) {
    std::printf("notice: the testee speaks %s; its reports do not say whether the output was "
                "hidden or what the policy logged, so the cases judging that fail "
                "(conformance/testee/PROTOCOL.md, Changes from version 3)\n",
                std::string(testee::VersionName(testee->version())).c_str());
  }
  return testee;
}

}  // namespace azure_pricing::conformance
