// print_transcript: runs the gate's runner against reference_testee through a relay that writes
// down every line both ways (the transcript in PROTOCOL.md is this program's output), then a
// second session of raw lines that shows the error answers.
//
//   tools/bazel run //conformance/testee:print_transcript
#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "conformance/line_protocol/child.h"
#include "conformance/testee/runner.h"
#include "ref/base/main_guard.h"

namespace azure_pricing::conformance::testee {
namespace {

namespace lp = ::azure_pricing::conformance::line_protocol;

// Forwards bytes from `from` to `to`, writing each whole line to `log` after `prefix`; false at
// EOF.
bool Forward(int from, int to, std::string& pending, const char* prefix, std::FILE* log) {
  char buffer[65536];
  const ssize_t n = read(from, buffer, sizeof buffer);
  if (n <= 0) return false;
  if (!lp::WriteAll(to, std::string_view(buffer, static_cast<size_t>(n)), std::nullopt)) {
    return false;
  }
  pending.append(buffer, static_cast<size_t>(n));
  for (size_t end; (end = pending.find('\n')) != std::string::npos; pending.erase(0, end + 1)) {
    std::fprintf(log, "%s %s\n", prefix, pending.substr(0, end).c_str());
  }
  std::fflush(log);
  return true;
}

// --relay TESTEE LOG: this program between the runner (its stdin/stdout) and the testee.
int Relay(const std::string& testee, const std::string& log_path) {
  lp::PipedChild child;
  if (!lp::SpawnPiped({testee}, {}, "", child)) return 1;
  std::FILE* log = std::fopen(log_path.c_str(), "w");
  if (log == nullptr) return 1;
  std::string to_testee, from_testee;
  for (bool open = true; open;) {
    pollfd fds[2] = {{0, POLLIN, 0}, {child.from_child, POLLIN, 0}};
    if (poll(fds, 2, 10'000) <= 0) break;  // the runner's deadlines are shorter
    if (fds[0].revents != 0) open = Forward(0, child.to_child, to_testee, ">", log);
    if (open && fds[1].revents != 0) open = Forward(child.from_child, 1, from_testee, "<", log);
  }
  std::fclose(log);
  lp::CloseFd(child.to_child);
  (void)child.process.ExitedBy(lp::Clock::now() + std::chrono::seconds(5));
  lp::KillAndReap(child);
  return 0;
}

// One host case with rows: the call, the testee's acquire, exec and dispose, its report.
void RunnerSession(const std::string& self, const std::string& testee, const std::string& log) {
  StatusOr<std::unique_ptr<TesteeProcess>> process =
      TesteeProcess::Start({self, "--relay", testee, log}, {});
  if (!process.ok()) return;
  conformance::host::ScriptedCall call;
  call.arguments = R"({"sku":"Standard_D2s_v5","filter":"armRegionName eq 'eastus'"})";
  call.middleware = {"tracker"};
  // The first row of fixtures/azmcp-3.0.0-beta.46/cli-stdout/success-basic.json, another sku.
  call.scripts.push_back({.exec = {.stdout_bytes =
      R"({"status":200,"message":"Success","results":{"prices":[{"armSkuName":"Standard_D)"
      R"(2s_v5","skuName":"D4s v5","productName":"Virtual Machines Dsv5 Series","serviceN)"
      R"(ame":"Virtual Machines","serviceFamily":"Compute","region":"eastus","location":")"
      R"(US East","retailPrice":0.192,"unitPrice":0.192,"currencyCode":"USD","unitOfMeasu)"
      R"(re":"1 Hour","priceType":"Consumption","effectiveStartDate":"2023-07-01T00:00:00)"
      R"(+00:00","meterName":"D4s v5","meterId":"00000000-0000-0000-0000-000000000001","i)"
      R"(sPrimaryMeterRegion":true}]}})"}});
  (void)(*process)->RunCall(call);
  // A second call in the same host, refused before any sandbox: no callback at all.
  call.same_host = true;
  call.call_id = "call-2";
  call.arguments = R"({"currency":"EUR"})";
  call.scripts.clear();
  (void)(*process)->RunCall(call);
}

// Raw lines, each with its answer: what a testee says to lines that are not messages.
void RawSession(const std::string& testee) {
  lp::PipedChild child;
  if (!lp::SpawnPiped({testee}, {}, "", child)) return;
  lp::LineReader reader(child.from_child, size_t{1} << 24);
  const char* lines[] = {
      (R"({"seq":1,"op":"case","call":{"arguments":"{}","same_host":false,"host":{},)"
       R"("backend":{},"labels":{},"middleware":[]}})"),
      R"({"seq":2,"op":"hello","protocol":"azure-pricing-testee/1"})",
      R"({"seq":3,"op":"hello","protocol":"azure-pricing-testee/4"})",
      R"({"seq":3,"op":"stop"})",
      "not json",
      R"({"seq":5,"op":"dance"})",
      R"({"seq":6,"op":"stop"})",
  };
  for (const char* line : lines) {
    std::printf("> %s\n", line);
    if (!lp::WriteAll(child.to_child, std::string(line) + "\n", std::nullopt)) break;
    std::string answer;
    if (reader.Next(answer, lp::Clock::now() + std::chrono::seconds(10)) != lp::ReadResult::kLine) {
      break;
    }
    std::printf("< %s\n", answer.c_str());
  }
  lp::CloseFd(child.to_child);
  (void)child.process.ExitedBy(lp::Clock::now() + std::chrono::seconds(5));
  lp::KillAndReap(child);
}

int Main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "--relay") == 0) return Relay(argv[2], argv[3]);
  if (argc != 2) {
    std::fprintf(stderr, "usage: print_transcript REFERENCE_TESTEE\n");
    return 64;
  }
  const char* dir = std::getenv("TMPDIR");
  const std::string log = std::string(dir != nullptr ? dir : "/tmp") + "/testee-transcript." +
                          std::to_string(getpid());
  std::string self = argv[0];
  if (self.find('/') == std::string::npos) self = "./" + self;
  RunnerSession(self, argv[1], log);
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  std::printf("%s\n", text.str().c_str());
  std::remove(log.c_str());
  RawSession(argv[1]);
  return 0;
}

}  // namespace
}  // namespace azure_pricing::conformance::testee

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("print_transcript", [&] { return azure_pricing::conformance::testee::Main(argc, argv); });
}
