// The CLI misbehaving inside the real bubblewrap sandbox of the local stack: each misbehaviour
// (misbehaving_cli.cc, one image each) ends the call with its own reason, no output reaches the
// model, and nothing is left on this machine: no process of the sandbox, no descriptor of this
// process (the egress proxy runs in it), no mount, no file under the backend's state directory
// or TMPDIR.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "conformance/backend/price_api_process.h"
#include "conformance/citations/cites.h"
#include "conformance/stack/host_leaks.h"
#include "conformance/stack/local_stack.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ref/base/runfiles.h"
#include "ref/pricing/reasons.h"
#include "ref/sandbox/bwrap/bwrap_backend.h"

namespace azure_pricing::conformance::stack {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// Small enough to keep the test fast, large enough for a sandbox to start on a loaded machine.
constexpr int64_t kTimeoutSeconds = 3;
constexpr int64_t kOutputBudget = 64 * 1024;
constexpr auto kCleanWithin = std::chrono::seconds(15);

// A local stack whose image holds the named misbehaving CLI, and what the machine looked like
// once it ran.
struct StackRun {
  PrivateTmpDir tmp;  // outlives the stack
  std::unique_ptr<LocalStack> stack;
  HostSnapshot before;
  host::CallReport report;
  std::vector<StackExec> execs;
  double seconds = 0;
};

std::unique_ptr<LocalStack> StartWith(const std::string& behaviour) {
  const CliChoice cli{.path = base::Runfile("conformance/stack/misbehaving_cli_" + behaviour),
                      .dotnet_bundle = false,
                      .real = false,
                      .description = "misbehaving CLI: " + behaviour};
  StatusOr<std::unique_ptr<LocalStack>> stack =
      LocalStack::Start({.cli = cli, .catalog_jsonl = ""});
  EXPECT_TRUE(stack.ok()) << stack.status().message();
  return stack.ok() ? std::move(*stack) : nullptr;
}

HostSnapshot Snapshot(const PrivateTmpDir& tmp, LocalStack& stack) {
  return TakeSnapshot({.dirs = {stack.backend().state_dir()},
                       .shared_dir = tmp.path(),
                       .ignore = {stack.price_api()->pid}});
}

// One call of the tool with the test's small bounds, timed.
bool CallOnce(StackRun& run, const std::string& arguments) {
  const auto began = Clock::now();
  StatusOr<host::CallReport> report = run.stack->Call(
      {.arguments = arguments, .exec_timeout_seconds = kTimeoutSeconds,
       .max_output_bytes = kOutputBudget},
      &run.execs);
  run.seconds = std::chrono::duration<double>(Clock::now() - began).count();
  EXPECT_TRUE(report.ok()) << report.status().message();
  if (!report.ok()) return false;
  run.report = std::move(*report);
  std::cout << "  " << OutcomeName(run.report.outcome) << " (" << run.report.reason << ") in "
            << run.seconds << " s\n";
  return true;
}

std::unique_ptr<StackRun> RunBehaviour(const std::string& behaviour,
                                  const std::string& arguments = R"({"sku":"B1MS"})") {
  auto run = std::make_unique<StackRun>();
  run->stack = StartWith(behaviour);
  if (run->stack == nullptr) return nullptr;
  run->before = Snapshot(run->tmp, *run->stack);
  if (!CallOnce(*run, arguments)) return nullptr;
  return run;
}

// A failed lookup: the reason, no report for the model, the one sandbox disposed, and the
// machine as it was.
void ExpectFailedClosed(const StackRun& run, Reason reason) {
  EXPECT_EQ(run.report.outcome, Outcome::kFailed);
  EXPECT_EQ(run.report.reason, reason);
  EXPECT_FALSE(run.report.output.has_value()) << *run.report.output;
  EXPECT_EQ(run.report.sandbox_acquisitions, 1);
  EXPECT_EQ(run.report.sandbox_disposals, 1);
  EXPECT_EQ(run.report.sandbox_live, 0);
  EXPECT_THAT(WaitUntilClean(run.before, kCleanWithin), IsEmpty());
}

CITES("BOUND-001", "BOUND-004", "INTRO-007");
TEST(MisbehavingCliTest, AHangingCliTimesOutAndIsKilled) {
  std::unique_ptr<StackRun> run = RunBehaviour("hang");
  ASSERT_NE(run, nullptr);
  ExpectFailedClosed(*run, reasons::kTimeout);
  EXPECT_GE(run->seconds, kTimeoutSeconds - 0.1);
  EXPECT_LT(run->seconds, kTimeoutSeconds + 10);
  ASSERT_EQ(run->execs.size(), 1u);
  EXPECT_FALSE(run->execs[0].result.ok());  // the backend gave no output at all
}

CITES("BOUND-002", "BOUND-004", "INTRO-007");
TEST(MisbehavingCliTest, FloodingStdoutEndsAtTheOutputBudget) {
  std::unique_ptr<StackRun> run = RunBehaviour("flood_stdout");
  ASSERT_NE(run, nullptr);
  ExpectFailedClosed(*run, reasons::kOutputLimit);
  EXPECT_LT(run->seconds, kTimeoutSeconds);  // the budget, not the clock, ended it
}

CITES("BOUND-002", "BOUND-004", "INTRO-007");
TEST(MisbehavingCliTest, FloodingStderrCountsAgainstTheSameBudget) {
  std::unique_ptr<StackRun> run = RunBehaviour("flood_stderr");
  ASSERT_NE(run, nullptr);
  ExpectFailedClosed(*run, reasons::kOutputLimit);
  EXPECT_LT(run->seconds, kTimeoutSeconds);
}

CITES("BOUND-014", "INTRO-007");
// The CLI exits 0 with a good (empty) result, leaving a detached child and grandchild that hold
// its stdout open: the call ends with the CLI and the PID namespace takes both with it.
TEST(MisbehavingCliTest, AChildThatOutlivesTheCliDiesWithTheSandbox) {
  std::unique_ptr<StackRun> run = RunBehaviour("orphan");
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->report.outcome, Outcome::kCompleted) << run->report.reason;
  EXPECT_EQ(run->report.sandbox_disposals, 1);
  EXPECT_LT(run->seconds, kTimeoutSeconds);  // the orphans did not hold the call open
  EXPECT_THAT(WaitUntilClean(run->before, kCleanWithin), IsEmpty());
}

