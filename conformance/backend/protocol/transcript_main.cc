// print_transcript: runs AdapterBackend against fake_adapter and prints the conversation as the
// adapter saw it (the transcript in PROTOCOL.md is this program's output), then a second session
// of raw lines that shows the error answers.
//
//   tools/bazel run //conformance/backend/protocol:print_transcript
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "conformance/backend/protocol/client.h"
#include "ref/base/main_guard.h"
#include "ref/base/subprocess.h"

namespace azure_pricing::conformance::backend::protocol {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string TempPath(const char* name) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name + "." + std::to_string(getpid());
}

sandbox::Spec PricingSpec() {
  sandbox::Spec spec;
  spec.min_isolation = sandbox::Isolation::kContainer;
  spec.required = {sandbox::Capability::kExec};
  spec.egress = sandbox::Egress::kAllowlist;
  spec.egress_allow = {{"prices.azure.com", std::set<std::string>{"GET"}}};
  spec.isolation_scope = sandbox::IsolationScope::kCall;
  return spec;
}

// The client's session: hello, an acquire with the test upstream, a good exec, an exec that
// times out (the fake's virtual delay), dispose, stop.
bool ClientSession(const std::string& adapter, const std::string& transcript) {
  auto backend = AdapterBackend::Start(
      {adapter, "--name", "example-adapter", "--version", "0.1.0", "--accept-redirect", "--stdout",
       "{\"Items\":[]}\n", "--delay-ms", "2000", "--transcript", transcript},
      {});
  if (!backend.ok()) return false;
  (void)(*backend)->RedirectEgress(
      {"127.0.0.1", 8443, "-----BEGIN CERTIFICATE-----\nMIIB...\n-----END CERTIFICATE-----\n"});
  auto sandbox = (*backend)->Acquire(PricingSpec(), {"agent-1", "session-1", "call-1"});
  if (!sandbox.ok() || (*sandbox)->bounded_exec() == nullptr) return false;
  sandbox::ExecRequest exec{{"azmcp", "pricing", "get", "--sku", "Standard_D2s_v5"},
                            {"AZURE_MCP_COLLECT_TELEMETRY=false"},
                            60,
                            8 * 1024 * 1024};
  const bool ran = (*sandbox)->bounded_exec()->ExecBounded(exec).ok();
  exec.timeout_seconds = 1;
  const bool timed_out = !(*sandbox)->bounded_exec()->ExecBounded(exec).ok();
  const bool disposed = (*backend)->Dispose(std::move(sandbox).value()).ok();
  return ran && timed_out && disposed;
}

constexpr char kRawLines[] =
    "{\"seq\":1,\"op\":\"dispose\",\"sandbox\":\"sandbox-1\"}\n"
    "{\"seq\":2,\"op\":\"hello\",\"protocol\":\"azure-pricing-backend/1\"}\n"
    "this is not json\n"
    "{\"seq\":2,\"op\":\"stop\"}\n"
    "{\"seq\":3,\"op\":\"launch\"}\n"
    "{\"seq\":4,\"op\":\"dispose\",\"sandbox\":\"sandbox-9\"}\n"
    "{\"seq\":5,\"op\":\"dispose\"}\n"
    "{\"seq\":6,\"op\":\"stop\"}\n";

// Raw lines straight into the adapter's stdin, answers recorded by its --transcript.
bool RawSession(const std::string& adapter, const std::string& transcript) {
  const std::string input = TempPath("raw_lines");
  std::ofstream(input) << kRawLines;
  const StatusOr<base::SubprocessResult> run = base::Subprocess::Run(
      {.argv = {adapter, "--transcript", transcript}, .env = std::vector<std::string>(),
       .in = base::Stdio::File(input), .out = base::Stdio::DevNull()},
      std::chrono::seconds(10));
  std::remove(input.c_str());
  return run.ok() && run->exit_code == 0;
}

int Main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: print_transcript PATH_TO_FAKE_ADAPTER\n";
    return 2;
  }
  const std::string client = TempPath("client_transcript"), raw = TempPath("raw_transcript");
  const bool client_ok = ClientSession(argv[1], client);
  const bool raw_ok = RawSession(argv[1], raw);
  std::cout << "# The client's session (> received by the adapter, < sent by it)\n"
            << Slurp(client) << "\n# Raw lines, each answered\n"
            << Slurp(raw);
  std::remove(client.c_str());
  std::remove(raw.c_str());
  if (!client_ok || !raw_ok) {
    std::cerr << "print_transcript: a session did not go as scripted\n";
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace azure_pricing::conformance::backend::protocol

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("print_transcript", [&] { return azure_pricing::conformance::backend::protocol::Main(argc, argv); });
}
