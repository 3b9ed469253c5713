// sandbox_overhead: what the bubblewrap backend costs per call, measured against the same work
// unsandboxed in the same run.
//   1. acquire + exec of /bin/true + dispose, against a bare fork/exec of /bin/true;
//   2. the real azmcp's lookup sandboxed against the same lookup unsandboxed, both through the
//      egress proxy to the fake price API, alternating, compared as a median ratio; plus the
//      unsandboxed lookup with a fresh HOME, which shows what the image's unpacked bundle saves.
//
//   tools/bazel run -c opt //tools/bench:sandbox_overhead [-- --calls 200 --cli-runs 10]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "conformance/backend/price_api_process.h"
#include "ref/pricing/host.h"
#include "ref/base/files.h"
#include "ref/base/flags.h"
#include "ref/base/main_guard.h"
#include "ref/base/runfiles.h"
#include "ref/egress/proxy.h"
#include "ref/pricing/command.h"
#include "ref/sandbox/bwrap/bounded_process.h"
#include "ref/sandbox/bwrap/bwrap_backend.h"
#include "ref/sandbox/bwrap/image.h"
#include "tools/bench/rows.h"

namespace {

// --rows: one JSON row per measure (tools/bench/ROWS.md) instead of the text.
bool g_rows = false;


namespace base = azure_pricing::base;
namespace bwrap = azure_pricing::sandbox::bwrap;
namespace sandbox = azure_pricing::sandbox;
namespace bench = azure_pricing::tools::bench;
using azure_pricing::Status;
using azure_pricing::StatusOr;
using Clock = std::chrono::steady_clock;

const std::vector<std::string> kLookup = {"pricing", "get", "--sku", "Standard_D4s_v5",
                                          "--region", "westeurope"};

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())));
  return v[i];
}

// Appends the seconds one call takes; false when it failed, which ends the measurement (a
// number from failed calls would be a lie).
bool Timed(std::vector<double>& into, const std::function<bool()>& call) {
  const Clock::time_point start = Clock::now();
  if (!call()) {
    std::fprintf(stderr, "sandbox_overhead: a measured call failed\n");
    return false;
  }
  into.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  return true;
}

bool SandboxedExec(bwrap::BwrapBackend& backend, const std::vector<std::string>& argv,
                   const std::vector<std::string>& env) {
  // The tool's own spec: a default Spec is closed egress, where the lookup could not reach the API.
  StatusOr<std::unique_ptr<sandbox::Sandbox>> box =
      backend.Acquire(azure_pricing::PricingSandboxSpec("bench"), {"bench", "s", "c"});
  if (!box.ok()) return false;
  const StatusOr<sandbox::ExecResult> r = (*box)->bounded_exec()->ExecBounded(
      {.argv = argv, .env = env, .timeout_seconds = 60, .max_output_bytes = 8 << 20});
  const bool ok = r.ok() && r->exit_code == 0 && backend.Dispose(std::move(*box)).ok();
  if (!ok && r.ok()) std::fprintf(stderr, "exit %d: %s\n", r->exit_code, r->stderr_bytes.c_str());
  return ok;
}