CITES("BOUND-005", "BOUND-006", "INTRO-007");
TEST(MisbehavingCliTest, ExitingMidWriteIsNotAResult) {
  std::unique_ptr<StackRun> run = RunBehaviour("exit_mid_write");
  ASSERT_NE(run, nullptr);
  ExpectFailedClosed(*run, reasons::kMalformedEnvelope);
  ASSERT_EQ(run->execs.size(), 1u);
  ASSERT_TRUE(run->execs[0].result.ok());
  EXPECT_EQ(run->execs[0].result->exit_code, 0);  // a clean exit does not rescue half a result
}

CITES("BOUND-006", "INTRO-007");
TEST(MisbehavingCliTest, InvalidUtf8FailsClosed) {
  std::unique_ptr<StackRun> run = RunBehaviour("invalid_utf8");
  ASSERT_NE(run, nullptr);
  ExpectFailedClosed(*run, reasons::kInvalidUtf8);
}

CITES("BOUND-013", "INTRO-007");
TEST(MisbehavingCliTest, AnythingOnStderrFailsAGoodResult) {
  std::unique_ptr<StackRun> run = RunBehaviour("stderr_note");
  ASSERT_NE(run, nullptr);
  ExpectFailedClosed(*run, reasons::kStderrNotEmpty);
}

bool HostCanConnect(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  const bool ok = fd >= 0 && connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  if (fd >= 0) close(fd);
  return ok;
}

void ExpectNoWayOut(const Json& attempts) {
  ASSERT_TRUE(attempts.is_array());
  EXPECT_GE(attempts.size(), 9u);
  for (const Json& a : attempts) {
    const std::string kind = a.value("kind", "");
    std::cout << "    " << kind << " " << a.value("to", "") << ": "
              << (a.value("connected", false) ? "connected" : a.value("error", "")) << " "
              << a.value("answer", "") << "\n";
    if (kind == "tcp" || kind == "udp") {
      EXPECT_FALSE(a.value("connected", true)) << a.dump();
    } else {
      // The proxy itself is the one way out; it must refuse what is not GET prices.azure.com.
      EXPECT_TRUE(a.value("connected", false)) << a.dump();
      EXPECT_THAT(a.value("answer", ""), HasSubstr("HTTP/1.1 "));
      EXPECT_THAT(a.value("answer", ""), Not(HasSubstr(" 200"))) << a.dump();
    }
  }
}

CITES("HOST-008", "HOST-017", "BOUND-011", "BOUND-012", "INTRO-007");
// The CLI ignores HTTPS_PROXY and dials out itself, to the fake API's own port on loopback
// (given to it as the sku) and to outside addresses, and asks the proxy for a tunnel to that
// port and to another host: the sandbox has no route, the proxy refuses, the API sees nothing
// and the lookup fails closed.
TEST(MisbehavingCliTest, DialingOutDirectlyReachesNothing) {
  auto run = std::make_unique<StackRun>();
  run->stack = StartWith("direct_network");
  ASSERT_NE(run->stack, nullptr);
  const int port = run->stack->price_api()->port;
  ASSERT_TRUE(HostCanConnect(port)) << "the fake API must be reachable from outside the sandbox";
  ASSERT_TRUE(backend::ResetRequestLog(*run->stack->price_api()).ok());
  run->before = Snapshot(run->tmp, *run->stack);
  ASSERT_TRUE(CallOnce(*run, R"({"sku":")" + std::to_string(port) + R"("})"));
  ExpectFailedClosed(*run, reasons::kMalformedEnvelope);
  ASSERT_EQ(run->execs.size(), 1u);
  ASSERT_TRUE(run->execs[0].result.ok());
  const Json seen = Json::parse(run->execs[0].result->stdout_bytes, nullptr, false);
  ExpectNoWayOut(seen.is_object() ? seen["attempts"] : Json());
  StatusOr<std::vector<std::string>> received =
      backend::ReceivedMethods(*run->stack->price_api());
  ASSERT_TRUE(received.ok());
  EXPECT_THAT(*received, IsEmpty());
}

CITES("INTRO-009", "INTRO-010", "INTRO-007");
// Credentials in the host's environment never reach the CLI: not in its environment, not in any
// process it can see, and no credential file is mounted. The CLI prints everything it found.
TEST(MisbehavingCliTest, TheCliFindsNoCredentials) {
  const std::vector<std::pair<const char*, const char*>> planted = {
      {"AZURE_CLIENT_SECRET", "sekret"},       {"AZURE_CLIENT_ID", "sekret-client"},
      {"AZURE_TENANT_ID", "sekret-tenant"},     {"AZURE_FEDERATED_TOKEN_FILE", "/sekret/token"},
      {"IDENTITY_ENDPOINT", "http://sekret"},   {"MSI_ENDPOINT", "http://sekret-msi"},
      {"AZURE_USERNAME", "sekret-user"},        {"AZURE_PASSWORD", "sekret-password"}};
  for (const auto& [name, value] : planted) ASSERT_EQ(setenv(name, value, 1), 0);
  std::unique_ptr<StackRun> run = RunBehaviour("env_credentials");
  for (const auto& [name, value] : planted) unsetenv(name);
  ASSERT_NE(run, nullptr);
  ExpectFailedClosed(*run, reasons::kMalformedEnvelope);
  ASSERT_EQ(run->execs.size(), 1u);
  ASSERT_TRUE(run->execs[0].result.ok());
  const std::string& printed = run->execs[0].result->stdout_bytes;
  EXPECT_THAT(printed, Not(HasSubstr("sekret")));
  const Json seen = Json::parse(printed, nullptr, false);
  ASSERT_TRUE(seen.is_object()) << printed;
  std::cout << "  the CLI's environment:";
  for (const Json& entry : seen["env"]) {
    const std::string name = entry.get<std::string>().substr(0, entry.get<std::string>().find('='));
    std::cout << " " << name;
    for (const char* bad : {"SECRET", "TOKEN", "PASSWORD", "CLIENT", "TENANT", "IDENTITY", "MSI_",
                            "USERNAME", "CREDENTIAL"}) {
      EXPECT_THAT(name, Not(HasSubstr(bad)));
    }
  }
  std::cout << "\n";
  EXPECT_GE(seen["process_environments"].size(), 1u);
  for (const auto& [path, exists] : seen["files"].items()) {
    EXPECT_FALSE(exists.get<bool>()) << path << " is visible in the sandbox";
  }
}

}  // namespace
}  // namespace azure_pricing::conformance::stack