bool BareExec(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  const StatusOr<sandbox::ExecResult> r =
      bwrap::RunBounded({.argv = argv, .env = env, .timeout_ms = 60'000});
  return r.ok() && r->exit_code == 0;
}

bool MeasureTrue(bwrap::BwrapBackend& backend, int calls) {
  std::vector<double> boxed, bare;
  for (int i = 0; i < calls; ++i) {
    if (!Timed(boxed, [&] { return SandboxedExec(backend, {"/bin/true"}, {}); }) ||
        !Timed(bare, [&] { return BareExec({"/bin/true"}, {}); })) {
      return false;
    }
  }
  if (g_rows) {
    const double p50 = 1e3 * Percentile(boxed, 0.5), p99 = 1e3 * Percentile(boxed, 0.99);
    const double b50 = 1e3 * Percentile(bare, 0.5);
    bench::PrintRow({.measure = "sandbox lifecycle: acquire + exec(/bin/true) + dispose, p50 (" +
                                std::to_string(calls) + " calls)",
                     .figure = p50, .unit = "ms", .baseline = "the same exec unsandboxed, p50",
                     .baseline_figure = b50, .ratio = p50 / b50,
                     .note = "p99 " + std::to_string(p99).substr(0, 5) + " ms"});
    return true;
  }
  std::printf("acquire + exec(/bin/true) + dispose, %d calls, alternating with a bare exec:\n",
              calls);
  std::printf("  sandboxed  p50 %6.2f ms  p99 %6.2f ms\n", 1e3 * Percentile(boxed, 0.5),
              1e3 * Percentile(boxed, 0.99));
  std::printf("  bare       p50 %6.2f ms  p99 %6.2f ms\n", 1e3 * Percentile(bare, 0.5),
              1e3 * Percentile(bare, 0.99));
  return true;
}

struct CliSetup {
  std::string bundle;      // the image's copy of the real azmcp
  std::string extracted;   // the image's unpacked native libraries
  std::string proxy_url;   // an egress proxy on TCP for the unsandboxed runs
  std::string proxy_ca;
  std::string scratch;
};

std::vector<std::string> BareCliEnv(const CliSetup& s, const std::string& home, bool fresh) {
  std::vector<std::string> env = {"HOME=" + home, "PATH=/usr/bin:/bin", "LANG=C.UTF-8",
                                  "HTTPS_PROXY=" + s.proxy_url, "SSL_CERT_FILE=" + s.proxy_ca,
                                  "AZURE_MCP_COLLECT_TELEMETRY=false",
                                  "AZURE_MCP_COLLECT_TELEMETRY_MICROSOFT=false"};
  env.push_back("DOTNET_BUNDLE_EXTRACT_BASE_DIR=" + (fresh ? home + "/.net" : s.extracted));
  return env;
}

bool BareCli(const CliSetup& s, int run, bool fresh) {
  const std::string home = s.scratch + "/home-" + std::to_string(run) + (fresh ? "-fresh" : "");
  std::filesystem::create_directories(home);
  std::vector<std::string> argv = {s.bundle};
  argv.insert(argv.end(), kLookup.begin(), kLookup.end());
  const bool ok = BareExec(argv, BareCliEnv(s, home, fresh));
  std::filesystem::remove_all(home);
  return ok;
}

double Median(std::vector<double> v) { return Percentile(std::move(v), 0.5); }

bool MeasureCli(bwrap::BwrapBackend& backend, const CliSetup& s, int runs) {
  std::vector<double> boxed, bare, fresh;
  std::vector<std::string> argv = {std::string(azure_pricing::kAzmcpPath)};
  argv.insert(argv.end(), kLookup.begin(), kLookup.end());
  for (int i = 0; i < runs; ++i) {
    if (!Timed(boxed, [&] { return SandboxedExec(backend, argv, azure_pricing::CliEnvironment()); }) ||
        !Timed(bare, [&] { return BareCli(s, i, /*fresh=*/false); }) ||
        !Timed(fresh, [&] { return BareCli(s, i, /*fresh=*/true); })) {
      return false;
    }
  }
  if (g_rows) {
    const double ratio = Median(boxed) / Median(bare);
    bench::PrintRow({.measure = "sandbox: the real azmcp lookup sandboxed, median of " +
                                std::to_string(runs),
                     .figure = Median(boxed), .unit = "s",
                     .baseline = "the same bundle run bare through the same proxy",
                     .baseline_figure = Median(bare), .ratio = ratio,
                     .floor = "<= 1.15x (aim 1.05x)", .verdict = bench::Verdict(ratio <= 1.15),
                     .note = "fresh HOME (bundle unpacked per run): " +
                             std::to_string(Median(fresh)).substr(0, 5) + " s"});
    return true;
  }
  std::printf("real azmcp lookup (%s), %d runs each, alternating, through the egress proxy:\n",
              "Standard_D4s_v5 in westeurope", runs);
  std::printf("  unsandboxed, unpacked bundle   median %5.3f s\n", Median(bare));
  std::printf("  sandboxed (bubblewrap)         median %5.3f s\n", Median(boxed));
  std::printf("  unsandboxed, fresh HOME        median %5.3f s  (unpacks 42 MB each run)\n",
              Median(fresh));
  std::printf("  ratio sandboxed / unsandboxed  %.3fx  (floor 1.15x, aim 1.05x)\n",
              Median(boxed) / Median(bare));
  return true;
}

}  // namespace

namespace {

struct Run {
  std::string scratch;
  std::unique_ptr<azure_pricing::conformance::backend::PriceApiProcess> api;
  std::unique_ptr<azure_pricing::egress::EgressProxy> proxy;
  std::unique_ptr<bwrap::BwrapBackend> backend;
  CliSetup cli;
  ~Run() {
    backend.reset();
    if (proxy) proxy->Stop();
    api.reset();
    std::error_code ignored;
    if (!scratch.empty()) std::filesystem::remove_all(scratch, ignored);
  }
};

// Everything both measurements need; an error line when something cannot be set up.
std::string SetUp(Run& run, const std::string& azmcp) {
  char pattern[] = "/tmp/sandbox-overhead-XXXXXX";
  if (mkdtemp(pattern) == nullptr) return "cannot make a scratch directory";
  run.scratch = pattern;
  auto api = azure_pricing::conformance::backend::PriceApiProcess::Start(
      base::Runfile("fakes/prices_server/prices_server"),
      azure_pricing::conformance::backend::kSuiteCatalog, run.scratch);
  if (!api.ok()) return api.status().message();
  run.api = std::move(*api);
  const std::string image = run.scratch + "/image";
  const Status made = bwrap::AssembleImage({.azmcp = azmcp,
                                            .sandbox_init = base::Runfile("ref/sandbox/bwrap/sandbox_init"),
                                            .provenance = azmcp},
                                           image);
  if (!made.ok()) return made.message();
  const auto& p = run.api->api();
  auto backend = bwrap::BwrapBackend::Create({.image_dir = image,
                                              .upstream = sandbox::EgressUpstream{"127.0.0.1", p.port, p.ca_pem},
                                              .egress_log = [](const std::string&) {}});
  if (!backend.ok()) return backend.status().message();
  run.backend = std::move(*backend);
  const std::string upstream_ca = run.scratch + "/api-ca.pem";
  if (!base::WriteFileAtomically(upstream_ca, p.ca_pem).ok()) return "cannot write a CA file";
  run.proxy = std::make_unique<azure_pricing::egress::EgressProxy>(azure_pricing::egress::ProxyOptions{
      .upstream_host = "127.0.0.1", .upstream_port = p.port, .upstream_ca_file = upstream_ca,
      .log = [](const std::string&) {}});
  if (!run.proxy->Start().ok()) return "the egress proxy did not start";
  run.cli = {.bundle = image + "/usr/local/lib/azmcp/azmcp",
             .extracted = image + "/usr/local/lib/azmcp/extract",
             .proxy_url = "http://127.0.0.1:" + std::to_string(run.proxy->port()),
             .proxy_ca = run.scratch + "/egress-ca.pem",
             .scratch = run.scratch};
  if (!base::WriteFileAtomically(run.cli.proxy_ca, run.proxy->egress_ca_pem()).ok()) {
    return "cannot write the egress CA";
  }
  return "";
}

}  // namespace

static int UnguardedMain(int argc, char** argv) {
  std::string problem;
  const StatusOr<base::Flags> flags = base::Flags::ParseOrExplain(
      argc, argv,
      {{"--calls", base::FlagKind::kValue}, {"--cli-runs", base::FlagKind::kValue},
       {"--azmcp", base::FlagKind::kValue}, {"--rows", base::FlagKind::kSwitch}},
      &problem);
  if (!flags.ok()) {
    std::cerr << "sandbox_overhead: " << problem
              << "\nusage: sandbox_overhead [--calls N] [--cli-runs N] [--azmcp FILE] [--rows]\n";
    return 64;
  }
  g_rows = flags->Has("--rows");
  const int calls = std::max(1, std::atoi(flags->Value("--calls").value_or("200").c_str()));
  const int runs = std::max(1, std::atoi(flags->Value("--cli-runs").value_or("10").c_str()));
  const char* cached = std::getenv("AZURE_PRICING_AZMCP");
  const std::string azmcp = flags->Value("--azmcp").value_or(cached != nullptr ? cached : "");
  if (azmcp.empty()) {
    std::cerr << "sandbox_overhead: no real azmcp (run through tools/bazel, or give --azmcp)\n";
    return 1;
  }
  Run run;
  std::cerr << "sandbox_overhead: assembling an image with " << azmcp << "\n";
  if (const std::string failed = SetUp(run, azmcp); !failed.empty()) {
    std::cerr << "sandbox_overhead: " << failed << "\n";
    return 1;
  }
  return MeasureTrue(*run.backend, calls) && MeasureCli(*run.backend, run.cli, runs) ? 0 : 1;
}

int main(int argc, char** argv) {
  return azure_pricing::base::GuardedMain("sandbox_overhead", [&] { return UnguardedMain(argc, argv); });
}
